import type { JsonSchemaObject } from "./json-schema.js";

/**
 * A keyword's value when it is the schema's own property. Inherited members
 * never count, so `__proto__`, `constructor` and `toString` are ordinary names
 * and a polluted Object.prototype cannot inject keywords.
 */
export function ownKeyword(schema: JsonSchemaObject, name: string): unknown {
  return Object.hasOwn(schema, name) ? schema[name] : undefined;
}

/** True for a non-null, non-array object. */
export function isRecord(x: unknown): x is JsonSchemaObject {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** True when `x` can be a schema: an object or a boolean. */
export function isSchema(x: unknown): x is boolean | JsonSchemaObject {
  return typeof x === "boolean" || isRecord(x);
}

/** True for a JSON primitive (string, number, boolean or null). */
export function isPrimitive(x: unknown): x is string | number | boolean | null {
  return x === null || typeof x === "string" || typeof x === "number" || typeof x === "boolean";
}
