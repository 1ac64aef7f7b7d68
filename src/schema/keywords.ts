import type { JsonSchemaObject } from "../json-schema.js";

/**
 * A keyword's value when it is the schema's own property. Inherited members
 * never count, so `__proto__`, `constructor` and `toString` are ordinary names
 * and a polluted Object.prototype cannot inject keywords.
 */
export function kw(schema: JsonSchemaObject, name: string): unknown {
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

const TYPE_NAMES: ReadonlySet<string> = new Set([
  "null",
  "boolean",
  "object",
  "array",
  "number",
  "string",
  "integer",
]);

/** One shared list per single type name (most schemas have one). */
const SINGLE_TYPES: ReadonlyMap<string, readonly string[]> = new Map(
  [...TYPE_NAMES].map((n) => [n, Object.freeze([n])]),
);

/**
 * The `type` keyword as its valid names; undefined when absent or unusable
 * (not a string or array, or naming no JSON type), so a malformed `type` is ignored.
 */
export function typeNames(schema: JsonSchemaObject): readonly string[] | undefined {
  const t = kw(schema, "type");
  if (typeof t === "string") return SINGLE_TYPES.get(t);
  if (!Array.isArray(t)) return undefined;
  const list: readonly unknown[] = t;
  const out: string[] = [];
  for (const name of list) if (typeof name === "string" && TYPE_NAMES.has(name)) out.push(name);
  return out.length === 0 ? undefined : out;
}

/** Keywords this reader acts on; a schema object with none of them describes nothing. */
const RELEVANT = [
  "type",
  "const",
  "enum",
  "multipleOf",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "allOf",
  "anyOf",
  "oneOf",
  "if",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
];

/** True when the schema object has a keyword this reader acts on. */
export function describesSomething(schema: JsonSchemaObject): boolean {
  for (const k of RELEVANT) if (Object.hasOwn(schema, k)) return true;
  return false;
}
