// What the CLI accepts as a JSON Schema: an object or a boolean in which every
// keyword that locates subschemas or bears on a number's reading has the JSON
// type the specification gives it, at every depth. Other keywords (minimum,
// required, format, a vendor's x-…) are not the decoder's business and pass
// unchecked, so that real servers' schemas of any draft are accepted. This
// is a gate before the decoder, which itself reads leniently: without it,
// `{"type":5}` would be read as "no schema" and every number as unknown.

import type { JsonValue } from "@bufbuild/protobuf";
import { type JsonPointer, pointerAppend } from "../json-pointer.js";
import { inputError } from "./cli-error.js";
import { isJsonObject } from "./json-input.js";

type Rule =
  /** A schema (object or boolean). */
  | "schema"
  /** An array of schemas (at least one). */
  | "schema-list"
  /** A schema or an array of schemas (`items` before draft 2020-12). */
  | "schema-or-list"
  /** An object whose members are schemas. */
  | "schema-map"
  /** An object whose members are schemas or arrays of strings (draft-07 `dependencies`). */
  | "dependency-map"
  /** A JSON type name or a non-empty array of them. */
  | "type"
  /** An array. */
  | "array"
  /** A number greater than 0. */
  | "positive-number"
  /** A string. */
  | "string";

// A Map, not an object literal: "then" as a property would make the table a thenable.
const KEYWORDS: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ["type", "type"],
  ["enum", "array"],
  ["multipleOf", "positive-number"],
  ["properties", "schema-map"],
  ["patternProperties", "schema-map"],
  ["additionalProperties", "schema"],
  ["unevaluatedProperties", "schema"],
  ["propertyNames", "schema"],
  ["dependentSchemas", "schema-map"],
  ["dependencies", "dependency-map"],
  ["items", "schema-or-list"],
  ["prefixItems", "schema-list"],
  ["additionalItems", "schema"],
  ["unevaluatedItems", "schema"],
  ["contains", "schema"],
  ["allOf", "schema-list"],
  ["anyOf", "schema-list"],
  ["oneOf", "schema-list"],
  ["not", "schema"],
  ["if", "schema"],
  ["then", "schema"],
  ["else", "schema"],
  ["$defs", "schema-map"],
  ["definitions", "schema-map"],
  ["$ref", "string"],
  ["$dynamicRef", "string"],
  ["$recursiveRef", "string"],
  ["$id", "string"],
  ["$anchor", "string"],
  ["$dynamicAnchor", "string"],
]);

const TYPE_NAMES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);

/** What a rule wants, for the error line. */
const WANTED: Readonly<Record<Rule, string>> = {
  schema: "a schema (an object or a boolean)",
  "schema-list": "a non-empty array of schemas",
  "schema-or-list": "a schema or an array of schemas",
  "schema-map": "an object whose members are schemas",
  "dependency-map": "an object whose members are schemas or arrays of strings",
  type: "a JSON type name or a non-empty array of them",
  array: "an array",
  "positive-number": "a number greater than 0",
  string: "a string",
};

const isSchema = (v: JsonValue): boolean => typeof v === "boolean" || isJsonObject(v);

/**
 * Throws `schema-invalid` (with the path into `where`) unless `schema` is a
 * JSON Schema in the sense above. Walks with its own stack: no recursion over
 * the schema's depth.
 */
export function checkJsonSchema(schema: JsonValue, path: JsonPointer, where: string): void {
  const fail = (at: JsonPointer, detail: string): never => {
    throw inputError("schema-invalid", `not a JSON Schema: ${detail}`, {
      path: at,
      document: where,
    });
  };
  const stack: { schema: JsonValue; path: JsonPointer }[] = [{ schema, path }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const s = top.schema;
    if (typeof s === "boolean") continue;
    if (!isJsonObject(s)) fail(top.path, "a schema is an object or a boolean");
    const object = s as { readonly [key: string]: JsonValue };
    for (const keyword of Object.keys(object)) {
      const rule = KEYWORDS.get(keyword);
      if (rule === undefined) continue;
      const v = object[keyword]!;
      const at = pointerAppend(top.path, keyword);
      const wrong = (): never => fail(at, `"${keyword}" must be ${WANTED[rule]}`);
      const push = (child: JsonValue, token: string | number): void => {
        stack.push({ schema: child, path: pointerAppend(at, token) });
      };
      switch (rule) {
        case "schema":
          if (!isSchema(v)) wrong();
          stack.push({ schema: v, path: at });
          break;
        case "schema-or-list":
          if (isSchema(v)) stack.push({ schema: v, path: at });
          else if (Array.isArray(v)) v.forEach(push);
          else wrong();
          break;
        case "schema-list":
          if (!Array.isArray(v) || v.length === 0) wrong();
          (v as JsonValue[]).forEach(push);
          break;
        case "schema-map":
          if (!isJsonObject(v)) wrong();
          for (const [name, child] of Object.entries(v as object)) push(child as JsonValue, name);
          break;
        case "dependency-map":
          if (!isJsonObject(v)) wrong();
          for (const [name, child] of Object.entries(v as object)) {
            if (Array.isArray(child)) {
              if (!child.every((x) => typeof x === "string")) wrong();
            } else push(child as JsonValue, name);
          }
          break;
        case "type": {
          const names = Array.isArray(v) ? v : [v];
          if (names.length === 0 || !names.every((n) => typeof n === "string" && TYPE_NAMES.has(n)))
            wrong();
          break;
        }
        case "array":
          if (!Array.isArray(v)) wrong();
          break;
        case "positive-number":
          if (typeof v !== "number" || !(v > 0)) wrong();
          break;
        case "string":
          if (typeof v !== "string") wrong();
          break;
      }
    }
  }
}
