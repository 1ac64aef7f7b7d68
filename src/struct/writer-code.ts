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
  GIVE_UP,
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
  if (program.nodes.length > MAX_CODE_NODES || program.members > MAX_CODE_MEMBERS) {
    return undefined;
  }
  const keyMaps: ReadonlyMap<string, number>[] = [];
  const parts: string[] = [
    '"use strict";',
    "let dec = false, lis = false, lim = 0, call;",
    // An object or array the program leaves to the call (a view program, or the walk).
    "function W(id, v, msg, array, d) { return call.walk(P[id], v, msg, array, d); }",
  ];
  for (const n of program.nodes) {
    parts.push(numberFunction(n));
    for (const form of ["p", "m"] as const) {
      parts.push(valueFunction(n, form));
      parts.push(objectFunction(n, form, keyMaps));
      parts.push(arrayFunction(n, form));
    }
  }
  parts.push(
    "return function write(fields, msg, o, depth) {",
    "  const d0 = dec, l0 = lis, m0 = lim, c0 = call;",
    "  dec = o.decimal; lis = o.listening; lim = o.depthLimit; call = o;",
    // The settings are restored on both ways out (a getter in the arguments may call in again).
    "  let text;",
    "  try { text = msg ? o0m(fields, depth) : o0p(fields, depth); }",
    "  catch (e) { dec = d0; lis = l0; lim = m0; call = c0; if (e === G) return undefined; throw e; }",
    "  dec = d0; lis = l0; lim = m0; call = c0;",
    "  return text;",
    "};",
  );
  const source = parts.join("\n");
  if (source.length > MAX_CODE_CHARS) return undefined;
  try {
    const factory = new Function(
      "M",
      "P",
      "S",
      "N",
      "D",
      "Z",
      "T",
      "G",
      "isArray",
      "keysOf",
      source,
    ) as (...args: unknown[]) => GeneratedWriter;
    return factory(
      keyMaps,
      program.nodes,
      jsonString,
      slowNumberText,
      decimalText,
      digitsText,
      plainNumberText,
      GIVE_UP,
      Array.isArray,
      Object.keys,
    );
  } catch (e) {
    // The runtime's probe passed (../code-generation.ts), yet this code was refused: interpret it.
    if (!(e instanceof EvalError)) throw e;
    return undefined;
  }
}

/** `n{id}(x)`: a number's text at the node (finite fast paths inline, the rest through N, the one definition). */
function numberFunction(n: ProgramNode): string {
  const id = n.id;
  if (n.unknown) {
    return `function n${id}(x) { if (x - x === 0) return T(x); throw G; }`;
  }
  let whole = "";
  if (!n.wholeNotes) {
    switch (n.whole) {
      case 0:
      case 1:
        whole = "return Z(x);";
        break;
      case 2:
        whole = "return dec ? D(x) : Z(x);";
        break;
      default:
        whole = "if (!lis) return Z(x);";
    }
  }
  // Beyond ±2^53: *unknown* writes JS's text; *integer* and *ambiguous* the exact digits (their codes only while someone listens).
  const beyond = n.wholeNotes
    ? ""
    : n.whole === 0
      ? 'return "" + x;'
      : n.whole === 1 || n.whole === 3
        ? "if (!lis) return Z(x);"
        : "";
  // A fraction has no code and no exact text unless its reading is *integer* (not-an-integer).
  const fraction = !n.fractionNotes && n.fraction !== 1 ? 'if (x - x === 0) return "" + x;' : "";
  return [
    `function n${id}(x) {`,
    "  if (Number.isInteger(x)) {",
    `    if (x <= ${MAX_SAFE} && x >= -${MAX_SAFE}) { ${whole} }`,
    `    ${beyond}`,
    `    return N(x, ${n.whole}, ${n.wholeNotes}, dec, lis);`,
    "  }",
    `  ${fraction}`,
    `  return N(x, ${n.fraction}, ${n.fractionNotes}, dec, lis);`,
    "}",
  ].join("\n");
}

/** `v{id}p(v, d)` / `v{id}m(v, d)`: a value's text at the node, JsonObject form / message form. */
function valueFunction(n: ProgramNode, form: "p" | "m"): string {
  const id = n.id;
  if (form === "p") {
    return [
      `function v${id}p(v, d) {`,
      "  switch (typeof v) {",
      `    case "number": return n${id}(v);`,
      '    case "string": return S(v);',
      '    case "boolean": return v ? "true" : "false";',
      '    case "object": if (v === null) return "null";',
      `      return isArray(v) ? a${id}p(v, d + 1) : o${id}p(v, d + 1);`,
      "  }",
      "  throw G;",
      "}",
    ].join("\n");
  }
  return [
    `function v${id}m(v, d) {`,
    "  const k = v == null ? undefined : v.kind;",
    "  if (k == null) throw G;",
    "  const x = k.value;",
    "  switch (k.case) {",
    `    case "numberValue": if (typeof x === "number") return n${id}(x); break;`,
    '    case "stringValue": if (typeof x === "string") return S(x); break;',
    '    case "boolValue": if (typeof x === "boolean") return x ? "true" : "false"; break;',
    '    case "nullValue": return "null";',
    '    case "structValue": { const f = x == null ? undefined : x.fields;',
    `      if (typeof f === "object" && f !== null && !isArray(f)) return o${id}m(f, d + 1); break; }`,
    '    case "listValue": { const a = x == null ? undefined : x.values;',
    `      if (isArray(a)) return a${id}m(a, d + 1); break; }`,
    "  }",
    "  throw G;",
    "}",
  ].join("\n");
}

function objectFunction(
  n: ProgramNode,
  form: "p" | "m",
  keyMaps: ReadonlyMap<string, number>[],
): string {
  const id = n.id;
  const p = n.object;
  if (p === undefined)
    return `function o${id}${form}(f, d) { return W(${id}, f, ${form === "m"}, false, d); }`;
  const lines = [
    `function o${id}${form}(f, d) {`,
    "  if (d > lim) throw G;",
    p.notes ? "  if (lis) throw G;" : "",
    "  const ks = keysOf(f);",
    '  let s = "{";',
    "  for (let i = 0; i < ks.length; i++) {",
    "    const k = ks[i];",
  ];
  // One append per member (separator and key text as one literal): fewer rope nodes to flatten.
  const keyText = (j: number) => {
    const t = p.keyTexts[j]!;
    return `(i === 0 ? ${literal(t)} : ${literal(`,${t}`)})`;
  };
  const other = `(i === 0 ? "" : ",") + S(k) + ":" + v${p.rest.id}${form}(f[k], d)`;
  const rest = `      default: s += ${other};`;
  if (p.keys.length === 0) {
    lines.push(`    s += ${other};`);
  } else if (p.keys.length <= SWITCH_KEYS) {
    lines.push("    switch (k) {");
    p.keys.forEach((key, j) => {
      const k = literal(key);
      lines.push(
        `      case ${k}: s += ${keyText(j)} + v${p.children[j]!.id}${form}(f[${k}], d); break;`,
      );
    });
    lines.push(rest, "    }");
  } else {
    const m = keyMaps.push(p.index) - 1;
    lines.push(`    switch (M[${m}].get(k)) {`);
    p.children.forEach((child, j) => {
      lines.push(`      case ${j}: s += ${keyText(j)} + v${child.id}${form}(f[k], d); break;`);
    });
    lines.push(rest, "    }");
  }
  lines.push("  }", '  return s + "}";', "}");
  return lines.join("\n");
}

function arrayFunction(n: ProgramNode, form: "p" | "m"): string {
  const id = n.id;
  const p = n.array;
  if (p === undefined)
    return `function a${id}${form}(a, d) { return W(${id}, a, ${form === "m"}, true, d); }`;
  const last = p.elements.length - 1;
  const lines = [
    `function a${id}${form}(a, d) {`,
    "  if (d > lim) throw G;",
    p.notes ? "  if (lis) throw G;" : "",
    '  let s = "[";',
    "  for (let i = 0; i < a.length; i++) {",
  ];
  const sep = '(i === 0 ? "" : ",") + ';
  if (last === 0) {
    lines.push(`    s += ${sep}v${p.elements[0]!.id}${form}(a[i], d);`);
  } else {
    lines.push("    switch (i) {");
    for (let i = 0; i < last; i++) {
      lines.push(`      case ${i}: s += ${sep}v${p.elements[i]!.id}${form}(a[i], d); break;`);
    }
    lines.push(`      default: s += ${sep}v${p.elements[last]!.id}${form}(a[i], d);`, "    }");
  }
  lines.push("  }", '  return s + "]";', "}");
  return lines.join("\n");
}
