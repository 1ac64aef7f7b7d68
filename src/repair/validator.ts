// Validation with ajv, compiled once per schema object from the copy
// ./prepare-schema.ts makes, and bounded by the call's budget: every schema
// evaluation and every pattern test is charged. Every failure is mapped to
// the position it is about, so that repairs can be limited to failing
// positions and issues can name them.

import type { ErrorObject, Options, ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isStackOverflow } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { pointerAppend } from "../json-pointer.js";
import type { Budget } from "./budget.js";
import { BudgetExceeded } from "./budget.js";
import {
  addedKeywords,
  linearRegExp,
  PatternUnevaluated,
  replaceKeywords,
  withBudget,
} from "./keywords.js";
import type { Draft, PreparedSchema } from "./prepare-schema.js";
import { prepareSchema } from "./prepare-schema.js";

/** One validation failure at one position; `params` are ajv's (from the schema, never a value). */
export interface Failure {
  /** The failing position; for `required` and the like, the missing or extra member's own path. */
  readonly path: JsonPointer;
  /** The failing keyword (ajv's name, e.g. "type", "required", "false schema"). */
  readonly keyword: string;
  /** ajv's params of the failure (`type`, `allowedValues`, `passingSchemas`, ...). */
  readonly params: Readonly<Record<string, unknown>>;
}

/** Validates a value, spending the call's budget; returns its failures, empty when the schema accepts it. */
export type Validator = (value: unknown, budget: Budget) => readonly Failure[];

/**
 * A schema ready to validate with, or the code it is refused with; `units`:
 * what every call through it is charged up front (reading, measuring and
 * compiling it; for a refusal, what was spent until it was refused).
 */
export type Compiled =
  | {
      readonly validate: Validator;
      readonly units: number;
      /** See {@link PreparedSchema.presenceConditional}. */
      readonly presenceConditional: boolean;
    }
  | { readonly refused: "schema-invalid" | "schema-too-complex"; readonly units: number };

interface CacheEntry {
  /** The budget the schema was read under; a `schema-too-complex` read holds for budgets up to it. */
  readonly limit: number;
  readonly compiled: Compiled;
}

// Per schema object: its copy's compiled validator (or refusal), and what the
// copy costs each call. Nothing here depends on a call: a call charges the
// schema's units whether or not it was compiled by an earlier one, so its
// outcome is the same on a fresh schema.
const cache = new WeakMap<object, CacheEntry>();
const booleanCache = new Map<boolean, CacheEntry>();

/**
 * The validator of `schema` for a call that may spend `limit` units,
 * compiled on first use and cached per schema object; or why it is refused:
 * `schema-invalid` when ajv cannot compile it (invalid against its
 * meta-schema, an unresolvable or remote `$ref`, `$async`, a cyclic object,
 * ...), `schema-too-complex` when its size or nesting cannot fit `limit` or
 * the stack. Nothing is ever fetched: no `loadSchema` is given.
 */
export function validatorFor(schema: unknown, limit: number): Compiled {
  const isBoolean = typeof schema === "boolean";
  if (!isBoolean && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
    return { refused: "schema-invalid", units: 0 };
  }
  const entry = isBoolean ? booleanCache.get(schema) : cache.get(schema as object);
  if (entry !== undefined && !(isTooComplex(entry.compiled) && entry.limit < limit)) {
    return entry.compiled;
  }
  const compiled = prepareAndCompile(schema, limit);
  const fresh: CacheEntry = { limit, compiled };
  if (isBoolean) booleanCache.set(schema, fresh);
  else cache.set(schema as object, fresh);
  return compiled;
}

function isTooComplex(c: Compiled): boolean {
  return "refused" in c && c.refused === "schema-too-complex";
}

function prepareAndCompile(schema: object | boolean, limit: number): Compiled {
  const prepared = prepareSchema(schema, limit);
  if ("refused" in prepared) return prepared;
  const copy =
    typeof prepared.schema === "boolean" ? prepared.schema : withoutDialect(prepared.schema);
  const compiled = compile(copy, prepared.draft);
  if (typeof compiled === "string") return { refused: compiled, units: prepared.units };
  return {
    validate: compiled,
    units: prepared.units,
    presenceConditional: prepared.presenceConditional,
  };
}

const compileOptions: Options = {
  strict: false,
  allErrors: true,
  logger: false,
  // `format` is an annotation here: no format vocabulary is loaded.
  validateFormats: false,
  code: { regExp: linearRegExp, process: appendErrorsInPlace },
  // Each `$ref` target is compiled once as a function of its own: inlining
  // can copy a definition once per reference (generated code quadratic in
  // the schema).
  inlineRefs: false,
  // Meta-validation is done once per dialect by a shared instance below.
  validateSchema: false,
  meta: false,
  keywords: [...addedKeywords],
};

/**
 * ajv's generated code adds the errors of a `$ref`'d function or of a
 * function keyword (`const`, `enum`, `multipleOf`, `uniqueItems`: ./keywords.ts)
 * by `vErrors = vErrors === null ? f.errors : vErrors.concat(f.errors)`,
 * which copies every error so far at each failure: arguments failing at n
 * positions took time quadratic in n (80,000 array items failing `const`:
 * 19 s; the budget counts evaluations, which stay linear). Rewritten to
 * append in place, as ajv's own keywords do; `f.errors` is a list made by
 * that one call of `f` and read by no one else, so it can be taken over.
 * (test/repair-hostile.test.ts counts the elements `concat` copies in such
 * calls, so an ajv that writes this code differently fails there.)
 *
 * Schema text reaches the code only inside JSON string literals, which may
 * spell anything, this statement included: the scan steps over each literal
 * whole and rewrites code only. With `code.process` set, ajv also starts each
 * function with `/*# sourceURL=<its schema's $id> *\/`, the `$id` written as
 * JSON text but with `*\/` left as it is: an untrusted `$id` would end the
 * comment and run as code. So a function whose schema's `$id` is not a string
 * (written as an object's or a list's JSON text, whose end the scan cannot
 * find) is refused (schema-invalid, by the throw), a string one's comment is
 * removed, and any other comment in the code fails the compile: closed, not
 * open, should ajv write more of them.
 */
const CODE_SCAN =
  /"(?:[^"\\]|\\.)*"|\/\*# sourceURL="(?:[^"\\]|\\.)*" \*\/|\/\*|vErrors = vErrors === null \? ([\w$.]+\.errors) : vErrors\.concat\(\1\);/g;

function appendErrorsInPlace(code: string, env?: { readonly schema?: unknown }): string {
  const schema = env?.schema;
  const id =
    typeof schema === "object" && schema !== null ? (schema as { $id?: unknown }).$id : undefined;
  if (id !== undefined && typeof id !== "string") throw new Error("an $id that is not a string");
  return code.replace(CODE_SCAN, (token: string, errors: string | undefined) => {
    if (errors !== undefined)
      return `if(vErrors === null){vErrors = ${errors};}else{const e$ = ${errors};for(let i$ = 0; i$ < e$.length; i$++)vErrors.push(e$[i$]);}`;
    if (token.charCodeAt(0) === 34) return token;
    if (token.length > 2) return "";
    throw new Error("a comment in the generated code");
  });
}

const metaOptions: Options = {
  strict: false,
  logger: false,
  addUsedSchema: false,
  validateFormats: false,
};
const metaValidators = new Map<Draft, Ajv>();

function metaValidator(draft: Draft): Ajv {
  let m = metaValidators.get(draft);
  if (m === undefined) {
    m = ajvFor(draft, metaOptions);
    metaValidators.set(draft, m);
  }
  return m;
}

/** An ajv instance for `draft` (Ajv2019 and Ajv2020 extend the draft-07 class). */
function ajvFor(draft: Draft, options: Options): Ajv {
  switch (draft) {
    case "2020-12":
      return new Ajv2020(options);
    case "2019-09":
      return new Ajv2019(options);
    default:
      return new Ajv(options);
  }
}

/** The validator, or the refusal's code. */
function compile(
  schema: boolean | object,
  draft: Draft,
): Validator | "schema-invalid" | "schema-too-complex" {
  try {
    if (typeof schema !== "boolean" && metaValidator(draft).validateSchema(schema) !== true) {
      return "schema-invalid";
    }
    // A fresh instance per schema: ajv registers every `$id` it meets in its
    // instance, so a shared one would let one tool's schema shadow (or, with
    // the same `$id`, break) another's. The instance lives as long as the
    // compiled function, which the WeakMap above ties to the schema object.
    const ajv = ajvFor(draft, compileOptions);
    replaceKeywords(ajv);
    const fn = ajv.compile(schema);
    if ((fn as { $async?: unknown }).$async === true) return "schema-invalid";
    return wrap(fn);
  } catch (e) {
    // ajv's compiler and V8's parser recurse on the generated code's nesting.
    return isStackOverflow(e) ? "schema-too-complex" : "schema-invalid";
  }
}

function wrap(fn: ValidateFunction): Validator {
  return (value, budget) => {
    let ok: boolean;
    try {
      ok = withBudget(budget, () => fn(value) === true);
    } catch (e) {
      return [{ path: thrownPath(e), keyword: thrownKeyword(e, value), params: {} }];
    }
    if (ok) return [];
    const errors = fn.errors ?? [];
    // ajv builds each failure's path by concatenation, which V8 copies whole
    // the first time it is read: 20,000 failing items under one 200,000-
    // character key meant 4·10⁹ characters copied (minutes). Charged before
    // any is read (a length costs nothing): 1 unit per 1,024 characters of path.
    let units = 0;
    for (const e of errors) units += Math.floor(e.instancePath.length / PATH_CHARACTERS_PER_UNIT);
    if (units > 0 && !budget.tryCharge(units)) {
      return [{ path: "", keyword: "schema-too-complex", params: {} }];
    }
    return errors.map(toFailure);
  };
}

/** Characters of a failure's path that cost one unit to read (see the unit table in docs/repair.md). */
const PATH_CHARACTERS_PER_UNIT = 1024;

function thrownPath(e: unknown): JsonPointer {
  return e instanceof PatternUnevaluated ? e.path : "";
}

function thrownKeyword(e: unknown, value: unknown): string {
  if (e instanceof PatternUnevaluated) return "schema-pattern-unevaluated";
  if (e instanceof BudgetExceeded) return "schema-too-complex";
  // A stack overflow: deep arguments under a recursive schema (past the
  // default limit, which a caller may raise), or a schema whose evaluation
  // nests too deeply for the stack.
  if (isStackOverflow(e)) {
    return nestingOf(value) > DEFAULT_RECURSION_LIMIT ? "recursion-limit" : "schema-too-complex";
  }
  return "schema-invalid";
}

/** The default `recursionLimit` of repair: arguments within it never overflow the stack by their own depth. */
const DEFAULT_RECURSION_LIMIT = 100;

/** The nesting depth of a validation value (objects and arrays), without recursion. */
function nestingOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) max = depth + 1;
    for (const k in v) stack.push([(v as Record<string, unknown>)[k], depth + 1]);
  }
  return max;
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

/**
 * The schema without its root `$schema`: ajv would otherwise look the URI up
 * and fail on any it does not bundle. The copy is this call's own
 * (./prepare-schema.ts), so the member is dropped in place: a new object
 * would bring back the prototype the copy is made without.
 */
function withoutDialect(schema: object): object {
  delete (schema as Record<string, unknown>).$schema;
  return schema;
}
