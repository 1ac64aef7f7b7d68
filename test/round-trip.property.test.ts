// Round trip property of the public functions (issue 4): for any JSON object
// text, with a schema that types each number as its text suggests, the Struct
// path gives back text denoting the same values; the raw path gives back the
// text itself.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { expect, test } from "vitest";
import { ClientActionSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { pointerFrom } from "../src/json-pointer.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";

/** A generated JSON value: its text and the schema that reads it as written. */
interface Gen {
  text: string;
  schema: JsonSchema;
}

const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("__proto__", "constructor", "toString", "", "0", "10", "a/b", "~"),
);
const intText = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.integer().map(String),
  fc.constantFrom("0", "-0", "9007199254740993", "18446744073709551615"),
);
const floatText = fc.oneof(
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .filter((d) => !Number.isInteger(d))
    .map(String),
  fc.constantFrom("1.0", "-0.0", "0.1", "1.5e3", "2.0E-2", "5e-324", "120000.0"),
);

const value: fc.Memo<Gen> = fc.memo((n) =>
  n <= 1
    ? leaf()
    : fc.oneof(
        leaf(),
        fc.array(value(n - 1), { maxLength: 4 }).map((items) => ({
          text: `[${items.map((i) => i.text).join(",")}]`,
          schema: { type: "array", prefixItems: items.map((i) => i.schema) } as JsonSchema,
        })),
        object(n - 1),
      ),
);

function object(n: number): fc.Arbitrary<Gen> {
  return fc
    .uniqueArray(fc.tuple(key, value(n)), { maxLength: 4, selector: ([k]) => k })
    .map((members) => {
      const properties: Record<string, JsonSchema> = {};
      for (const [k, v] of members)
        Object.defineProperty(properties, k, { value: v.schema, enumerable: true });
      return {
        text: `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${v.text}`).join(",")}}`,
        schema: { type: "object", properties },
      };
    });
}

function leaf(): fc.Arbitrary<Gen> {
  return fc.oneof(
    intText.map((text) => ({ text, schema: { type: "integer" } as JsonSchema })),
    floatText.map((text) => ({ text, schema: { type: "number" } as JsonSchema })),
    fc.string().map((s) => ({ text: JSON.stringify(s), schema: { type: "string" } as JsonSchema })),
    fc.boolean().map((b) => ({ text: String(b), schema: { type: "boolean" } as JsonSchema })),
    fc.constant({ text: "null", schema: { type: "null" } as JsonSchema }),
  );
}

function wire(text: string) {
  const call = toolCallFromJson({ name: "t", argumentsJson: text });
  const action = create(ClientActionSchema, { action: { case: "callMcpTool", value: call } });
  const back = fromBinary(ClientActionSchema, toBinary(ClientActionSchema, action));
  if (back.action.case !== "callMcpTool") throw new Error("lost");
  return back.action.value;
}

/** Compares what was written with what came out; returns the paths of ints above 2^53−1. */
function denotesSame(
  written: unknown,
  out: unknown,
  tokens: (string | number)[],
  big: string[],
): void {
  if (isLosslessNumber(written)) {
    expect(isLosslessNumber(out), pointerFrom(tokens)).toBe(true);
    const w = written.toString();
    const o = (out as { toString(): string }).toString();
    if (/^-?\d+$/.test(w)) {
      if (
        BigInt(w) > BigInt(Number.MAX_SAFE_INTEGER) ||
        BigInt(w) < -BigInt(Number.MAX_SAFE_INTEGER)
      ) {
        big.push(pointerFrom(tokens));
        expect(BigInt(o), pointerFrom(tokens)).toBe(BigInt(Number(w)));
      } else {
        expect(o, pointerFrom(tokens)).toBe(String(BigInt(w))); // exact, as an integer literal
      }
    } else {
      expect(Number(o), pointerFrom(tokens)).toBe(Number(w));
      expect(/[.eE]/.test(o), `${pointerFrom(tokens)} stays a float`).toBe(true);
    }
    return;
  }
  if (typeof written !== "object" || written === null) {
    expect(out).toEqual(written);
    return;
  }
  const keys = Object.keys(written);
  expect(Object.keys(out as object).sort()).toEqual(keys.sort());
  for (const k of keys) {
    tokens.push(Array.isArray(written) ? Number(k) : k);
    denotesSame(
      (written as Record<string, unknown>)[k],
      (out as Record<string, unknown>)[k],
      tokens,
      big,
    );
    tokens.pop();
  }
}

test("raw path: byte-exact; Struct path: the same values, precision loss flagged exactly", () => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  fc.assert(
    fc.property(object(3), ({ text, schema }) => {
      const call = wire(text);
      expect(toolCallToJson(call, schema)).toBe(text);
      const codes: string[] = [];
      const out = toolCallToJson(call, schema, {
        rawJson: "ignore",
        onDiagnostic: (d) => codes.push(`${d.path} ${d.code}`),
      });
      const big: string[] = [];
      denotesSame(losslessParse(text), losslessParse(out), [], big);
      expect(codes.sort()).toEqual(big.map((p) => `${p} integer-precision-lost`).sort());
    }),
    { numRuns: 300, seed: 20261129 },
  );
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
});
