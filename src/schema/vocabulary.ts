// The keyword table: one definition per JSON Schema keyword the reader knows,
// saying what that keyword says about a number's reading, about an object or
// array value (to set branches aside), about a member's value, and which
// subschemas it has and how they apply. Everything else is derived from this
// table: which schema objects describe something, which keywords are in-place
// applicators, alternatives, member or element keywords, and which
// subschemas the `$ref` index walks. Adding a keyword touches this file.
//
// How member and element keywords combine (`properties`, then matching
// `patternProperties`, else `additionalProperties`, else
// `unevaluatedProperties`; `prefixItems[i]` then `items`, …) is one rule per
// kind, in ./children.ts; the engine (./work.ts, ./reader.ts) knows no keyword.

import { unescapePointerToken } from "../json-pointer.js";
import type { JsonSchemaObject } from "./json-schema.js";
import { hasMember, isRecord, ownKeyword } from "./keywords.js";
import {
  conjunction,
  R_AMBIGUOUS,
  R_DROP,
  R_INTEGER,
  R_NONE,
  R_NUMBER,
  type Reading,
} from "./number-reading.js";
import {
  and,
  objectValuesPredicate,
  type Predicate,
  sizeOf,
  valuesPredicate,
} from "./predicates.js";

/** How a keyword's subschemas sit in the schema document. */
export type SubschemaShape = "schema" | "list" | "map" | "schema-or-list";

/** Where a keyword's subschemas apply. */
export type Application =
  /** At the same position, all of them (allOf, $ref). */
  | "in-place"
  /** At the same position, one of them (anyOf, oneOf; if's then/else; a dependent schema or nothing). */
  | "alternatives"
  /** To an object's members. */
  | "members"
  /** To an array's elements. */
  | "elements"
  /** Not followed by the reader (not, contains, $defs, …); walked only to index `$id`s and anchors. */
  | "none";

/** What the object check of a keyword may ask of the branch-filtering engine. */
export interface CheckContext {
  /** The value check of a member's subschema (its own `const`/`enum`, through applicators); true when none. */
  memberCheck(subschema: unknown): Predicate;
}

/** One keyword's definition. Every part is optional: a keyword says only what it says. */
export interface KeywordDefinition {
  readonly name: string;
  readonly subschemas?: { readonly shape: SubschemaShape; readonly applies: Application };
  /** Alternatives only: whether branches a value cannot match may be set aside (anyOf, oneOf: yes; if: no). */
  readonly selectable?: boolean | undefined;
  /** What the keyword's value says about a number: a whole one, or not (`whole`). */
  readonly reading?: (value: unknown, whole: boolean) => Reading;
  /** What an object value must satisfy. */
  readonly objectCheck?: (value: unknown, context: CheckContext) => Predicate;
  /** What a member's primitive value must satisfy. */
  readonly valueCheck?: (value: unknown) => Predicate;
  /** Whether an array value can satisfy it. */
  readonly admitsArray?: (value: unknown) => boolean;
  /**
   * What an object value must satisfy to match `branch` (a raw subschema) of
   * the same schema object's selectable alternatives (anyOf, oneOf).
   */
  readonly branchCheck?: (value: unknown, branch: unknown) => Predicate;
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
 * A `type` keyword's valid names; undefined when unusable (not a string or
 * array, or naming no JSON type), so a malformed `type` is ignored.
 */
export function typeNames(value: unknown): readonly string[] | undefined {
  if (typeof value === "string") return SINGLE_TYPES.get(value);
  if (!Array.isArray(value)) return undefined;
  const list: readonly unknown[] = value;
  const out: string[] = [];
  for (const name of list) if (typeof name === "string" && TYPE_NAMES.has(name)) out.push(name);
  return out.length === 0 ? undefined : out;
}

/** `const`/`enum`: all numeric members whole → integer; some not → number; none numeric → none. */
function valuesReading(values: readonly unknown[]): Reading {
  let numbers = 0;
  for (const v of values) {
    if (typeof v !== "number") continue;
    if (!Number.isInteger(v)) return R_NUMBER;
    numbers++;
  }
  return numbers > 0 ? R_INTEGER : R_NONE;
}

/**
 * The last segment of a `$ref` ("#/$defs/Cat" → "Cat"), unescaped: the last
 * token of its fragment once percent-decoded, as the ref is resolved (so
 * "#%2F%24defs%2FCat" names Cat, and "#/$defs/x#y" names x#y, not y); an
 * anchor's name; else the last segment of the URI.
 */
function lastSegment(ref: string): string {
  const hash = ref.indexOf("#");
  const text = hash < 0 ? ref : decoded(ref.slice(hash + 1));
  const segment = text.slice(text.lastIndexOf("/") + 1);
  return unescapePointerToken(hash < 0 ? decoded(segment) : segment);
}

/** `text` percent-decoded; as it is when its escapes are malformed. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * OpenAPI `discriminator` for one branch: when the object's member
 * `propertyName` is a string, a mapped value selects the branches whose `$ref`
 * is the mapping's target; an unmapped value selects the branch whose `$ref`
 * ends in that name. Branches without `$ref`, and malformed discriminators,
 * are not judged by it.
 */
function discriminatorCheck(value: unknown, branch: unknown): Predicate {
  if (!isRecord(value) || !isRecord(branch)) return true;
  const propertyName = ownKeyword(value, "propertyName");
  const ref = ownKeyword(branch, "$ref");
  if (typeof propertyName !== "string" || typeof ref !== "string") return true;
  const mappingKeys = new Map<string, string>();
  const m = ownKeyword(value, "mapping");
  if (isRecord(m)) {
    for (const k of Object.keys(m)) {
      const target = m[k];
      if (typeof target === "string") mappingKeys.set(k, target);
    }
  }
  const name = lastSegment(ref);
  const mapped = new Set<string>();
  for (const [v, target] of mappingKeys) {
    if (target === ref || lastSegment(target) === name) mapped.add(v);
  }
  return { t: "disc", key: propertyName, mappingKeys, mapped, name, size: 1 };
}

/** Whether a `type` keyword admits JSON type `name` (a malformed one says nothing: it admits all). */
function admitsType(value: unknown, name: string): boolean {
  const types = typeNames(value);
  return types === undefined || types.includes(name);
}

/**
 * A keyword that lists the values admitted (`const`, `enum`): `values` gives
 * the list its value stands for, undefined when it says nothing.
 */
function valuesKeyword(
  name: string,
  values: (value: unknown) => readonly unknown[] | undefined,
): KeywordDefinition {
  return {
    name,
    reading: (value) => {
      const list = values(value);
      return list === undefined ? R_DROP : valuesReading(list);
    },
    objectCheck: (value) => {
      const list = values(value);
      return list === undefined || objectValuesPredicate(list);
    },
    valueCheck: (value) => {
      const list = values(value);
      return list === undefined || valuesPredicate(list);
    },
    admitsArray: (value) => values(value)?.some(Array.isArray) ?? true,
  };
}

/** Keywords (space-separated `names`) that only have subschemas, all of one shape, applied alike. */
function applicators(
  names: string,
  shape: SubschemaShape,
  applies: Application,
  selectable?: boolean,
): KeywordDefinition[] {
  return names.split(" ").map((name) => ({ name, subschemas: { shape, applies }, selectable }));
}

/** The table. */
export const KEYWORDS: readonly KeywordDefinition[] = [
  {
    name: "type",
    // A list of names is a disjunction: ["integer","number"] is ambiguous (number for a non-whole value).
    reading: (value, whole) => {
      const types = typeNames(value);
      if (types === undefined) return R_DROP;
      const integer = types.includes("integer");
      const number = types.includes("number");
      if (integer && number) return whole ? R_AMBIGUOUS : R_NUMBER;
      return integer ? R_INTEGER : number ? R_NUMBER : R_NONE;
    },
    objectCheck: (value) => admitsType(value, "object"),
    admitsArray: (value) => admitsType(value, "array"),
  },
  valuesKeyword("const", (value) => [value]),
  // A malformed `enum` (not a list) says nothing.
  valuesKeyword("enum", (value) => (Array.isArray(value) ? value : undefined)),
  {
    name: "multipleOf",
    // A positive integer step admits only integers.
    reading: (value) =>
      typeof value === "number" && Number.isInteger(value) && value > 0 ? R_INTEGER : R_DROP,
  },
  {
    name: "required",
    objectCheck: (value) => {
      if (!Array.isArray(value)) return true;
      const parts: Predicate[] = [];
      for (const k of value) if (typeof k === "string") parts.push({ t: "has", key: k, size: 1 });
      return and(parts);
    },
  },
  {
    name: "properties",
    subschemas: { shape: "map", applies: "members" },
    // Discriminated unions: a member whose subschema requires a `const`/`enum`.
    objectCheck: (value, context) => {
      if (!isRecord(value)) return true;
      const parts: Predicate[] = [];
      for (const key of Object.keys(value)) {
        const test = context.memberCheck(value[key]);
        if (test !== true) parts.push({ t: "member", key, test, size: 1 + sizeOf(test) });
      }
      return and(parts);
    },
  },
  ...applicators("patternProperties", "map", "members"),
  ...applicators("additionalProperties unevaluatedProperties", "schema", "members"),
  ...applicators("additionalItems unevaluatedItems", "schema", "elements"),
  ...applicators("contains not", "schema", "none"),
  // `if` chooses between then/else (an absent one is `true`): by an object value's members where
  // its branch predicate decides it (./object-info.ts), else both are the alternatives.
  ...applicators("if", "schema", "alternatives", false),
  ...applicators("then else propertyNames contentSchema", "schema", "none"),
  ...applicators("allOf", "list", "in-place"),
  ...applicators("anyOf oneOf", "list", "alternatives", true),
  ...applicators("prefixItems", "list", "elements"),
  ...applicators("items", "schema-or-list", "elements"),
  ...applicators("$ref $dynamicRef $recursiveRef", "schema", "in-place"),
  { name: "discriminator", branchCheck: discriminatorCheck },
  ...applicators("$defs definitions", "map", "none"),
  // A dependent schema applies in place to an object that has its key: chosen by the key's presence.
  ...applicators("dependentSchemas dependencies", "map", "alternatives", false),
];

/** The names of the keywords `keep` accepts, in the table's order. */
export function keywordNames(keep: (k: KeywordDefinition) => boolean): readonly string[] {
  return KEYWORDS.filter(keep).map((k) => k.name);
}

/** Keywords whose presence means a schema object says something about numbers at or below it. */
export const DESCRIBING_KEYWORDS = keywordNames(
  (k) => k.reading !== undefined || (k.subschemas !== undefined && k.subschemas.applies !== "none"),
);
/** In-place applicators whose value is a reference (resolved, not walked). */
export const REFERENCE_KEYWORDS = keywordNames(
  (k) => k.subschemas?.applies === "in-place" && k.name.startsWith("$"),
);
/** In-place applicators: every subschema applies at the same position. */
export const IN_PLACE_KEYWORDS = keywordNames((k) => k.subschemas?.applies === "in-place");
/** Alternatives: one subschema applies at the same position. */
export const ALTERNATIVE_KEYWORDS = keywordNames((k) => k.subschemas?.applies === "alternatives");
/** Keywords through which a member's subschema can require a value (its own check, or an applicator). */
export const VALUE_CHECK_KEYWORDS = keywordNames(
  (k) =>
    k.valueCheck !== undefined ||
    k.subschemas?.applies === "in-place" ||
    (k.subschemas?.applies === "alternatives" && k.selectable === true),
);
function walked(shapes: readonly SubschemaShape[]): readonly string[] {
  return keywordNames(
    (k) =>
      k.subschemas !== undefined &&
      shapes.includes(k.subschemas.shape) &&
      !REFERENCE_KEYWORDS.includes(k.name),
  );
}
/** Keywords whose value can be one subschema: what the `$ref` index walks. */
export const SINGLE_SUBSCHEMA_KEYWORDS = walked(["schema", "schema-or-list"]);
/** Keywords whose value can be a list of subschemas. */
export const LIST_SUBSCHEMA_KEYWORDS = walked(["list", "schema-or-list"]);
/** Keywords whose value is a map of subschemas. */
export const MAP_SUBSCHEMA_KEYWORDS = walked(["map"]);

const READING_KEYWORDS = KEYWORDS.filter((k) => k.reading !== undefined);
const OBJECT_CHECK_KEYWORDS = KEYWORDS.filter((k) => k.objectCheck !== undefined);
const VALUE_CHECKS = KEYWORDS.filter((k) => k.valueCheck !== undefined);
const ARRAY_KEYWORDS = KEYWORDS.filter((k) => k.admitsArray !== undefined);

/** True when one of `keywords` is the schema object's own property. */
export function hasAnyKeyword(raw: JsonSchemaObject, keywords: readonly string[]): boolean {
  for (const k of keywords) if (hasMember(raw, k)) return true;
  return false;
}

/** The reading of one schema object's own keywords, conjoined; R_DROP when none says anything. */
export function ownReading(raw: JsonSchemaObject, whole: boolean): Reading {
  let r: Reading = R_DROP;
  for (const k of READING_KEYWORDS) {
    if (hasMember(raw, k.name)) r = conjunction(r, k.reading!(raw[k.name], whole));
  }
  return r;
}

/** The conjunction of what each of `keywords` that is the schema object's own property says (`check`). */
function ownChecks(
  raw: JsonSchemaObject,
  keywords: readonly KeywordDefinition[],
  check: (k: KeywordDefinition, value: unknown) => Predicate,
): Predicate {
  const parts: Predicate[] = [];
  for (const k of keywords) if (hasMember(raw, k.name)) parts.push(check(k, raw[k.name]));
  return and(parts);
}

/** What one schema object's own keywords require of an object value. */
export function ownObjectCheck(raw: JsonSchemaObject, context: CheckContext): Predicate {
  return ownChecks(raw, OBJECT_CHECK_KEYWORDS, (k, v) => k.objectCheck!(v, context));
}

/** What one schema object's own keywords require of a member's primitive value. */
export function ownValueCheck(raw: JsonSchemaObject): Predicate {
  return ownChecks(raw, VALUE_CHECKS, (k, v) => k.valueCheck!(v));
}

const BRANCH_CHECK_KEYWORDS = KEYWORDS.filter((k) => k.branchCheck !== undefined);

/** Per branch of one schema object's selectable alternatives: what its own keywords require of an object value. */
export function ownBranchChecks(raw: JsonSchemaObject, branches: readonly unknown[]): Predicate[] {
  return branches.map((branch) =>
    ownChecks(raw, BRANCH_CHECK_KEYWORDS, (k, v) => k.branchCheck!(v, branch)),
  );
}

/** Whether an array value can satisfy one schema object's own keywords. */
export function ownAdmitsArray(raw: JsonSchemaObject): boolean {
  for (const k of ARRAY_KEYWORDS) {
    if (hasMember(raw, k.name) && !k.admitsArray!(raw[k.name])) return false;
  }
  return true;
}
