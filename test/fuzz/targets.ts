// The fuzz targets and their oracles. A case passes when the package either
// succeeds with a right answer or fails with its own error for a reason an
// independent check confirms (JSON.parse, lossless-json, a BigInt decimal
// comparison); protobuf-es may reject bytes with its own decode errors. Any
// other exception, a RangeError from the engine, a wrong answer without a
// diagnostic, or a touched Object.prototype is a finding.
import { create, fromBinary, type JsonObject, toBinary } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { ClientActionSchema } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import type { Diagnostic } from "../../src/diagnostics.js";
import { isStructJsonError } from "../../src/errors.js";
import { pointerFrom } from "../../src/json-pointer.js";
import type { JsonSchema } from "../../src/schema/json-schema.js";
import { DEFAULT_STRUCT_DEPTH, structMessageFromJson } from "../../src/struct/from-json.js";
import { toolCallFromJson, toolCallToJson } from "../../src/tool/tool-call.js";
import { textLosesPrecision } from "../property-arbitraries.js";
import { type JsonRule, scanJsonText, wellFormed } from "./json-scan.js";

/** Something the fuzzer found. */
export interface Finding {
  /** A short stable name of what went wrong. */
  readonly kind: string;
  /** The details (an error's stack, the paths that differ). */
  readonly detail: string;
}

/** Counters of how cases ended, for the run's summary. */
export type Tally = Record<string, number>;

function count(tally: Tally | undefined, key: string): void {
  if (tally !== undefined) tally[key] = (tally[key] ?? 0) + 1;
}

/** Engine failures that no input may cause: stack overflow, allocation failures. */
function isEngineFailure(e: unknown): boolean {
  return (
    !(e instanceof Error) ||
    (e instanceof RangeError &&
      /call stack|Invalid array length|Invalid string length|allocation failed|Invalid typed array length/i.test(
        e.message,
      ))
  );
}

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
}

/** True when some string (key or value) in `v` is not well-formed UTF-16. */
function hasLoneSurrogate(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "string") {
      if (!wellFormed(x)) return true;
    } else if (typeof x === "object" && x !== null && !isLosslessNumber(x)) {
      for (const k of Object.keys(x)) {
        if (!wellFormed(k)) return true;
        stack.push((x as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}

/** True when some number in `v` is not finite. */
function hasNonFinite(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "number" && !Number.isFinite(x)) return true;
    if (typeof x === "object" && x !== null)
      for (const k of Object.keys(x)) stack.push((x as Record<string, unknown>)[k]);
  }
  return false;
}

/**
 * How -0 and 0 compare: "signed" where the text must carry each float64 exactly
 * (raw_args_json beside the Struct: the README promises each number's float64
 * equal, and the decoder tells them apart), "equal" for the text written from
 * the Struct (the README writes -0 as 0 but for a number reading).
 */
type Zeros = "signed" | "equal";

/**
 * Where `written` (lossless-json parse of a text) and `value` (plain JS value)
 * differ: same own keys in any order, same strings, booleans and nulls, each
 * number's text denoting the same float64. undefined when they agree.
 */
function difference(
  written: unknown,
  value: unknown,
  zeros: Zeros,
  tokens: (string | number)[] = [],
): string | undefined {
  if (isLosslessNumber(written)) {
    const n = Number(written.toString());
    return typeof value === "number" && (zeros === "signed" ? Object.is(n, value) : n === value)
      ? undefined
      : pointerFrom(tokens);
  }
  if (typeof written !== "object" || written === null) {
    return written === value ? undefined : pointerFrom(tokens);
  }
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) !== Array.isArray(written)
  )
    return pointerFrom(tokens);
  const keys = Object.keys(written);
  const other = Object.keys(value);
  if (keys.length !== other.length) return pointerFrom(tokens);
  for (const k of keys) {
    if (!Object.hasOwn(value, k)) return pointerFrom([...tokens, k]);
    tokens.push(k);
    const d = difference(
      (written as Record<string, unknown>)[k],
      (value as Record<string, unknown>)[k],
      zeros,
      tokens,
    );
    tokens.pop();
    if (d !== undefined) return d;
  }
  return undefined;
}

function prototypeTouched(): boolean {
  return (
    Object.keys(Object.prototype).length > 0 ||
    ({} as Record<string, unknown>).polluted !== undefined ||
    Object.keys(Array.prototype).length > 0
  );
}

const DECODER_ERRORS = new Set(["non-finite-number", "recursion-limit", "raw-struct-mismatch"]);
const DECODER_DIAGNOSTICS = new Set([
  "not-an-integer",
  "integer-precision-lost",
  "number-precision-lost",
  "ambiguous-number",
  "schema-ref-unresolved",
  "schema-too-complex",
  // issue 13 (engine): a pattern the linear-time engine cannot run reads as unknown
  "schema-pattern-unevaluated",
  "raw-json-invalid",
  "integer-written-as-float",
]);

/**
 * Raw text a receiver takes: one JSON object (JSON.parse's syntax) that breaks
 * none of the reader's rules in any of its tokens (see json-scan.ts), parsed by
 * lossless-json for the comparison with the Struct.
 */
function rawIsValid(
  raw: string,
  recursionLimit: number,
): { ok: true; parsed: unknown } | { ok: false } {
  const scan = scanJsonText(raw, recursionLimit);
  if (scan.syntaxError !== undefined || scan.broken.size > 0) return { ok: false };
  try {
    return { ok: true, parsed: losslessParse(raw) };
  } catch {
    return { ok: false };
  }
}

/**
 * Protobuf target: decode mutated ClientAction bytes, then get the arguments'
 * text in every mode. Returns a finding, or undefined when the case is fine.
 */
export function protobufCase(
  bytes: Uint8Array,
  schema: JsonSchema | undefined,
  tally?: Tally,
): Finding | undefined {
  let action: ReturnType<typeof fromBinary<typeof ClientActionSchema>>;
  try {
    action = fromBinary(ClientActionSchema, bytes);
  } catch (e) {
    if (isEngineFailure(e)) return { kind: "fromBinary-engine-failure", detail: describe(e) };
    count(tally, "protobuf-es decode error");
    return undefined;
  }
  if (action.action.case !== "callMcpTool") {
    count(tally, "no call");
    return undefined;
  }
  const call = action.action.value;
  const args: JsonObject = call.args ?? {};
  const raw = call.rawArgsJson;
  const runs: [mode: "verify" | "ignore", schema: JsonSchema | undefined][] = [
    ["verify", undefined],
    ["verify", schema],
    ["ignore", schema],
  ];
  for (const [mode, s] of runs) {
    const diagnostics: Diagnostic[] = [];
    let out: string;
    try {
      out = toolCallToJson(call, s, {
        rawJson: mode,
        onDiagnostic: (d) => diagnostics.push(d),
      });
    } catch (e) {
      if (!isStructJsonError(e)) return { kind: "foreign-error", detail: describe(e) };
      if (!DECODER_ERRORS.has(e.code))
        return { kind: `unexpected-code-${e.code}`, detail: describe(e) };
      count(tally, `error ${e.code}`);
      if (e.code === "non-finite-number" && !hasNonFinite(args))
        return { kind: "non-finite-number-without-one", detail: e.message };
      if (e.code === "raw-struct-mismatch") {
        if (mode !== "verify" || raw === undefined)
          return { kind: "mismatch-without-raw", detail: e.message };
        const v = rawIsValid(raw, 100);
        if (v.ok && difference(v.parsed, args, "signed") === undefined && !hasNonFinite(args))
          return { kind: "false-mismatch", detail: e.message };
      }
      continue;
    }
    if (prototypeTouched()) return { kind: "prototype-polluted", detail: "after toolCallToJson" };
    for (const d of diagnostics) {
      if (!DECODER_DIAGNOSTICS.has(d.code))
        return { kind: `unexpected-diagnostic-${d.code}`, detail: d.path };
    }
    const rawUsed = mode === "verify" && raw !== undefined && out === raw;
    if (rawUsed) {
      count(tally, "raw text verified");
      const v = rawIsValid(raw, 100);
      if (!v.ok)
        return {
          kind: "invalid-raw-returned",
          detail: "the raw text was returned but is not one valid JSON object",
        };
      const d = difference(v.parsed, args, "signed");
      if (d !== undefined) return { kind: "disagreeing-raw-returned", detail: `differs at ${d}` };
      continue;
    }
    count(tally, "struct path");
    let parsed: unknown;
    try {
      parsed = losslessParse(out);
    } catch (e) {
      return { kind: "output-not-json", detail: describe(e) };
    }
    const d = difference(parsed, args, "equal");
    if (d !== undefined) return { kind: "output-differs-from-struct", detail: `differs at ${d}` };
    if (mode === "verify" && raw !== undefined) {
      if (!diagnostics.some((x) => x.code === "raw-json-invalid"))
        return {
          kind: "raw-dropped-silently",
          detail: "raw text present, Struct text returned, no raw-json-invalid",
        };
      const v = rawIsValid(raw, 100);
      if (v.ok && difference(v.parsed, args, "signed") === undefined)
        return {
          kind: "valid-raw-rejected",
          detail: "an agreeing, well-formed raw text was not used",
        };
    }
  }
  return undefined;
}

/** The plain value of a Struct Value (own keys, `__proto__` included). */
function plain(v: Value): unknown {
  const k = v.kind;
  switch (k.case) {
    case "structValue": {
      const o: Record<string, unknown> = {};
      for (const key of Object.keys(k.value.fields))
        Object.defineProperty(o, key, {
          value: plain(k.value.fields[key]!),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return o;
    }
    case "listValue":
      return k.value.values.map(plain);
    case "nullValue":
      return null;
    default:
      return k.value;
  }
}

/** Same own keys in the same order, same primitives (Object.is for numbers). */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null) return Object.is(a, b);
  if (typeof b !== "object" || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!]))
      return false;
  }
  return true;
}

/** Every number's path and text in a lossless-json parse. */
function numberTexts(v: unknown, tokens: (string | number)[], out: string[]): void {
  if (isLosslessNumber(v)) {
    if (textLosesPrecision(v.toString())) out.push(pointerFrom(tokens));
  } else if (typeof v === "object" && v !== null) {
    const arr = Array.isArray(v);
    for (const k of Object.keys(v)) {
      tokens.push(arr ? Number(k) : k);
      numberTexts((v as Record<string, unknown>)[k], tokens, out);
      tokens.pop();
    }
  }
}

/** The finding's name when the package rejects a text for a rule it does not break. */
const FALSE_REJECTION: Readonly<Partial<Record<string, string>>> = {
  "duplicate-key": "false-duplicate-key",
  "invalid-unicode": "false-invalid-unicode",
  "number-out-of-range": "false-out-of-range",
  "recursion-limit": "false-recursion-limit",
  "not-an-object": "false-not-an-object",
} satisfies Record<JsonRule, string>;

function jsonParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * JSON target: structMessageFromJson on a mutated text, checked against JSON.parse
 * and lossless-json; accepted texts then go through a tool call on the wire
 * and must come back byte-exact.
 */
export function jsonCase(text: string, tally?: Tally): Finding | undefined {
  const scan = scanJsonText(text, DEFAULT_STRUCT_DEPTH);
  const j = jsonParse(text);
  if (j.ok !== (scan.syntaxError === undefined))
    return {
      kind: "oracle-disagrees-with-JSON.parse",
      detail: `JSON.parse ${j.ok ? "accepts" : "rejects"}; the scan says syntax error at ${scan.syntaxError}`,
    };
  const diagnostics: Diagnostic[] = [];
  let struct: ReturnType<typeof structMessageFromJson>;
  try {
    struct = structMessageFromJson(text, { onDiagnostic: (d) => diagnostics.push(d) });
  } catch (e) {
    if (!isStructJsonError(e)) return { kind: "foreign-error", detail: describe(e) };
    count(tally, `error ${e.code}`);
    if (e.code === "invalid-json") {
      return scan.syntaxError === undefined
        ? { kind: "valid-json-rejected", detail: e.message }
        : undefined;
    }
    const falseKind = FALSE_REJECTION[e.code];
    if (falseKind === undefined) return { kind: `unexpected-code-${e.code}`, detail: e.message };
    // Any rule the text breaks (before its first syntax error) is a right reason,
    // named at the path where the text breaks it.
    if (!scan.broken.has(e.code as JsonRule)) return { kind: falseKind, detail: e.message };
    if (!scan.reasons.has(`${e.code} ${e.path}`))
      return {
        kind: `wrong-path-${e.code}`,
        detail: `${e.message}; the text breaks it at ${[...scan.reasons].join(", ")}`,
      };
    if (e.code !== "not-an-object" && !scan.positions.has(`${e.code} @${e.position}`))
      return {
        kind: `wrong-position-${e.code}`,
        detail: `${e.message} (position ${e.position}); the text breaks it at ${[...scan.positions].join(", ")}`,
      };
    return undefined;
  }
  if (prototypeTouched())
    return { kind: "prototype-polluted", detail: "after structMessageFromJson" };
  count(tally, "accepted");
  if (!j.ok) return { kind: "invalid-json-accepted", detail: "JSON.parse rejects this text" };
  if (scan.broken.size > 0)
    return {
      kind: "broken-rule-accepted",
      detail: `the text breaks ${[...scan.broken].join(", ")}`,
    };
  const value = plain({
    $typeName: "google.protobuf.Value",
    kind: { case: "structValue", value: struct },
  });
  if (!sameJson(value, j.value)) return { kind: "value-differs-from-JSON.parse", detail: "" };
  if (hasLoneSurrogate(value)) return { kind: "lone-surrogate-accepted", detail: "" };

  // precision-lost exactly where an independent decimal comparison says so
  let lossless: unknown;
  try {
    lossless = losslessParse(text);
  } catch (e) {
    return { kind: "lossless-json-rejects-accepted-text", detail: describe(e) };
  }
  const expected: string[] = [];
  numberTexts(lossless, [], expected);
  const got = diagnostics.filter((d) => d.code === "precision-lost").map((d) => d.path);
  if (expected.sort().join("\n") !== got.sort().join("\n"))
    return {
      kind: "precision-lost-mismatch",
      detail: `expected ${expected.join(" ")} got ${got.join(" ")}`,
    };

  // through the wire and back: the text itself, byte for byte
  const call = toolCallFromJson({ name: "t", argumentsJson: text });
  const bytes = toBinary(
    ClientActionSchema,
    create(ClientActionSchema, { action: { case: "callMcpTool", value: call } }),
  );
  const back = fromBinary(ClientActionSchema, bytes).action.value;
  if (back === undefined) return { kind: "call-lost", detail: "" };
  const out: Diagnostic[] = [];
  let returned: string;
  try {
    returned = toolCallToJson(back, null, { onDiagnostic: (d) => out.push(d) });
  } catch (e) {
    return { kind: "round-trip-failed", detail: describe(e) };
  }
  if (wellFormed(text)) {
    if (returned !== text)
      return { kind: "round-trip-not-byte-exact", detail: `diagnostics ${JSON.stringify(out)}` };
  } else if (!out.some((d) => d.code === "raw-json-invalid")) {
    // A half-literal surrogate pair cannot travel as UTF-8: the raw text must be set aside, noted.
    return { kind: "raw-dropped-silently", detail: "" };
  }
  return undefined;
}
