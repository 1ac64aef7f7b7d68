// Validation with ajv, compiled once per schema object. Every failure is
// mapped to the position it is about, so that repairs can be limited to
// failing positions and issues can name them.

import type { ErrorObject, Options, ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonPointer } from "../json-pointer.js";
import { pointerAppend } from "../json-pointer.js";
import { compileSafePattern } from "../schema/safe-regex.js";

/** The JSON Schema dialects validated; others are read as the closer of the two. */
export type Draft = "draft-07" | "2020-12";

/** One validation failure at one position; `params` are ajv's (from the schema, never a value). */
export interface Failure {
  /** The failing position; for `required` and the like, the missing or extra member's own path. */
  readonly path: JsonPointer;
  /** The failing keyword (ajv's name, e.g. "type", "required", "false schema"). */
  readonly keyword: string;
  /** ajv's params of the failure (`type`, `allowedValues`, `passingSchemas`, ...). */
  readonly params: Readonly<Record<string, unknown>>;
}

/** Validates a value; returns its failures, empty when the schema accepts it. */
export type Validator = (value: unknown) => readonly Failure[];

// Compiled validators per schema object; null marks a schema ajv cannot compile.
const cache = new WeakMap<object, Validator | null>();
const booleanCache = new Map<boolean, Validator | null>();

/**
 * The validator of `schema`, compiled on first use and cached per schema
 * object; undefined when ajv cannot compile it (invalid against its
 * meta-schema, an unresolvable or remote `$ref`, an invalid regex, `$async`,
 * a cyclic object, ...). Nothing is ever fetched: no `loadSchema` is given.
 */
export function validatorFor(schema: unknown): Validator | undefined {
  if (typeof schema === "boolean") {
    let v = booleanCache.get(schema);
    if (v === undefined) {
      v = compile(schema, "draft-07");
      booleanCache.set(schema, v);
    }
    return v ?? undefined;
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
  let v = cache.get(schema);
  if (v === undefined) {
    try {
      v = compile(withoutDialect(schema), detectDraft(schema));
    } catch {
      v = null;
    }
    cache.set(schema, v);
  }
  return v ?? undefined;
}

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

// Thrown by a pattern asked to test a string too long to test safely.
class PatternInputTooLong extends Error {}

/**
 * `pattern` and `patternProperties` regexes come from untrusted servers and
 * JavaScript's engine cannot be interrupted, so they run under the schema
 * reader's safe-regex policy: a pattern that can backtrack catastrophically
 * makes the schema uncompilable (`schema-invalid`), and a string too long for
 * a pattern's bound makes validation stop with `schema-too-complex`, rather
 * than hang or guess.
 */
const safeRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    const safe = compileSafePattern(pattern);
    if (safe === undefined) throw new Error("pattern rejected by the safe-regex policy");
    return {
      test(s: string): boolean {
        const r = safe.test(s);
        if (r === undefined) throw new PatternInputTooLong();
        return r;
      },
    };
  },
  { code: "safeRegExp" },
);

const compileOptions: Options = {
  strict: false,
  allErrors: true,
  logger: false,
  // `format` is an annotation here: no format vocabulary is loaded.
  validateFormats: false,
  code: { regExp: safeRegExp },
  // Meta-validation is done once per dialect by a shared instance below.
  validateSchema: false,
  meta: false,
};

const metaOptions: Options = { strict: false, logger: false, addUsedSchema: false };
const metaValidators = new Map<Draft, Ajv | Ajv2020>();

function metaValidator(draft: Draft): Ajv | Ajv2020 {
  let m = metaValidators.get(draft);
  if (m === undefined) {
    m = draft === "2020-12" ? new Ajv2020(metaOptions) : new Ajv(metaOptions);
    metaValidators.set(draft, m);
  }
  return m;
}

function compile(schema: boolean | object, draft: Draft): Validator | null {
  try {
    if (typeof schema !== "boolean" && metaValidator(draft).validateSchema(schema) !== true) {
      return null;
    }
    // A fresh instance per schema: ajv registers every `$id` it meets in its
    // instance, so a shared one would let one tool's schema shadow (or, with
    // the same `$id`, break) another's. The instance lives as long as the
    // compiled function, which the WeakMap above ties to the schema object.
    const ajv = draft === "2020-12" ? new Ajv2020(compileOptions) : new Ajv(compileOptions);
    const fn = ajv.compile(schema);
    if ((fn as { $async?: unknown }).$async === true) return null;
    return wrap(fn);
  } catch {
    return null;
  }
}

function wrap(fn: ValidateFunction): Validator {
  return (value) => {
    let ok: boolean;
    try {
      ok = fn(value) === true;
    } catch (e) {
      // A recursive schema over deep data may exhaust the stack.
      const keyword =
        e instanceof RangeError
          ? "recursion-limit"
          : e instanceof PatternInputTooLong
            ? "schema-too-complex"
            : "schema-invalid";
      return [{ path: "", keyword, params: {} }];
    }
    if (ok) return [];
    return (fn.errors ?? []).map(toFailure);
  };
}

function toFailure(e: ErrorObject): Failure {
  const params = (e.params ?? {}) as Record<string, unknown>;
  let path: JsonPointer = e.instancePath;
  let member: unknown;
  switch (e.keyword) {
    case "required":
    case "dependentRequired":
    case "dependencies":
      member = params.missingProperty;
      break;
    case "additionalProperties":
      member = params.additionalProperty;
      break;
    case "unevaluatedProperties":
      member = params.unevaluatedProperty;
      break;
    case "propertyNames":
      member = params.propertyName;
      break;
    default:
      member = (e as { propertyName?: unknown }).propertyName;
  }
  if (typeof member === "string") path = pointerAppend(path, member);
  return { path, keyword: e.keyword, params };
}

/** The schema without its root `$schema`: ajv would otherwise look the URI up and fail on any it does not bundle. */
function withoutDialect(schema: object): object {
  if (!Object.hasOwn(schema, "$schema")) return schema;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  return rest;
}

// Keywords that exist only in 2019-09/2020-12.
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

// Keywords whose value maps names to schemas (its keys are not keywords), and
// keywords whose value is data (not searched).
const schemaMaps = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);
const dataKeywords = new Set(["const", "enum", "default", "examples"]);

/** Upper bound on schema objects inspected when detecting the dialect. */
const detectBudget = 10_000;

/**
 * The dialect: from `$schema` when it names draft-04/06/07 or 2019-09/2020-12;
 * otherwise draft-07 when `items` is an array somewhere (invalid in 2020-12),
 * else 2020-12 when a 2020-only keyword is used (`$defs`, `prefixItems`, ...),
 * else draft-07.
 */
export function detectDraft(schema: object): Draft {
  const uri = (schema as { $schema?: unknown }).$schema;
  if (typeof uri === "string") {
    if (uri.includes("2020-12") || uri.includes("2019-09")) return "2020-12";
    if (/draft-0[4-7]/.test(uri)) return "draft-07";
  }
  let saw2020 = false;
  const seen = new Set<object>();
  const stack: { node: unknown; map: boolean }[] = [{ node: schema, map: false }];
  let budget = detectBudget;
  while (stack.length > 0 && budget-- > 0) {
    const { node, map } = stack.pop()!;
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) stack.push({ node: v, map: false });
      continue;
    }
    for (const [k, v] of Object.entries(node)) {
      if (map) {
        stack.push({ node: v, map: false });
        continue;
      }
      if (k === "items" && Array.isArray(v)) return "draft-07";
      if (keywords2020.has(k)) saw2020 = true;
      if (dataKeywords.has(k)) continue;
      stack.push({ node: v, map: schemaMaps.has(k) });
    }
  }
  return saw2020 ? "2020-12" : "draft-07";
}
