// Issue 7, property tests of the decoder under arbitrary tool schemas: random
// combinations of every keyword the schema reader acts on (with $ref cycles,
// refs to nowhere, remote refs, anchors, $id scopes, discriminators, hostile
// patterns, prototype-named members) over random arguments. structToJson must
// finish within a time bound, throw nothing but StructJsonError, and never
// change a value: whatever the schema says, each number written denotes the
// float64 the Struct carries, and its text matches the reading reported.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { describe, expect, test } from "vitest";
import type { Diagnostic, DiagnosticCode } from "../src/diagnostics.js";
import { isStructJsonError } from "../src/errors.js";
import { pointerFrom } from "../src/json-pointer.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { inspectNumbers, structMessageToJson, structToJson } from "../src/struct/to-json.js";
import { runs } from "./property-arbitraries.js";
import { argsArb, rootSchemaArb, toObject, toStruct } from "./schema-arbitraries.js";

/**
 * One call's time bound. The reader's work budget keeps real calls in the
 * milliseconds; the bound leaves room for a loaded two-core CI box.
 */
/** A hang guard (hundreds of times the idle time), not a speed check. */
const TIME_BOUND_MS = 10_000;
const RUNS = 300;

const DECODER_CODES: ReadonlySet<DiagnosticCode> = new Set([
  "not-an-integer",
  "integer-precision-lost",
  "number-precision-lost",
  "ambiguous-number",
  "schema-ref-unresolved",
  "schema-too-complex",
  "schema-pattern-unevaluated",
]);

/** True when `path` names a position inside `value`. */
function pathExists(value: unknown, path: string): boolean {
  if (path === "") return true;
  let cur: unknown = value;
  for (const raw of path.slice(1).split("/")) {
    const t = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof cur !== "object" || cur === null || !Object.hasOwn(cur, t)) return false;
    cur = (cur as Record<string, unknown>)[t];
  }
  return true;
}

/** Asserts that the written text denotes exactly the arguments' values. */
function expectSameValues(args: unknown, written: unknown, tokens: (string | number)[] = []): void {
  const at = pointerFrom(tokens);
  if (typeof args === "number") {
    expect(isLosslessNumber(written), at).toBe(true);
    // === on purpose: -0 and 0 are one JSON value (JSON.stringify writes -0 as 0).
    expect(Number((written as { toString(): string }).toString()) === args, at).toBe(true);
    return;
  }
  if (typeof args !== "object" || args === null) {
    expect(written, at).toBe(args);
    return;
  }
  expect(Array.isArray(written), at).toBe(Array.isArray(args));
  const keys = Object.keys(args);
  expect(Object.keys(written as object), at).toEqual(keys);
  for (const k of keys) {
    tokens.push(k);
    expectSameValues(
      (args as Record<string, unknown>)[k],
      (written as Record<string, unknown>)[k],
      tokens,
    );
    tokens.pop();
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Runs the decoder once, checking time, errors, values, diagnostics and readings. */
function check(schema: JsonSchema, args: JsonObject, options: { compiled: boolean }): void {
  const diagnostics: Diagnostic[] = [];
  const start = performance.now();
  let out: string;
  try {
    const s = options.compiled ? compileSchema(schema) : schema;
    out = structMessageToJson(toStruct(args), s, { onDiagnostic: (d) => diagnostics.push(d) });
  } catch (e) {
    // Random schemas are objects or booleans and the values finite: nothing may throw.
    expect.soft(isStructJsonError(e), String(e)).toBe(true);
    throw e;
  }
  const ms = performance.now() - start;
  expect(ms, "structToJson took too long").toBeLessThan(TIME_BOUND_MS);

  expectSameValues(args, losslessParse(out));
  for (const d of diagnostics) {
    expect(DECODER_CODES.has(d.code), d.code).toBe(true);
    expect(pathExists(args, d.path), `${d.code} at ${d.path}`).toBe(true);
  }
  // The two argument forms decode alike.
  expect(structToJson(args, schema)).toBe(out);

  for (const n of inspectNumbers(args, schema)) {
    const whole = Number.isInteger(n.value);
    const unsafe = whole && (n.value > MAX_SAFE || n.value < -MAX_SAFE);
    expect(Number(n.text) === n.value, n.path).toBe(true);
    if (n.reading === "integer" && whole) expect(n.text, n.path).toMatch(/^-?\d+$/);
    if (n.reading === "number" && whole && Math.abs(n.value) < 1e21)
      expect(n.text, n.path).toMatch(/\.0$/);
    expect(n.codes.includes("integer-precision-lost"), `${n.path} integer-precision-lost`).toBe(
      unsafe && (n.reading === "integer" || n.reading === "ambiguous"),
    );
    expect(n.codes.includes("number-precision-lost"), `${n.path} number-precision-lost`).toBe(
      unsafe && n.reading === "number",
    );
    expect(n.codes.includes("not-an-integer"), `${n.path} not-an-integer`).toBe(
      n.reading === "integer" && !whole,
    );
  }
}

describe("arbitrary schemas over arbitrary arguments", () => {
  test("structToJson terminates in bounded time, throws nothing, changes no value", () => {
    fc.assert(
      fc.property(rootSchemaArb, argsArb, (schema, args) =>
        check(schema, args, { compiled: false }),
      ),
      runs(RUNS, 7_101),
    );
  });

  test("the same through compileSchema", () => {
    fc.assert(
      fc.property(rootSchemaArb, argsArb, (schema, args) =>
        check(schema, args, { compiled: true }),
      ),
      runs(RUNS / 2, 7_102),
    );
  });

  test("non-finite numbers: non-finite-number, as an error or as null with a diagnostic", () => {
    fc.assert(
      fc.property(
        rootSchemaArb,
        argsArb,
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
        (schema, args, bad) => {
          const withBad = toObject([...Object.entries(args), ["zz", bad as unknown as JsonValue]]);
          let error: unknown;
          try {
            structMessageToJson(toStruct(withBad as JsonObject), schema);
          } catch (e) {
            error = e;
          }
          expect(error).toMatchObject({ code: "non-finite-number", path: "/zz" });
          const codes: string[] = [];
          const out = structMessageToJson(toStruct(withBad as JsonObject), schema, {
            nonFinite: "null",
            onDiagnostic: (d) => codes.push(`${d.code} ${d.path}`),
          });
          expect((losslessParse(out) as Record<string, unknown>).zz).toBeNull();
          expect(codes).toContain("non-finite-number /zz");
        },
      ),
      runs(50, 7_103),
    );
  });
});

// Shrunk counterexamples of the properties above, kept as named regressions.
describe("regressions found by these properties", () => {
  test("a note about an array is reported at the array, not at its (maybe missing) first element", () => {
    // Shrunk from seed 7102: {"$ref":"urn:…#x","items":<root>} over {"a":[]} noted at /a/0.
    const schema = { properties: { a: { $ref: "#/nowhere", items: { type: "integer" } } } };
    for (const [args, expected] of [
      [{ a: [] }, '{"a":[]}'],
      [{ a: [1] }, '{"a":[1]}'],
    ] as const) {
      const codes: string[] = [];
      expect(
        structMessageToJson(toStruct(args as unknown as JsonObject), schema, {
          onDiagnostic: (d) => codes.push(`${d.code} ${d.path}`),
        }),
      ).toBe(expected);
      expect(codes).toEqual(["schema-ref-unresolved /a"]);
    }
  });
});
