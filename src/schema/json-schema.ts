/**
 * A JSON Schema: an object or a boolean (draft-06 and later). Typed loosely on
 * purpose: schemas come from third-party MCP servers, and every keyword is read
 * defensively.
 */
export type JsonSchema = boolean | JsonSchemaObject;

/** A JSON Schema object; any keyword may be present or absent, with any value. */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}
