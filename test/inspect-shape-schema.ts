// A schema of a value's own shape, typing each number by a list of choices:
// where random schemas (./schema-arbitraries.ts) seldom read a number as
// integer or number, these read every one, as a tool's schema usually does.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toObject } from "./schema-arbitraries.js";

/** The readings a number's schema is chosen from: integer, number, ambiguous, unknown, integer or null. */
export const NUMBER_SCHEMAS: readonly JsonSchema[] = [
  { type: "integer" },
  { type: "number" },
  { type: ["integer", "number"] },
  {},
  { type: ["integer", "null"] },
];

/** A schema of `value`'s shape typing each number by `choices` (cycled, in document order). */
export function shapeSchema(value: JsonValue, choices: readonly number[]): JsonSchema {
  let k = 0;
  const go = (v: JsonValue): JsonSchema => {
    if (typeof v === "number")
      return NUMBER_SCHEMAS[choices[k++ % choices.length]! % NUMBER_SCHEMAS.length]!;
    if (typeof v !== "object" || v === null) return {};
    if (Array.isArray(v)) return { type: "array", prefixItems: v.map(go) } as JsonSchema;
    return {
      type: "object",
      properties: toObject(
        Object.keys(v).map((key) => [key, go((v as JsonObject)[key]!)] as const),
      ),
    } as JsonSchema;
  };
  return go(value);
}
