// Generated code for a compiled writer's large outputs: the program of
// ./writer-program.ts written out, like ./writer-code.ts, but building the
// plain JS value that the native JSON.stringify then writes (as protobuf-es's
// toJsonString does), instead of the text itself. On long outputs the native
// writer beats string concatenation and holds less heap (measured on a 5 MB
// row set, Node 20 and 24). Numbers that JSON.stringify writes exactly stay
// numbers; the others (`1.0`, exact digits above 2^53) go to the call's
// ExactTextSink (./exact-number-text.ts: JSON.rawJSON, or markers), once,
// through the one definition of ./number-output.ts. It gives up in the same
// cases as the text code, and the objects the program leaves to the call are
// written by the call (./writer-call.ts) as values.
//
// Safety as in ./writer-code.ts: schema text reaches the code only as string
// literals; the code only reads the arguments and builds arrays and objects,
// a `__proto__` key becoming an own member (./own-property.ts).

import { runtimeAllowsCode } from "../code-generation.js";
import type { ExactTextSink } from "./exact-number-text.js";
import { AS_DECIMAL, AS_NUMBER, decimalText, digitsText, numberOutput } from "./number-output.js";
import { setOwnProperty } from "./own-property.js";
import { literal, MAX_CODE_CHARS, MAX_CODE_MEMBERS, MAX_CODE_NODES } from "./writer-code.js";
import { GIVE_UP, type Program, type ProgramNode, READINGS } from "./writer-program.js";

/** What a value writer needs of the call: as ProgramOptions, with values for the objects it leaves to the call. */
export interface ValueProgramOptions {
  readonly decimal: boolean;
  readonly listening: boolean;
  readonly depthLimit: number;
  /** Where number texts JSON.stringify cannot write go. */
  readonly exact: ExactTextSink;
  /** An object or array the program leaves to the call, as a value; throws GIVE_UP when its walk would not stand. */
  walkValue(
    node: ProgramNode,
    value: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    array: boolean,
    depth: number,
  ): unknown;
}

/** A generated value writer: the value for JSON.stringify, or undefined when the call must be walked. */
export type GeneratedValueWriter = (
  fields: Record<string, unknown>,
  msg: boolean,
  options: ValueProgramOptions,
  depth: number,
) => unknown;

const writers = new WeakMap<Program, GeneratedValueWriter | null>();

/** The generated value writer of `program`, made on first use; undefined where code is refused or too large. */
export function generatedValueWriter(program: Program): GeneratedValueWriter | undefined {
  let w = writers.get(program);
  if (w === undefined) {
    w = (runtimeAllowsCode() && generate(program)) || null;
    writers.set(program, w);
  }
  return w ?? undefined;
}

/**
 * The slow path of a number at a node, as a value (as slowNumberText of
 * ./writer-program.ts, which it mirrors): gives up on a non-finite value, or
 * on any code or note while someone listens.
 */
function slowNumberValue(
  v: number,
  reading: number,
  notes: boolean,
  o: ValueProgramOptions,
): unknown {
  if (!Number.isFinite(v)) throw GIVE_UP;
  if (notes && o.listening) throw GIVE_UP;
  const output = numberOutput(v, READINGS[reading]!, o.decimal, o.listening ? giveUp : ignore);
  return output === AS_NUMBER
    ? v
    : o.exact.text(output === AS_DECIMAL ? decimalText(v) : digitsText(v));
}

function giveUp(): never {
  throw GIVE_UP;
}

function ignore(): void {}

const MAX_SAFE = "9007199254740991";
const TWO_54 = "18014398509481984";

function generate(program: Program): GeneratedValueWriter | undefined {
  if (program.nodes.length > MAX_CODE_NODES || program.members > MAX_CODE_MEMBERS) {
    return undefined;
  }
  const keyMaps: ReadonlyMap<string, number>[] = [];
  const parts: string[] = [
    '"use strict";',
    "let dec = false, lis = false, lim = 0, call, T;",
    "function W(id, v, msg, array, d) { return call.walkValue(P[id], v, msg, array, d); }",
    // A key from the data: `__proto__` must become an own member.
    'function put(o, k, x) { if (k === "__proto__") own(o, k, x); else o[k] = x; }',
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
    "  const d0 = dec, l0 = lis, m0 = lim, c0 = call, t0 = T;",
    "  dec = o.decimal; lis = o.listening; lim = o.depthLimit; call = o; T = o.exact;",
    "  let out;",
    "  try { out = msg ? o0m(fields, depth) : o0p(fields, depth); }",
    "  catch (e) { dec = d0; lis = l0; lim = m0; call = c0; T = t0; if (e === G) return undefined; throw e; }",
    "  dec = d0; lis = l0; lim = m0; call = c0; T = t0;",
    "  return out;",
    "};",
  );
  const source = parts.join("\n");
  if (source.length > MAX_CODE_CHARS) return undefined;
  try {
    const factory = new Function(
      "M",
      "P",
      "N",
      "D",
      "Z",
      "G",
      "own",
      "isArray",
      "keysOf",
      source,
    ) as (...args: unknown[]) => GeneratedValueWriter;
    return factory(
      keyMaps,
      program.nodes,
      slowNumberValue,
      decimalText,
      digitsText,
      GIVE_UP,
      setOwnProperty,
      Array.isArray,
      Object.keys,
    );
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    return undefined;
  }
}

/** `n{id}(x)`: a number's value at the node (as numberFunction of ./writer-code.ts, with values for texts). */
function numberFunction(n: ProgramNode): string {
  const id = n.id;
  if (n.unknown) return `function n${id}(x) { if (x - x === 0) return x; throw G; }`;
  let whole = "";
  if (!n.wholeNotes) {
    switch (n.whole) {
      case 0:
      case 1:
        whole = "return x;";
        break;
      case 2:
        whole = "return dec ? T.text(D(x)) : x;";
        break;
      default:
        whole = "if (!lis) return x;";
    }
  }
  // Beyond ±2^53: below 2^54 JS's text is the exact integer; above, the exact digits are a text of their own.
  const beyond = n.wholeNotes
    ? ""
    : n.whole === 0
      ? "return x;"
      : n.whole === 1 || n.whole === 3
        ? `if (!lis) return x < ${TWO_54} && x > -${TWO_54} ? x : T.text(Z(x));`
        : "";
  const fraction = !n.fractionNotes && n.fraction !== 1 ? "if (x - x === 0) return x;" : "";
  return [
    `function n${id}(x) {`,
    "  if (Number.isInteger(x)) {",
    `    if (x <= ${MAX_SAFE} && x >= -${MAX_SAFE}) { ${whole} }`,
    `    ${beyond}`,
    `    return N(x, ${n.whole}, ${n.wholeNotes}, call);`,
    "  }",
    `  ${fraction}`,
    `  return N(x, ${n.fraction}, ${n.fractionNotes}, call);`,
    "}",
  ].join("\n");
}

/** `v{id}p(v, d)` / `v{id}m(v, d)`: a value's output at the node, JsonObject form / message form. */
function valueFunction(n: ProgramNode, form: "p" | "m"): string {
  const id = n.id;
  if (form === "p") {
    return [
      `function v${id}p(v, d) {`,
      "  switch (typeof v) {",
      `    case "number": return n${id}(v);`,
      '    case "string": case "boolean": return v;',
      '    case "object": if (v === null) return null;',
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
    '    case "stringValue": if (typeof x === "string") return x; break;',
    '    case "boolValue": if (typeof x === "boolean") return x; break;',
    '    case "nullValue": return null;',
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
    "  const o = {};",
    "  for (let i = 0; i < ks.length; i++) {",
    "    const k = ks[i];",
  ];
  const member = (key: string, child: ProgramNode, read: string) =>
    key === "__proto__"
      ? `own(o, k, v${child.id}${form}(${read}, d));`
      : `o[${literal(key)}] = v${child.id}${form}(${read}, d);`;
  const rest = `put(o, k, v${p.rest.id}${form}(f[k], d));`;
  if (p.keys.length === 0) {
    lines.push(`    ${rest}`);
  } else if (p.keys.length <= SWITCH_KEYS) {
    lines.push("    switch (k) {");
    p.keys.forEach((key, j) => {
      const k = literal(key);
      lines.push(`      case ${k}: ${member(key, p.children[j]!, `f[${k}]`)} break;`);
    });
    lines.push(`      default: ${rest}`, "    }");
  } else {
    const m = keyMaps.push(p.index) - 1;
    lines.push(`    switch (M[${m}].get(k)) {`);
    p.children.forEach((child, j) => {
      lines.push(`      case ${j}: ${member(p.keys[j]!, child, "f[k]")} break;`);
    });
    lines.push(`      default: ${rest}`, "    }");
  }
  lines.push("  }", "  return o;", "}");
  return lines.join("\n");
}

/** Members of one node past which a key is looked up in a Map (as ./writer-code.ts). */
const SWITCH_KEYS = 16;

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
    // Sized once (a growing array holds spare room: heap); the length is read at each element, as
    // the text code does, so an array that changed meanwhile ends where the text would.
    "  const o = new Array(a.length);",
    "  let i = 0;",
    "  for (; i < a.length; i++) {",
  ];
  if (last === 0) {
    lines.push(`    o[i] = v${p.elements[0]!.id}${form}(a[i], d);`);
  } else {
    lines.push("    switch (i) {");
    for (let i = 0; i < last; i++) {
      lines.push(`      case ${i}: o[i] = v${p.elements[i]!.id}${form}(a[i], d); break;`);
    }
    lines.push(`      default: o[i] = v${p.elements[last]!.id}${form}(a[i], d);`, "    }");
  }
  lines.push("  }", "  if (o.length !== i) o.length = i;", "  return o;", "}");
  return lines.join("\n");
}
