// Generated code for a compiled writer (as ajv and fast-json-stringify do):
// the program of ./writer-program.ts written out as JavaScript, one set of
// functions per program node, members dispatched by a switch on the key. It
// is that module's interpreter specialised to one schema: same answers, same
// text, and it gives up in the same cases (the call is then walked by
// ./to-json.ts). Like the interpreter, it is the one walk (../schema/walk.ts)
// specialised per schema from the same plans.
//
// Safety: schema text reaches the code only as JSON.stringify'd string
// literals (case labels and key texts; U+2028/U+2029 escaped too);
// everything else (key maps, helpers) is passed as parameters. The code only reads the
// arguments (own keys through Object.keys) and builds a string, so keys like
// `__proto__` are data. A program past MAX_CODE_NODES / MAX_CODE_MEMBERS, or
// code past MAX_CODE_CHARS, is interpreted instead.
//
// Runtimes that refuse `new Function` (a Content-Security-Policy without
// 'unsafe-eval', some edge runtimes) are found by the package's one probe
// (../code-generation.ts: once, lazily, never at import); a refusal selects
// the interpreter for good.

import { runtimeAllowsCode } from "../code-generation.js";
import { jsonString } from "./exact-number-text.js";
import { decimalText, digitsText, plainNumberText } from "./number-output.js";
import {
  type ArrayProgram,
  dataKeys,
  GIVE_UP,
  type ObjectProgram,
  type Program,
  type ProgramNode,
  type ProgramOptions,
  slowNumberText,
} from "./writer-program.js";

/** A generated writer: the JSON text, or undefined when the call must be walked. */
export type GeneratedWriter = (
  fields: Record<string, unknown>,
  msg: boolean,
  options: ProgramOptions,
  /** How deep `fields` is (the top-level object is 1). */
  depth: number,
) => string | undefined;

/** Most program nodes turned into code. */
export const MAX_CODE_NODES = 512;
/** Most named members and elements turned into code. */
export const MAX_CODE_MEMBERS = 4096;
/** Longest generated source. */
export const MAX_CODE_CHARS = 512 * 1024;
/** Members of one node past which a key is looked up in a Map rather than by a switch on strings. */
const SWITCH_KEYS = 16;

/** The generated writer of `program`, made on first use; undefined where code is refused or too large. */
export function generatedWriter(program: Program): GeneratedWriter | undefined {
  let w = program.code as GeneratedWriter | null | undefined;
  if (w === undefined) {
    w = (runtimeAllowsCode() && generate(program)) || null;
    program.code = w;
  }
  return w ?? undefined;
}

const MAX_SAFE = "9007199254740991";

/** A JS string literal for `s` (JSON text is one, once the two line separators JSON leaves raw are escaped). */
export function literal(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function generate(program: Program): GeneratedWriter | undefined {
  return generateCode<GeneratedWriter>(program, textEmitter);
}

/**
 * What one kind of generated writer puts at the leaves and containers: the
 * text writer here, the value writer of ./writer-code-value.ts. Everything
 * else (the module, its settings, the number and value dispatch, the limits)
 * is generated once, by {@link generateCode}.
 */
export interface CodeEmitter {
  /** Module settings beyond `dec, lis, lim, call`, each with the option it is set from (e.g. ["T", "o.exact"]). */
  readonly settings: readonly (readonly [string, string])[];
  /** Extra module-level lines (helpers the node functions call). */
  readonly preamble: readonly string[];
  /** The method of the call that writes an object or array the program leaves to it. */
  readonly walk: string;
  /** Parameters of the generated module beyond the shared ones, with their values. */
  readonly params: readonly (readonly [string, unknown])[];
  /** Number leaves: expressions of `x` (a finite number). */
  readonly numbers: {
    /** A whole number within ±2^53, written as JSON.stringify would. */
    readonly whole: string;
    /** Any finite number at an unknown node. */
    readonly unknown: string;
    /** A number that is not whole (no code, no exact text). */
    readonly fraction: string;
    /** A whole number as a decimal literal (`1.0`). */
    readonly decimal: string;
    /** A whole number beyond ±2^53 as its exact digits. */
    readonly digits: string;
    /** The arguments after `(x, reading, notes` of the slow path N. */
    readonly slow: string;
  };
  /** String and boolean leaves: the expression for the value named `x`; the null leaf. */
  readonly leaves: {
    readonly string: (x: string) => string;
    readonly boolean: (x: string) => string;
    readonly null: string;
  };
  /** Objects: the lines before the member loop; after it (the return). */
  readonly objectStart: string;
  readonly objectEnd: string;
  /**
   * The statement for member `k` (the `i`th key of the object) whose value
   * is the expression `value`; `key` and `keyText` (the key as JSON text with
   * its colon) are undefined for a key the node does not name.
   */
  member(keyText: string | undefined, key: string | undefined, value: string): string;
  /** Arrays: the lines before the element loop (over `i`, declared before it); after it. */
  readonly arrayStart: string;
  readonly arrayEnd: string;
  /** The statement for element `i` whose value is the expression `value`. */
  element(value: string): string;
  /**
   * The whole container as one expression, when the data has exactly the
   * node's named members in the node's order (`members`: key text with its
   * colon, key, value expression) or exactly its positional elements
   * (`members` with undefined keys): no loop, no per-member dispatch.
   */
  whole(members: readonly WholeMember[], array: boolean): string;
  /** Whether tuples are written whole too (objects always are). */
  readonly wholeArrays: boolean;
}

/** One member of {@link CodeEmitter.whole}: as {@link CodeEmitter.member}'s arguments (keys undefined for elements). */
export interface WholeMember {
  readonly keyText: string | undefined;
  readonly key: string | undefined;
  readonly value: string;
}

/**
 * The module `emit` describes for `program`, compiled: its `write(fields,
 * msg, options, depth)`; undefined where the program is past the limits or
 * the runtime refuses the code.
 */
export function generateCode<W>(program: Program, emit: CodeEmitter): W | undefined {
  if (program.nodes.length > MAX_CODE_NODES || program.members > MAX_CODE_MEMBERS) {
    return undefined;
  }
  const keyMaps: ReadonlyMap<string, number>[] = [];
  const settings: (readonly [string, string])[] = [
    ["dec", "o.decimal"],
    ["lis", "o.listening"],
    ["lim", "o.depthLimit"],
    ["call", "o"],
    ...emit.settings,
  ];
  const saved = settings.map(([name], i) => `${name}=s${i};`).join("");
  const parts: string[] = [
    '"use strict";',
    `let ${settings.map(([name]) => name).join(",")};`,
    // An object or array the program leaves to the call (a view program, or the walk).
    `function W(id,v,msg,array,d){return call.${emit.walk}(P[id],v,msg,array,d);}`,
    ...emit.preamble,
  ];
  for (const n of program.nodes) {
    parts.push(numberFunction(n, emit));
    for (const form of ["p", "m"] as const) {
      parts.push(valueFunction(n, form, emit));
      parts.push(objectFunction(n, form, keyMaps, emit));
      parts.push(arrayFunction(n, form, emit));
    }
  }
  parts.push(
    "return function write(fields,msg,o,depth){",
    // Entered again by the call that set the settings (a view program inside
    // itself: a recursive schema, object by object): they are in place, and a
    // give-up is caught by that call's outer entry.
    "if(call===o)return msg?o0m(fields,depth):o0p(fields,depth);",
    `const ${settings.map(([name], i) => `s${i}=${name}`).join(",")};`,
    `${settings.map(([name, from]) => `${name}=${from};`).join("")}`,
    // The settings are restored on both ways out (a getter in the arguments may call in again).
    "let out;",
    "try{out=msg?o0m(fields,depth):o0p(fields,depth);}",
    `catch(e){${saved}if(e===G)return undefined;throw e;}`,
    `${saved}`,
    "return out;",
    "};",
  );
  const source = parts.join("\n");
  if (source.length > MAX_CODE_CHARS) return undefined;
  const params: (readonly [string, unknown])[] = [
    ["M", keyMaps],
    ["P", program.nodes],
    ["G", GIVE_UP],
    ["isArray", Array.isArray],
    ["keysOf", dataKeys],
    ...emit.params,
  ];
  try {
    const factory = new Function(...params.map(([name]) => name), source) as (
      ...args: unknown[]
    ) => W;
    return factory(...params.map(([, value]) => value));
  } catch (e) {
    // The runtime's probe passed (../code-generation.ts), yet this code was refused: interpret it.
    if (!(e instanceof EvalError)) throw e;
    return undefined;
  }
}

/**
 * Key texts (`"key":`) of keys the schema does not name (maps, additional
 * properties, a call without a schema): such keys repeat from object to
 * object and from call to call (M, a 49 KB order batch with a map per item,
 * one process: 0.89–0.90× → 0.94–1.02× toJsonString). A small cache indexed
 * by the key's length and end characters: a key is compared by identity
 * (property keys are interned) and then by value, a colliding key replaces
 * the one in its slot, and keys longer than KEY_TEXT_LENGTH are not kept.
 * Like the JSON reader's cache of short keys, it holds at most
 * KEY_TEXT_SLOTS keys from earlier calls (SECURITY.md); no value.
 */
const KEY_TEXT_SLOTS = 256;
const KEY_TEXT_LENGTH = 32;
const slotKeys: (string | undefined)[] = new Array<string | undefined>(KEY_TEXT_SLOTS).fill(
  undefined,
);
const slotTexts: string[] = new Array<string>(KEY_TEXT_SLOTS).fill("");

/** How many keys the cache holds now (tests: it stays bounded). */
export function rememberedKeyTexts(): number {
  let n = 0;
  for (const k of slotKeys) if (k !== undefined) n++;
  return n;
}

function keyText(k: string): string {
  const n = k.length;
  if (n === 0 || n > KEY_TEXT_LENGTH) return `${jsonString(k)}:`;
  const slot = (n * 31 + k.charCodeAt(0) * 7 + k.charCodeAt(n - 1)) & (KEY_TEXT_SLOTS - 1);
  if (slotKeys[slot] === k) return slotTexts[slot]!;
  const t = `${jsonString(k)}:`;
  slotKeys[slot] = k;
  slotTexts[slot] = t;
  return t;
}

/** The text writer's leaves and containers. */
const textEmitter: CodeEmitter = {
  settings: [],
  preamble: [],
  walk: "walk",
  params: [
    ["S", jsonString],
    ["K", keyText],
    ["N", slowNumberText],
    ["D", decimalText],
    ["Z", digitsText],
    ["T", plainNumberText],
  ],
  numbers: {
    whole: "Z(x)",
    unknown: "T(x)",
    fraction: '""+x',
    decimal: "D(x)",
    digits: "Z(x)",
    slow: "dec,lis",
  },
  leaves: { string: (x) => `S(${x})`, boolean: (x) => `${x}?"true":"false"`, null: '"null"' },
  objectStart: 'let s="{";',
  objectEnd: 'return s+"}";',
  // One append per member (separator and key text as one literal): fewer rope nodes to flatten.
  member: (keyText, _, value) =>
    keyText === undefined
      ? `s+=(i===0?K(k):","+K(k))+${value};`
      : `s+=(i===0?${literal(keyText)}:${literal(`,${keyText}`)})+${value};`,
  arrayStart: 'let s="[";',
  arrayEnd: 'return s+"]";',
  element: (value) => `s+=(i===0?"":",")+${value};`,
  // Literals merged with their neighbours: `'{"a":' + v0 + ',"b":' + v1 + "}"`.
  whole: (members, array) => {
    let lit = array ? "[" : "{";
    let code = "";
    members.forEach((m, j) => {
      lit += `${j === 0 ? "" : ","}${m.keyText ?? ""}`;
      code += `${literal(lit)}+${m.value}+`;
      lit = "";
    });
    return `${code}${literal(array ? "]" : "}")}`;
  },
  wholeArrays: true,
};

/** `n{id}(x)`: a number at the node (finite fast paths inline, the rest through N, the one definition). */
function numberFunction(n: ProgramNode, emit: CodeEmitter): string {
  const id = n.id;
  const out = emit.numbers;
  // Numbers written as JS writes them are counted, in either form: the call's
  // count chooses the form of the schema's next call (MANY_FRACTIONS).
  const counted = `(call.fractions++,${out.fraction})`;
  if (n.unknown) {
    return `function n${id}(x){if(x-x===0)return ${out.unknown};throw G;}`;
  }
  let whole = "";
  if (!n.wholeNotes) {
    switch (n.whole) {
      case 0:
      case 1:
        whole = `return ${out.whole};`;
        break;
      case 2:
        whole = `return dec?${out.decimal}:${out.whole};`;
        break;
      default:
        whole = `if(!lis)return ${out.whole};`;
    }
  }
  // Beyond ±2^53: *unknown* writes JS's own number; *integer* and *ambiguous* the exact digits (their codes only while someone listens).
  const beyond = n.wholeNotes
    ? ""
    : n.whole === 0
      ? `return ${counted};`
      : n.whole === 1 || n.whole === 3
        ? `if(!lis)return ${out.digits};`
        : "";
  // A fraction has no code and no exact text unless its reading is *integer* (not-an-integer).
  const fraction = !n.fractionNotes && n.fraction !== 1 ? `if(x-x===0)return ${counted};` : "";
  return [
    `function n${id}(x){`,
    "if(Number.isInteger(x)){",
    `if(x<=${MAX_SAFE}&&x>=-${MAX_SAFE}){${whole}}`,
    `${beyond}`,
    `return N(x,${n.whole},${n.wholeNotes},${out.slow});`,
    "}",
    `${fraction}`,
    `return N(x,${n.fraction},${n.fractionNotes},${out.slow});`,
    "}",
  ].join("\n");
}

/** `v{id}p(v, d)` / `v{id}m(v, d)`: a value at the node, JsonObject form / message form. */
function valueFunction(n: ProgramNode, form: "p" | "m", emit: CodeEmitter): string {
  const id = n.id;
  const leaf = emit.leaves;
  if (form === "p") {
    return [
      `function v${id}p(v,d){`,
      "switch(typeof v){",
      `case "number":return n${id}(v);`,
      `case "string":return ${leaf.string("v")};`,
      `case "boolean":return ${leaf.boolean("v")};`,
      `case "object":if(v===null)return ${leaf.null};`,
      `return isArray(v)?a${id}p(v,d+1):o${id}p(v,d+1);`,
      "}",
      "throw G;",
      "}",
    ].join("\n");
  }
  return [
    `function v${id}m(v,d){`,
    "const k=v==null?undefined:v.kind;",
    "if(k==null)throw G;",
    "const x=k.value;",
    "switch(k.case){",
    `case "numberValue":if(typeof x==="number")return n${id}(x);break;`,
    `case "stringValue":if(typeof x==="string")return ${leaf.string("x")};break;`,
    `case "boolValue":if(typeof x==="boolean")return ${leaf.boolean("x")};break;`,
    `case "nullValue":return ${leaf.null};`,
    'case "structValue":{const f=x==null?undefined:x.fields;',
    `if(typeof f==="object"&&f!==null&&!isArray(f))return o${id}m(f,d+1);break;}`,
    'case "listValue":{const a=x==null?undefined:x.values;',
    `if(isArray(a))return a${id}m(a,d+1);break;}`,
    "}",
    "throw G;",
    "}",
  ].join("\n");
}

/** The expression for the value `read` at node `n`: a call of its value function in `form`. */
function valueCall(n: ProgramNode, form: "p" | "m", read: string): string {
  return `v${n.id}${form}(${read},d)`;
}

function objectFunction(
  n: ProgramNode,
  form: "p" | "m",
  keyMaps: ReadonlyMap<string, number>[],
  emit: CodeEmitter,
): string {
  const id = n.id;
  const p = n.object;
  if (p === undefined)
    return `function o${id}${form}(f,d){return W(${id},f,${form === "m"},false,d);}`;
  const lines = [
    `function o${id}${form}(f,d){`,
    "if(d>lim)throw G;",
    p.notes ? "if(lis)throw G;" : "",
    "const ks=keysOf(f);",
    wholeObject(p, form, emit),
    emit.objectStart,
    "for(let i=0;i<ks.length;i++){",
    "const k=ks[i];",
  ];
  const named = (j: number, read: string) =>
    emit.member(p.keyTexts[j]!, p.keys[j]!, valueCall(p.children[j]!, form, read));
  const rest = emit.member(undefined, undefined, valueCall(p.rest, form, "f[k]"));
  if (p.keys.length === 0) {
    lines.push(`${rest}`);
  } else if (p.keys.length <= SWITCH_KEYS) {
    lines.push("switch(k){");
    p.keys.forEach((key, j) => {
      const k = literal(key);
      lines.push(`case ${k}:${named(j, `f[${k}]`)}break;`);
    });
    lines.push(`default:${rest}`, "}");
  } else {
    const m = keyMaps.push(p.index) - 1;
    lines.push(`switch(M[${m}].get(k)){`);
    p.children.forEach((_, j) => {
      lines.push(`case ${j}:${named(j, "f[k]")}break;`);
    });
    lines.push(`default:${rest}`, "}");
  }
  lines.push("}", emit.objectEnd, "}");
  return lines.join("\n");
}

/**
 * Most members an object or tuple is written by one expression for (see
 * {@link CodeEmitter.whole}); tool-call objects and tuple rows are smaller.
 */
const WHOLE_MEMBERS = 32;

/**
 * The object written whole when its keys are exactly the node's named keys,
 * in the node's order (the common case: a model writes the properties it
 * was shown, in order); empty when the node names none or too many. Keys
 * from Object.keys are property keys, compared with the literals by
 * identity in practice. `__proto__` never takes this path: an object
 * literal would set the prototype.
 */
function wholeObject(p: ObjectProgram, form: "p" | "m", emit: CodeEmitter): string {
  const n = p.keys.length;
  if (n === 0 || n > WHOLE_MEMBERS || p.keys.includes("__proto__")) return "";
  const test = p.keys.map((key, j) => `ks[${j}]===${literal(key)}`).join("&&");
  const members = p.keys.map((key, j) => {
    const read = `f[${literal(key)}]`;
    return { keyText: p.keyTexts[j]!, key, value: valueCall(p.children[j]!, form, read) };
  });
  return `if(ks.length===${n}&&${test})return ${emit.whole(members, false)};`;
}

/** The array written whole when its length is exactly the node's positional elements (a tuple row); else empty. */
function wholeArray(p: ArrayProgram, form: "p" | "m", emit: CodeEmitter): string {
  const n = p.elements.length - 1;
  if (n === 0 || n > WHOLE_MEMBERS || !emit.wholeArrays) return "";
  const members = p.elements.slice(0, n).map((e, j) => ({
    keyText: undefined,
    key: undefined,
    value: valueCall(e, form, `a[${j}]`),
  }));
  return `if(a.length===${n})return ${emit.whole(members, true)};`;
}

function arrayFunction(n: ProgramNode, form: "p" | "m", emit: CodeEmitter): string {
  const id = n.id;
  const p = n.array;
  if (p === undefined)
    return `function a${id}${form}(a,d){return W(${id},a,${form === "m"},true,d);}`;
  const last = p.elements.length - 1;
  const lines = [
    `function a${id}${form}(a,d){`,
    "if(d>lim)throw G;",
    p.notes ? "if(lis)throw G;" : "",
    wholeArray(p, form, emit),
    emit.arrayStart,
    "let i=0;",
    "for(;i<a.length;i++){",
  ];
  const element = (j: number) => emit.element(valueCall(p.elements[j]!, form, "a[i]"));
  if (last === 0) {
    lines.push(`${element(0)}`);
  } else {
    lines.push("switch(i){");
    for (let j = 0; j < last; j++) lines.push(`case ${j}:${element(j)}break;`);
    lines.push(`default:${element(last)}`, "}");
  }
  lines.push("}", emit.arrayEnd, "}");
  return lines.join("\n");
}
