import type { JsonSchemaObject } from "./json-schema.js";

const isEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * True when `name` is a member of `o` as JSON sees it: an own, enumerable
 * property. Inherited members never count, so `__proto__`, `constructor` and
 * `toString` are ordinary names and a polluted Object.prototype cannot inject
 * keywords; nor does a non-enumerable one, which JSON.stringify, Object.keys
 * and the schema cache's comparison (compile-schema.ts) do not see either.
 */
export function hasMember(o: object, name: string): boolean {
  return isEnumerable.call(o, name);
}

/** A keyword's value when it is a member of the schema (see {@link hasMember}). */
export function ownKeyword(schema: JsonSchemaObject, name: string): unknown {
  return hasMember(schema, name) ? schema[name] : undefined;
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
