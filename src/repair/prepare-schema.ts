// The schema ajv compiles for repair: a plain copy of the tool's schema, read
// once (own enumerable properties only, each getter run once) and measured on
// the way, so that every call can be charged for it and bounded by it.
//
// In the copy:
// - every schema object carries the cost keyword (see ./validator.ts), whose
//   value says what one evaluation of that object costs, so ajv's validation
//   draws on the call's budget however often a union or a recursive `$ref`
//   makes it evaluate the object;
// - every `pattern` and `patternProperties` pattern is compiled by the
//   linear-time engine; one it refuses (a backreference, a lookaround, a
//   construct RE2 lacks, invalid syntax, too large) is replaced by a keyword
//   that stops validation with `schema-pattern-unevaluated` where, and only
//   where, the arguments reach it.
//
// Refused up front: a cyclic object or a throwing getter (`schema-invalid`), a
// local `$ref` into a data keyword (`const`, `enum`, `default`, `examples`:
// data there is not a schema and carries no cost keyword), and a schema whose
// size, nesting or union width cannot fit (`schema-too-complex`).

import { isStackOverflow } from "../errors.js";
import { compilePattern, isPatternRefusal } from "../patterns/engine.js";
import { re2Patterns } from "../patterns/re2.js";
import {
  KEYWORDS,
  LIST_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
} from "../schema/vocabulary.js";
import { digitsEnd } from "../struct/number-text.js";
import { setOwnProperty } from "../struct/own-property.js";

/** Key of the cost keyword added to every schema object of the copy. */
export const COST_KEYWORD = "x-struct-json-bridge-cost";
/** Key of the keyword that replaces a `pattern` the engine refuses. */
export const UNEVALUATED_PATTERN_KEYWORD = "x-struct-json-bridge-unevaluated-pattern";
/** Key of the keyword that stands for `patternProperties` patterns the engine refuses. */
export const UNEVALUATED_PATTERN_PROPERTIES_KEYWORD =
  "x-struct-json-bridge-unevaluated-pattern-properties";

const reservedKeywords = new Set([
  COST_KEYWORD,
  UNEVALUATED_PATTERN_KEYWORD,
  UNEVALUATED_PATTERN_PROPERTIES_KEYWORD,
]);

/**
 * What one evaluation of a schema object costs: `[fixed, perMember,
 * perElement, perCharacter]` — fixed units, plus units per member of an
 * object, per element of an array, per code unit of a string (for
 * `minLength`/`maxLength`, which count code points).
 */
export type EvaluationCost = readonly [number, number, number, number];

/** The JSON Schema dialects validated; others are read as the closest of them. */
export type Draft = "draft-07" | "2019-09" | "2020-12";

/** A schema ready for ajv, its dialect, and the units every call through it is charged up front. */
export interface PreparedSchema {
  readonly schema: object | boolean;
  readonly draft: Draft;
  readonly units: number;
  /**
   * The schema has `dependencies` or `dependentSchemas` with a schema: whether
   * a member is present decides what applies to the other members of its
   * object (repair checks what an omission changes for them).
   */
  readonly presenceConditional: boolean;
}

/** Why a schema is refused before compiling, and the units reading it cost until then. */
export type PreparationRefusal = {
  readonly refused: "schema-invalid" | "schema-too-complex";
  readonly units: number;
};

/**
 * Deepest nesting of ajv's generated code accepted, as estimated here: LEVEL
 * per nested schema object, plus one per earlier branch of an `anyOf` or
 * `oneOf` (ajv nests each branch inside the previous one's failure). ajv's
 * compiler and V8's parser recurse on it and overflow the default stack from
 * about 1,140 (nested `anyOf`, 380 levels; a flat `anyOf` at 1,570 branches;
 * Node 20, 22 and 24); 800 leaves room for the caller's own stack.
 */
export const MAX_CODE_DEPTH = 800;
/** Code nesting one schema level adds. */
const LEVEL = 3;
/**
 * Units per level of estimated code nesting, per schema object: ajv's code
 * generator walks the enclosing blocks for each, so compiling is quadratic in
 * the nesting.
 */
const UNITS_PER_CODE_DEPTH = 2;
/**
 * Units per earlier branch, for each branch of an `anyOf`/`oneOf`: a flat union
 * is the steepest case of that (measured: 400 branches compile 28 times slower
 * than 100).
 */
const UNITS_PER_EARLIER_BRANCH = 8;
/** Deepest JSON nesting read in a schema (also inside `const`/`enum`, whose comparison recurses too). */
const MAX_NESTING = 1000;
/** Units per code unit of a string in the schema (it is copied, and keys become code). */
const CHARACTERS_PER_UNIT = 64;
/**
 * Units for compiling one pattern per unit of its weight (RE2 program size
 * / 64): measured, re2js compiles about 64 instructions in the time ajv takes
 * for one evaluation unit's worth of work × this.
 */
const UNITS_PER_PATTERN_WEIGHT = 64;
/**
 * Units per schema value for compiling it: ajv generates code for each, then
 * V8 compiles that code on the first call (measured: one schema value takes
 * about as long as 250 units of validation).
 */
export const COMPILE_UNITS_PER_VALUE = 250;
/** Units per value of an annotation (`description`, `default`, …): ajv only copies it, and meta-validation reads it once. */
const ANNOTATION_UNITS_PER_VALUE = 1;

// Keywords by what their value is: from the schema engine's keyword table.
const schemaValued = new Set(SINGLE_SUBSCHEMA_KEYWORDS);
const schemaLists = new Set(LIST_SUBSCHEMA_KEYWORDS);
const schemaMaps = new Set(MAP_SUBSCHEMA_KEYWORDS);
/** `anyOf`, `oneOf`: ajv nests each branch inside the previous one's failure. */
const unions = new Set(KEYWORDS.filter((k) => k.selectable === true).map((k) => k.name));
/** Maps whose members ajv compiles only when referenced, each as a function of its own. */
const definitionMaps = new Set(["definitions", "$defs"]);
const dataValued = new Set(["const", "enum", "default", "examples"]);
/** Keywords ajv does not evaluate (no format vocabulary is loaded): no code, no cost per evaluation. */
const annotations = new Set([
  "title",
  "description",
  "$comment",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "contentMediaType",
  "contentEncoding",
]);
/** Keywords whose value is an object of data (names to name lists, vocabulary URIs to booleans). */
const dataMaps = new Set(["dependentRequired", "$vocabulary"]);
const refKeywords = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);
/** Keywords that exist only in 2019-09/2020-12. */
const keywords2020 = new Set([
  "$defs",
  "prefixItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$anchor",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "minContains",
  "maxContains",
]);
/** Keywords that exist only in 2020-12 (a schema declaring 2019-09 and using one is read as 2020-12). */
const keywordsOnly2020 = new Set(["prefixItems", "$dynamicRef", "$dynamicAnchor"]);
/**
 * Keywords of 2019-09 (and 2020-12) that draft-07 ignores, though they
 * decide validity (`$defs` does not: draft-07 follows a `$ref` into it all the
 * same): with an `items` array (not 2020-12's), only 2019-09 has both.
 */
const assertions2019 = new Set(
  [...keywords2020].filter((k) => k !== "$defs" && !keywordsOnly2020.has(k)),
);
/** Keywords that exist only in 2019-09 (2020-12 replaced them with `$dynamicRef`/`$dynamicAnchor`). */
const keywordsOnly2019 = new Set(["$recursiveRef", "$recursiveAnchor"]);
// Keywords that make one evaluation loop over an object's members or an array's elements.
const memberLoops = new Set([
  "additionalProperties",
  "propertyNames",
  "unevaluatedProperties",
  "minProperties",
  "maxProperties",
]);
const elementLoops = new Set([
  "uniqueItems",
  "items",
  "additionalItems",
  "prefixItems",
  "contains",
  "unevaluatedItems",
]);

class Refused {
  constructor(readonly code: PreparationRefusal["refused"]) {}
}
const TOO_COMPLEX = new Refused("schema-too-complex");
const INVALID = new Refused("schema-invalid");

/**
 * Reads `schema` into the copy ajv compiles, or refuses it. `limit` is the
 * most units the caller can pay: a schema costing more is refused as
 * `schema-too-complex` as soon as the count passes it, so the work here is
 * bounded by `limit` too.
 */
export function prepareSchema(schema: unknown, limit: number): PreparedSchema | PreparationRefusal {
  const reader = new SchemaCopier(limit);
  try {
    const copy = reader.schema(schema, 0, 0);
    const units = reader.units;
    if (typeof copy !== "object" || copy === null || Array.isArray(copy)) {
      if (typeof copy !== "boolean") return { refused: "schema-invalid", units };
    }
    for (const ref of reader.refs) {
      if (!pointsAtSchema(ref)) return { refused: "schema-invalid", units };
    }
    fromDraft04Ids(reader.ids, copy);
    return {
      schema: copy as object | boolean,
      draft: reader.draft(copy),
      units,
      presenceConditional: reader.presenceConditional,
    };
  } catch (e) {
    const units = reader.units;
    if (e instanceof Refused) return { refused: e.code, units };
    if (isStackOverflow(e)) return { refused: "schema-too-complex", units };
    // A throwing getter or proxy trap: not a schema we can read.
    return { refused: "schema-invalid", units };
  }
}

/** The per-object tally of one schema object being copied. */
interface Tally {
  /** Units one evaluation of this object costs, before per-member and per-element work. */
  fixed: number;
}

class SchemaCopier {
  units = 0;
  readonly refs: string[] = [];
  /** An `items` array was met (draft-07 only). */
  private sawItemsList = false;
  /** A 2019-09/2020-12 keyword was met. */
  private saw2020 = false;
  /** A keyword of 2020-12 alone was met. */
  private sawOnly2020 = false;
  /** A keyword of 2019-09 alone was met. */
  private sawOnly2019 = false;
  /** A keyword of {@link assertions2019} was met. */
  private sawAssertion2019 = false;
  /** `dependencies`/`dependentSchemas` was met (see {@link PreparedSchema.presenceConditional}). */
  presenceConditional = false;
  /** The copies with an `id` member (draft-04's `$id`; see {@link fromDraft04Ids}). */
  readonly ids: Record<string, unknown>[] = [];
  private readonly ancestors = new Set<object>();
  constructor(private readonly limit: number) {}

  private charge(units: number): void {
    this.units += units;
    if (this.units > this.limit) throw TOO_COMPLEX;
  }

  /**
   * The dialect: from the root's `$schema` when it names draft-04/06/07,
   * 2019-09 (2020-12 if a keyword of 2020-12 alone, such as `prefixItems`,
   * is used) or 2020-12; otherwise 2019-09 when `$recursiveRef` or
   * `$recursiveAnchor` is used (draft-07 and 2020-12 would ignore them, so the
   * recursion went unvalidated) and no keyword of 2020-12 alone, else
   * draft-07 when `items` is an array somewhere (invalid in 2020-12; 2019-09
   * when a keyword draft-07 ignores, such as `unevaluatedProperties`, is
   * used too), else
   * 2020-12 when a 2020-only keyword is used (`$defs`, `prefixItems`, ...),
   * else draft-07.
   */
  draft(root: unknown): Draft {
    const uri =
      typeof root === "object" && root !== null
        ? (root as { $schema?: unknown }).$schema
        : undefined;
    if (typeof uri === "string") {
      if (uri.includes("2020-12")) return "2020-12";
      // 2019-09's tuple `items` and `$recursiveRef` are not 2020-12's.
      if (uri.includes("2019-09")) return this.sawOnly2020 ? "2020-12" : "2019-09";
      for (const draft of ["draft-04", "draft-05", "draft-06", "draft-07"]) {
        if (uri.includes(draft)) return "draft-07";
      }
    }
    if (this.sawOnly2019 && !this.sawOnly2020) return "2019-09";
    if (this.sawItemsList)
      return this.sawAssertion2019 && !this.sawOnly2020 ? "2019-09" : "draft-07";
    return this.saw2020 ? "2020-12" : "draft-07";
  }

  /** A value at a schema position: a schema object, a boolean, or (invalid, left for ajv's meta-schema) anything else. */
  schema(value: unknown, codeDepth: number, nesting: number): unknown {
    if (typeof value !== "object" || value === null) return this.data(value, nesting, undefined);
    if (Array.isArray(value)) {
      // Only under unknown keywords: each element may be `$ref`'d as a schema.
      return this.list(value, nesting, undefined, (item) => this.schema(item, 0, nesting + 1));
    }
    if (codeDepth > MAX_CODE_DEPTH || nesting > MAX_NESTING) throw TOO_COMPLEX;
    this.enter(value);
    const tally: Tally = { fixed: 0 };
    this.value(1, tally);
    this.charge(codeDepth * UNITS_PER_CODE_DEPTH);
    const copy = emptyObject();
    let perMember = 0;
    let perElement = 0;
    let perCharacter = 0;
    for (const key of Object.keys(value)) {
      // This package's own keywords are never taken from a schema.
      if (reservedKeywords.has(key)) continue;
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      this.key(key, tally);
      if (keywords2020.has(key)) this.saw2020 = true;
      if (keywordsOnly2020.has(key)) this.sawOnly2020 = true;
      if (keywordsOnly2019.has(key)) this.sawOnly2019 = true;
      if (assertions2019.has(key)) this.sawAssertion2019 = true;
      if (key === "items" && Array.isArray(v)) this.sawItemsList = true;
      if (key === "dependencies" || key === "dependentSchemas") this.presenceConditional = true;
      if (memberLoops.has(key)) perMember++;
      if (elementLoops.has(key)) perElement++;
      if (key === "minLength" || key === "maxLength") perCharacter = 1;
      if (key === "pattern" && typeof v === "string") {
        if (this.pattern(v)) setOwnProperty(copy, key, v);
        else setOwnProperty(copy, UNEVALUATED_PATTERN_KEYWORD, true);
        continue;
      }
      if (key === "patternProperties" && isPlainObject(v)) {
        const { map, refused, patterns } = this.patternProperties(v, codeDepth, nesting, tally);
        setOwnProperty(copy, key, map);
        if (refused) setOwnProperty(copy, UNEVALUATED_PATTERN_PROPERTIES_KEYWORD, true);
        // Each pattern is tested on every member, and additionalProperties tests them all again.
        perMember += patterns * 2;
        continue;
      }
      if (refKeywords.has(key) && typeof v === "string") this.refs.push(v);
      setOwnProperty(copy, key, this.member(key, v, codeDepth, nesting, tally));
    }
    this.ancestors.delete(value);
    fromDraft04Bounds(copy);
    if (Object.hasOwn(copy, "id")) this.ids.push(copy);
    const cost: EvaluationCost = [tally.fixed, perMember, perElement, perCharacter];
    setOwnProperty(copy, COST_KEYWORD, cost);
    return copy;
  }

  /**
   * One value read: `units` × `weight` for compiling it, and `units` for each
   * evaluation of the schema object it belongs to (`tally`, when evaluated).
   */
  private value(units: number, tally: Tally | undefined, weight = COMPILE_UNITS_PER_VALUE): void {
    this.charge(units * weight);
    if (tally !== undefined) tally.fixed += units;
  }

  private enter(value: object): void {
    if (this.ancestors.has(value)) throw INVALID; // cyclic: no JSON text has it
    this.ancestors.add(value);
  }

  private key(key: string, tally: Tally | undefined): void {
    this.value(1 + Math.floor(key.length / CHARACTERS_PER_UNIT), tally);
  }

  /** The copy of one keyword's value. */
  private member(
    key: string,
    v: unknown,
    codeDepth: number,
    nesting: number,
    tally: Tally,
  ): unknown {
    const inner = codeDepth + LEVEL;
    if (annotations.has(key))
      return this.data(v, nesting + 1, undefined, ANNOTATION_UNITS_PER_VALUE);
    if (dataValued.has(key) || dataMaps.has(key)) return this.data(v, nesting + 1, tally);
    if (Array.isArray(v) && schemaLists.has(key)) {
      const isUnion = unions.has(key);
      return this.list(v, nesting, tally, (item, i) => {
        if (!isUnion) return this.schema(item, inner, nesting + 2);
        this.charge(i * UNITS_PER_EARLIER_BRANCH);
        return this.schema(item, inner + i, nesting + 2);
      });
    }
    if (schemaValued.has(key)) return this.schema(v, inner, nesting + 1);
    if (schemaMaps.has(key) && isPlainObject(v)) {
      const depth = definitionMaps.has(key) ? 0 : inner;
      return this.map(v, nesting, tally, (item) =>
        // `dependencies` also maps names to lists of names (data).
        Array.isArray(item)
          ? this.data(item, nesting + 2, tally)
          : this.schema(item, depth, nesting + 2),
      );
    }
    if (typeof v === "object" && v !== null) {
      // An unknown keyword (or a known one with a value of the wrong shape,
      // left for the meta-schema): its objects may be `$ref`'d as schemas,
      // each compiled as a function of its own.
      return this.schema(v, 0, nesting + 1);
    }
    return this.data(v, nesting + 1, tally);
  }

  /** `patternProperties` without the patterns the engine refuses. */
  private patternProperties(
    v: object,
    codeDepth: number,
    nesting: number,
    tally: Tally,
  ): { map: Record<string, unknown>; refused: boolean; patterns: number } {
    let refused = false;
    let patterns = 0;
    const map = this.map(v, nesting, tally, (item, key) => {
      if (!this.pattern(key)) {
        refused = true;
        return undefined;
      }
      patterns++;
      return this.schema(item, codeDepth + LEVEL, nesting + 2);
    });
    return { map, refused, patterns };
  }

  /** Compiles a pattern with the linear-time engine (charging for it); false when refused. */
  private pattern(source: string): boolean {
    const compiled = compilePattern(re2Patterns, source);
    const size = 1 + Math.floor(source.length / CHARACTERS_PER_UNIT);
    if (isPatternRefusal(compiled)) {
      this.charge(size);
      return false;
    }
    this.charge(size + compiled.weight * UNITS_PER_PATTERN_WEIGHT);
    return true;
  }

  private map(
    v: object,
    nesting: number,
    tally: Tally | undefined,
    each: (item: unknown, key: string) => unknown,
    weight = COMPILE_UNITS_PER_VALUE,
    isData = false,
  ): Record<string, unknown> {
    if (nesting + 1 > MAX_NESTING) throw TOO_COMPLEX;
    this.enter(v);
    // Data (`const`, `enum`, `default`, …) keeps its prototype: no `$ref` may
    // point into it (pointsAtSchema), and ajv's meta-schema check compares
    // `enum` members with fast-deep-equal, which calls their `valueOf`.
    const copy = isData ? {} : emptyObject();
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined) continue;
      this.value(1 + Math.floor(key.length / CHARACTERS_PER_UNIT), tally, weight);
      const c = each(item, key);
      if (c !== undefined) setOwnProperty(copy, key, c);
    }
    this.ancestors.delete(v);
    return copy;
  }

  private list(
    v: readonly unknown[],
    nesting: number,
    tally: Tally | undefined,
    each: (item: unknown, index: number) => unknown,
    weight = COMPILE_UNITS_PER_VALUE,
  ): unknown[] {
    if (nesting + 1 > MAX_NESTING) throw TOO_COMPLEX;
    this.enter(v);
    const n = v.length;
    this.value(1, tally, weight);
    const copy: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) copy[i] = each(v[i], i);
    this.ancestors.delete(v);
    return copy;
  }

  /**
   * A plain copy of data (`const`, `enum`, …, or a keyword's primitive value),
   * charged to `tally` (one evaluation may compare against all of it) or, at a
   * schema position, to the schema alone.
   */
  private data(
    v: unknown,
    nesting: number,
    tally: Tally | undefined,
    weight = COMPILE_UNITS_PER_VALUE,
  ): unknown {
    if (nesting > MAX_NESTING) throw TOO_COMPLEX;
    if (typeof v !== "object" || v === null) {
      const units = 1 + (typeof v === "string" ? Math.floor(v.length / CHARACTERS_PER_UNIT) : 0);
      this.value(units, tally, weight);
      return v;
    }
    const each = (item: unknown) => this.data(item, nesting + 1, tally, weight);
    if (Array.isArray(v)) return this.list(v, nesting, tally, each, weight);
    return this.map(v, nesting, tally, each, weight, true);
  }
}

/**
 * Draft-04's boolean `exclusiveMaximum`/`exclusiveMinimum` (beside
 * `maximum`/`minimum`) as draft-06 and later write them: `true` makes the
 * bound exclusive, `false` changes nothing. A boolean means draft-04 in any
 * dialect (later ones take a number only); without its bound it is left for
 * the meta-schema (draft-04's requires the bound).
 */
function fromDraft04Bounds(copy: Record<string, unknown>): void {
  for (const [bound, exclusive] of draft04Bounds) {
    const flag = copy[exclusive];
    if (typeof flag !== "boolean" || !Object.hasOwn(copy, bound)) continue;
    if (flag) {
      setOwnProperty(copy, exclusive, copy[bound]);
      delete copy[bound];
    } else {
      delete copy[exclusive];
    }
  }
}
const draft04Bounds = [
  ["maximum", "exclusiveMaximum"],
  ["minimum", "exclusiveMinimum"],
] as const;

/**
 * Draft-04's `id` (ajv refuses the keyword outright): under draft-04 (or -03)
 * or no `$schema`, a string `id` is the schema's `$id` (where it has none), so
 * a `$ref` to it (Jackson's `urn:jsonschema:…`) resolves; under a later
 * dialect `id` is an unknown keyword, and dropped.
 */
function fromDraft04Ids(copies: readonly Record<string, unknown>[], root: unknown): void {
  const uri = isPlainObject(root) ? (root as { $schema?: unknown }).$schema : undefined;
  const draft04 = typeof uri !== "string" || uri.includes("draft-04") || uri.includes("draft-03");
  for (const copy of copies) {
    const id = copy.id;
    delete copy.id;
    if (draft04 && typeof id === "string" && !Object.hasOwn(copy, "$id")) {
      setOwnProperty(copy, "$id", id);
    }
  }
}

/**
 * An object of the copy ajv compiles: without a prototype, so that ajv, which
 * resolves a `$ref`'s JSON Pointer by plain member reads, finds only the
 * schema's own members (`#/toString` is dangling, not a function read as an
 * empty schema).
 */
function emptyObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

function isPlainObject(v: unknown): v is object {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * False when a `$ref`'s JSON Pointer fragment leads into a data keyword or
 * stops at a map of schemas: ajv would compile data as a schema there, which
 * carries no cost keyword. Below an unknown keyword (whose value is copied as
 * a schema) the pointer is checked as below any schema; anchors and other URIs
 * are left to ajv.
 */
export function pointsAtSchema(ref: string): boolean {
  const hash = ref.indexOf("#");
  // ajv looks a resolved URI up in plain objects: one that ends in a name
  // Object.prototype has (`toString`, `./__proto__`) would find its member.
  const uri = hash < 0 ? ref : ref.slice(0, hash);
  if (uri.slice(uri.lastIndexOf("/") + 1) in Object.prototype) return false;
  if (hash < 0) return true;
  const fragment = ref.slice(hash + 1);
  if (!fragment.startsWith("/")) return true;
  let state: "schema" | "map" | "list" | "items" = "schema";
  for (const raw of fragment.slice(1).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return true; // ajv cannot resolve it either: schema-invalid there
    }
    // A list's member is an index: another name (`#/allOf/toString`) is Array.prototype's.
    if (state === "list" && (segment === "" || digitsEnd(segment, 0) !== segment.length)) {
      return false;
    }
    if (state === "map" || state === "list") {
      state = "schema";
      continue;
    }
    if (state === "items") {
      state = "schema";
      if (segment !== "" && digitsEnd(segment, 0) === segment.length) continue;
    }
    if (dataValued.has(segment)) return false;
    if (schemaMaps.has(segment)) state = "map";
    else if (segment === "items") state = "items";
    else if (schemaLists.has(segment)) state = "list";
    // An unknown keyword's object or list is copied as a schema (or a list of
    // them), whose data keywords are data still: keep checking below it.
    else if (!schemaValued.has(segment)) state = "items";
  }
  return state === "schema" || state === "items";
}
