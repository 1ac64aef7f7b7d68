// Issue 7, property tests of the whole tool-call path: any JSON object text a
// model may write (whitespace, escapes, astral characters, prototype-named and
// integer-like keys, integers of every size, subnormals, -0, exponents) goes
// toolCallFromJson → protobuf bytes → toolCallToJson and comes back
// byte-exact through raw_args_json, and denoting the same values through the
// Struct, with every precision loss reported exactly where it happens.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ClientActionSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics } from "../src/diagnostics.js";
import { pointerFrom } from "../src/json-pointer.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import {
  argumentsText,
  isIntText,
  isUnsafeInt,
  type JsonGen,
  runs,
  textLosesPrecision,
} from "./property-arbitraries.js";

/** Fixed seeds and moderate runs: the suite runs twice in CI (Node 20 and 24). */
const RUNS = 200;

function wire(text: string, rawArgsJson: "always" | "when-lossy" | "never" = "always") {
  const call = toolCallFromJson({ name: "t", argumentsJson: text }, { rawArgsJson });
  const action = create(ClientActionSchema, {
    actionId: "a1",
    action: { case: "callMcpTool", value: call },
  });
  const back = fromBinary(ClientActionSchema, toBinary(ClientActionSchema, action));
  if (back.action.case !== "callMcpTool") throw new Error("the action was lost on the wire");
  return back.action.value;
}

/** Every number's path in a lossless parse, with its text. */
function numbers(v: unknown, tokens: (string | number)[], out: [string, string][]): void {
  if (isLosslessNumber(v)) {
    out.push([pointerFrom(tokens), v.toString()]);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => {
      tokens.push(i);
      numbers(x, tokens, out);
      tokens.pop();
    });
  } else if (typeof v === "object" && v !== null) {
    for (const k of Object.keys(v)) {
      tokens.push(k);
      numbers((v as Record<string, unknown>)[k], tokens, out);
      tokens.pop();
    }
  }
}

/**
 * Asserts that `out` (decoder output) denotes what `written` (model text) does,
 * as far as float64 carries it: same keys (own, `__proto__` included), same
 * strings, booleans, nulls; integer texts exact up to 2^53−1 and the float64's
 * exact digits beyond; float texts the same float64, still written as floats
 * when `typed` (a schema said "number"). Returns the paths of unsafe integers.
 */
function expectSameValues(written: unknown, out: unknown, typed: boolean): string[] {
  const big: string[] = [];
  const walk = (w: unknown, o: unknown, tokens: (string | number)[]): void => {
    const at = pointerFrom(tokens);
    if (isLosslessNumber(w)) {
      expect(isLosslessNumber(o), at).toBe(true);
      const wt = w.toString();
      const ot = (o as { toString(): string }).toString();
      if (isIntText(wt) && typed) {
        expect(isIntText(ot), `${at} is written as an integer literal`).toBe(true);
        if (isUnsafeInt(wt)) {
          big.push(at);
          expect(BigInt(ot), at).toBe(BigInt(Number(wt)));
        } else {
          expect(BigInt(ot), at).toBe(BigInt(wt));
        }
      } else {
        // === on purpose: -0 and 0 are one JSON value.
        expect(Number(ot) === Number(wt), `${at}: ${ot} denotes ${wt}`).toBe(true);
        if (typed && !isIntText(wt) && Math.abs(Number(wt)) < 1e21)
          expect(/[.eE]/.test(ot), `${at} stays a float`).toBe(true);
      }
      return;
    }
    if (typeof w !== "object" || w === null) {
      expect(o, at).toEqual(w);
      return;
    }
    expect(Array.isArray(o), at).toBe(Array.isArray(w));
    const keys = Object.keys(w);
    expect(Object.keys(o as object), at).toEqual(
      Array.isArray(w) ? keys : expect.arrayContaining(keys),
    );
    expect(Object.keys(o as object).length, at).toBe(keys.length);
    for (const k of keys) {
      tokens.push(Array.isArray(w) ? Number(k) : k);
      walk((w as Record<string, unknown>)[k], (o as Record<string, unknown>)[k], tokens);
      tokens.pop();
    }
  };
  walk(written, out, []);
  return big;
}

/** What Object.prototype and friends look like; compared before and after. */
function prototypeSnapshot(): string {
  const describe = (o: object) =>
    Object.getOwnPropertyNames(o)
      .sort()
      .map((k) => `${k}:${typeof Object.getOwnPropertyDescriptor(o, k)?.value}`)
      .join(",");
  return [
    describe(Object.prototype),
    describe(Array.prototype),
    describe(String.prototype),
    String(Object.getPrototypeOf(Object.prototype)),
  ].join("\n");
}

let before = "";
beforeAll(() => {
  before = prototypeSnapshot();
});
afterAll(() => {
  // Nothing a model wrote may have reached a prototype.
  expect(prototypeSnapshot()).toBe(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe("any JSON object text, through protobuf bytes", () => {
  test('rawJson "verify" returns the text byte-exact', () => {
    fc.assert(
      fc.property(argumentsText, ({ text, schema }: JsonGen) => {
        const call = wire(text);
        expect(call.rawArgsJson).toBe(text);
        const { list, onDiagnostic } = collectDiagnostics();
        expect(toolCallToJson(call, schema, { onDiagnostic })).toBe(text);
        expect(toolCallToJson(call, undefined)).toBe(text);
        // Only integer-written-as-float may be noted (a schema integer is never written 5.0 here).
        expect(list).toEqual([]);
      }),
      runs(RUNS, 7_001),
    );
  });

  test('rawJson "ignore" with a schema typing each number as written: same values, integer-precision-lost and number-precision-lost exactly above 2^53−1', () => {
    fc.assert(
      fc.property(argumentsText, ({ text, schema }: JsonGen) => {
        const call = wire(text);
        const codes: string[] = [];
        const out = toolCallToJson(call, schema, {
          rawJson: "ignore",
          onDiagnostic: (d) => codes.push(`${d.code} ${d.path}`),
        });
        const big = expectSameValues(losslessParse(text), losslessParse(out), true);
        const written: [string, string][] = [];
        numbers(losslessParse(text), [], written);
        // Number positions (written as floats) of 2^53 or more may hold rounded ids (issue 17).
        const bigFloats = written.filter(
          ([, t]) => !isIntText(t) && Math.abs(Number(t)) > Number.MAX_SAFE_INTEGER,
        );
        expect(codes.sort()).toEqual(
          [
            ...big.map((p) => `integer-precision-lost ${p}`),
            ...bigFloats.map(([p]) => `number-precision-lost ${p}`),
          ].sort(),
        );
      }),
      runs(RUNS, 7_002),
    );
  });

  test('rawJson "ignore" without a schema: the same float64 values, no diagnostics', () => {
    fc.assert(
      fc.property(argumentsText, ({ text }: JsonGen) => {
        const { list, onDiagnostic } = collectDiagnostics();
        const out = toolCallToJson(wire(text, "never"), null, { onDiagnostic });
        const written: [string, string][] = [];
        const got: [string, string][] = [];
        numbers(losslessParse(text), [], written);
        numbers(losslessParse(out), [], got);
        // +0 for -0: one JSON value, and JSON.stringify writes both as 0.
        const float = ([p, t]: [string, string]) => [p, Number(t) + 0];
        expect(got.map(float)).toEqual(written.map(float));
        expect(list).toEqual([]);
      }),
      runs(RUNS, 7_003),
    );
  });

  test("the encoder notes precision-lost exactly where the float64 cannot carry the text; when-lossy keeps the text exactly then", () => {
    fc.assert(
      fc.property(argumentsText, ({ text }: JsonGen) => {
        const written: [string, string][] = [];
        numbers(losslessParse(text), [], written);
        const expected = written.filter(([, t]) => textLosesPrecision(t)).map(([p]) => p);
        const { list, onDiagnostic } = collectDiagnostics();
        toolCallFromJson({ name: "t", argumentsJson: text }, { onDiagnostic });
        // Sorted: the encoder reports in text order, a JS object lists integer-like keys first.
        expect(list.map((d) => `${d.code} ${d.path}`).sort()).toEqual(
          expected.map((p) => `precision-lost ${p}`).sort(),
        );
        expect(wire(text, "when-lossy").rawArgsJson).toBe(expected.length > 0 ? text : undefined);
      }),
      runs(RUNS, 7_004),
    );
  });
});
