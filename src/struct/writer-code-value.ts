// Generated code for a compiled writer's large outputs: the program of
// ./writer-program.ts written out, like ./writer-code.ts, but building the
// plain JS value that a JSON writer then writes (the package's own for large
// outputs, ./json-text-writer.ts; the native JSON.stringify with JSON.rawJSON
// for outputs with many fractions), instead of the text itself: on long
// outputs either beats string concatenation and holds less heap (measured on
// a 5 MB row set, Node 20 and 24). Numbers that JSON.stringify writes exactly
// stay numbers; the others (`1.0`, exact digits above 2^53) go to the call's
// ExactTextSink (JSON.rawJSON, or the package writer's own stand-ins), once,
// through the one definition of ./number-output.ts. It gives up in the same
// cases as the text code, and the objects the program leaves to the call are
// written by the call (./writer-call.ts) as values.
//
// Safety as in ./writer-code.ts: schema text reaches the code only as string
// literals; the code only reads the arguments and builds arrays and objects,
// a `__proto__` key becoming an own member (./own-property.ts).

import { runtimeAllowsCode } from "../code-generation.js";
import type { ExactTextSink } from "./exact-number-text.js";
import { AS_DECIMAL, AS_NUMBER, numberOutput } from "./number-output.js";
import { setOwnProperty } from "./own-property.js";
import { type CodeEmitter, generateCode, literal } from "./writer-code.js";
import { GIVE_UP, type Program, type ProgramNode, READINGS } from "./writer-program.js";

/** What a value writer needs of the call: as ProgramOptions, with values for the objects it leaves to the call. */
export interface ValueProgramOptions {
  readonly decimal: boolean;
  /** As ProgramOptions.fractions. */
  fractions: number;
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
  return output === AS_NUMBER ? v : output === AS_DECIMAL ? o.exact.decimal(v) : o.exact.digits(v);
}

function giveUp(): never {
  throw GIVE_UP;
}

function ignore(): void {}

const TWO_54 = "18014398509481984";

function generate(program: Program): GeneratedValueWriter | undefined {
  return generateCode<GeneratedValueWriter>(program, valueEmitter);
}

/** The value writer's leaves and containers (see CodeEmitter in ./writer-code.ts). */
const valueEmitter: CodeEmitter = {
  settings: [["T", "o.exact"]],
  // A key from the data: `__proto__` must become an own member.
  preamble: ['function put(o,k,x){if(k==="__proto__")own(o,k,x);else o[k]=x;}'],
  walk: "walkValue",
  params: [
    ["N", slowNumberValue],
    ["own", setOwnProperty],
  ],
  numbers: {
    whole: "x",
    unknown: "x",
    fraction: "x",
    decimal: "T.decimal(x)",
    // Below 2^54 JSON.stringify writes the exact integer; above, the exact digits are a text of their own.
    digits: `x<${TWO_54}&&x>-${TWO_54}?x:T.digits(x)`,
    slow: "call",
  },
  leaves: { string: (x) => x, boolean: (x) => x, null: "null" },
  objectStart: "const o={};",
  objectEnd: "return o;",
  member: (_, key, value) =>
    key === undefined
      ? `put(o,k,${value});`
      : key === "__proto__"
        ? `own(o,k,${value});`
        : `o[${literal(key)}]=${value};`,
  // Sized once (a growing array holds spare room: heap); the length is read at each element, as
  // the text code does, so an array that changed meanwhile ends where the text would.
  arrayStart: "const o=new Array(a.length);",
  arrayEnd: "if(o.length!==i)o.length=i;return o;",
  element: (value) => `o[i]=${value};`,
  // A literal: the object gets its final shape at once (no transitions). Only objects (wholeArrays).
  whole: (members) => `{${members.map((m) => `${literal(m.key!)}:${m.value}`).join(",")}}`,
  // Tuples by the loop: no slower anywhere measured. In the harness on the 5 MB row set (20,000
  // tuple rows) written by the package's own writer (session 16, four to six processes each): a
  // literal per row 0.71–0.77× toJsonString on Node 20, the loop 0.73–0.79×; on Node 24 1.24–1.55×
  // and 1.34–1.53×. With JSON.rawJSON and the native writer (session 7) the literal was slower
  // (0.96–0.99× against 1.04–1.08×).
  wholeArrays: false,
};
