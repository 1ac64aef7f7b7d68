// What repair adds to or replaces in ajv, one definition per keyword:
// - the cost keyword (in every schema object of the copy, ./prepare-schema.ts)
//   charges each evaluation to the call's budget;
// - the linear-time pattern engine behind `pattern`/`patternProperties`
//   (ajv's `code.regExp`), each test charged by the text's length;
// - the keywords standing for patterns the engine refused: they stop
//   validation where a text reaches them;
// - `const`, `enum` and `uniqueItems` with a JSON equality of our own: ajv's
//   (fast-deep-equal) calls a value's own `valueOf`/`toString` and compares
//   constructors, so arguments with a member named `valueOf` made it throw, and
//   prototype-free argument objects (see ./json-tree.ts) never equalled a
//   schema's. `uniqueItems` compares canonical texts in one pass (linear);
// - `multipleOf` dividing decimals exactly: ajv's float division rejected 0.3
//   for 0.1 and 1e308 for 1e-308, and accepted 1e21 for 7.

import type {
  Ajv,
  CodeKeywordDefinition,
  ErrorObject,
  FuncKeywordDefinition,
  KeywordDefinition,
  Options,
} from "ajv";
import { _ } from "ajv";
import type { JsonPointer } from "../json-pointer.js";
import { parsePointer, pointerAppend } from "../json-pointer.js";
import { compilePattern, isPatternRefusal } from "../patterns/engine.js";
import { re2Patterns } from "../patterns/re2.js";
import type { Budget } from "./budget.js";
import type { EvaluationCost } from "./prepare-schema.js";
import {
  COST_KEYWORD,
  UNEVALUATED_PATTERN_KEYWORD,
  UNEVALUATED_PATTERN_PROPERTIES_KEYWORD,
} from "./prepare-schema.js";

/** Thrown where a text reaches a pattern the engine refused: the position it was reached at. */
export class PatternUnevaluated extends Error {
  constructor(readonly path: JsonPointer) {
    super("pattern not evaluated");
  }
}

/** The budget of the call being validated (validation is synchronous; no two run at once). */
let activeBudget: Budget | undefined;

/** Runs `validate` with `budget` as the one the keywords below charge. */
export function withBudget<T>(budget: Budget, validate: () => T): T {
  activeBudget = budget;
  try {
    return validate();
  } finally {
    activeBudget = undefined;
  }
}

function spend(units: number): void {
  // Only ever called from inside a validation, which sets the budget first.
  activeBudget!.charge(units);
}

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

/**
 * `pattern` and `patternProperties` regexes come from untrusted servers: they
 * run in the linear-time engine (re2js; ./prepare-schema.ts replaced every
 * pattern the engine refuses), never in JavaScript's backtracking RegExp, and
 * each test is charged `(length + 1) × weight` units (weight: the pattern's
 * RE2 program size / 64, at least 1).
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (source: string) => {
    const compiled = compilePattern(re2Patterns, source);
    if (isPatternRefusal(compiled)) throw new Error("pattern refused by the linear-time engine");
    const weight = compiled.weight;
    return {
      test(text: string): boolean {
        spend((text.length + 1) * weight);
        return compiled.test(text);
      },
      // ajv shares one compiled pattern per distinct toString().
      toString: () => `/${source}/u`,
    };
  },
  { code: "linearRegExp" },
);

/** Charges one evaluation of a schema object (see {@link EvaluationCost}) for `data`. */
function chargeEvaluation(
  data: unknown,
  fixed: number,
  perMember: number,
  perElement: number,
  perCharacter: number,
): void {
  let units = fixed;
  if (typeof data === "object" && data !== null) {
    if (Array.isArray(data)) units += data.length * perElement;
    else if (perMember !== 0) units += Object.keys(data).length * perMember;
  } else if (typeof data === "string") {
    units += data.length * perCharacter;
  }
  spend(units);
}

// Inline code calling one shared function: a function per schema object would
// give ajv's code generator a distinct name each, and its name bookkeeping is
// quadratic in the number of names.
const costKeyword: CodeKeywordDefinition = {
  keyword: COST_KEYWORD,
  schemaType: "array",
  code(cxt) {
    const [fixed, perMember, perElement, perCharacter] = cxt.schema as EvaluationCost;
    const charge = cxt.gen.scopeValue("func", { ref: chargeEvaluation });
    cxt.gen.code(_`${charge}(${cxt.data}, ${fixed}, ${perMember}, ${perElement}, ${perCharacter})`);
  },
};

/** ajv's extra position information for a keyword function. */
interface DataContext {
  readonly instancePath: string;
  readonly rootData: unknown;
}

const unevaluatedPatternKeyword: FuncKeywordDefinition = {
  keyword: UNEVALUATED_PATTERN_KEYWORD,
  type: "string",
  errors: false,
  validate(_schema: unknown, data: string, _parent?: unknown, context?: DataContext): boolean {
    throw new PatternUnevaluated(positionOfText(data, context));
  },
};

const unevaluatedPatternPropertiesKeyword: FuncKeywordDefinition = {
  keyword: UNEVALUATED_PATTERN_PROPERTIES_KEYWORD,
  type: "object",
  errors: false,
  validate(
    _schema: unknown,
    data: Record<string, unknown>,
    _parent?: unknown,
    context?: DataContext,
  ): boolean {
    // Every member's key is tested against the patterns: reached at the first.
    for (const key of Object.keys(data)) {
      throw new PatternUnevaluated(pointerAppend(context?.instancePath ?? "", key));
    }
    return true;
  },
};

/**
 * Where a string tested by `pattern` sits: its own position, or, under
 * `propertyNames` (where ajv's position is the object's), the member's.
 */
function positionOfText(text: string, context: DataContext | undefined): JsonPointer {
  const path = context?.instancePath ?? "";
  let v: unknown = context?.rootData;
  for (const token of parsePointer(path) ?? []) {
    if (typeof v !== "object" || v === null) break;
    v = (v as Record<string, unknown>)[token];
  }
  return v === text ? path : pointerAppend(path, text);
}

/**
 * JSON equality: same type, same numbers (`0` and `-0` alike, as JSON reads
 * them), same strings, arrays element by element, objects by own enumerable
 * keys whatever their order. Never calls a method of either value.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  // Pairs still to compare, on a stack of our own: no recursion over depth.
  const pending: [unknown, unknown][] = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], y[i]]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(y, k)) return false;
      pending.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
    }
  }
  return true;
}

/** Code units of canonical text per unit charged. */
const CHARACTERS_PER_UNIT = 16;

/** A text equal for JSON-equal values (object keys sorted), unequal otherwise. */
function canonicalText(v: unknown): string {
  // Written with a stack of our own (no recursion over depth): each entry is a
  // value still to write, or a piece of punctuation to append.
  const parts: string[] = [];
  const todo: ({ text: string } | { value: unknown })[] = [{ value: v }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if ("text" in next) {
      parts.push(next.text);
      continue;
    }
    const x = next.value;
    if (typeof x !== "object" || x === null) {
      parts.push(JSON.stringify(x) ?? "undefined");
    } else if (Array.isArray(x)) {
      todo.push({ text: "]" });
      for (let i = x.length - 1; i >= 0; i--) {
        todo.push({ value: x[i] });
        if (i > 0) todo.push({ text: "," });
      }
      parts.push("[");
    } else {
      const keys = Object.keys(x).sort();
      todo.push({ text: "}" });
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        todo.push({ value: (x as Record<string, unknown>)[k] });
        todo.push({ text: `${i > 0 ? "," : ""}${JSON.stringify(k)}:` });
      }
      parts.push("{");
    }
  }
  return parts.join("");
}

/** Sets the one error a function keyword reports (ajv adds the position and schema path). */
function fail(validate: object, keyword: string, params: Record<string, unknown>): false {
  (validate as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword, params }];
  return false;
}

const constKeyword: FuncKeywordDefinition = {
  keyword: "const",
  validate: function constValid(schema: unknown, data: unknown): boolean {
    return jsonEqual(data, schema) || fail(constValid, "const", { allowedValue: schema });
  },
};

const enumKeyword: FuncKeywordDefinition = {
  keyword: "enum",
  schemaType: "array",
  validate: function enumValid(schema: readonly unknown[], data: unknown): boolean {
    for (const v of schema) if (jsonEqual(data, v)) return true;
    return fail(enumValid, "enum", { allowedValues: schema });
  },
};

/**
 * Past this length V8 hashes a string by its length alone, so a Map keyed by
 * long texts of one length compares each new key with every earlier one
 * (800 items of 17,000 characters took 0.8 s, quadratic in the count).
 */
const LONGEST_HASHED_TEXT = 16_383;

/**
 * The last item equal to an earlier one (i) and the latest such earlier item
 * (j), as ajv reports a `uniqueItems` failure; undefined when all differ.
 * Texts that V8 hashes are keyed in a Map (one pass); the longer ones, which
 * equal no shorter text, are sorted instead (stably, so equal texts stay in
 * index order): O(n log n) comparisons whatever their length.
 */
export function lastDuplicate(texts: readonly string[]): { i: number; j: number } | undefined {
  const lastSeen = new Map<string, number>();
  const long: number[] = [];
  let duplicate: { i: number; j: number } | undefined;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    if (text.length > LONGEST_HASHED_TEXT) {
      long.push(i);
      continue;
    }
    const j = lastSeen.get(text);
    if (j !== undefined) duplicate = { i, j };
    lastSeen.set(text, i);
  }
  long.sort((a, b) => {
    const x = texts[a] as string;
    const y = texts[b] as string;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  for (let k = 1; k < long.length; k++) {
    const i = long[k] as number;
    const j = long[k - 1] as number;
    if (texts[i] === texts[j] && (duplicate === undefined || i > duplicate.i)) duplicate = { i, j };
  }
  return duplicate;
}

const uniqueItemsKeyword: FuncKeywordDefinition = {
  keyword: "uniqueItems",
  type: "array",
  schemaType: "boolean",
  validate: function uniqueItemsValid(schema: boolean, data: readonly unknown[]): boolean {
    if (!schema) return true;
    const texts: string[] = [];
    for (const item of data) {
      const text = canonicalText(item);
      // Measured: building and hashing a canonical text costs a few
      // evaluations' worth, more for long ones.
      spend(4 + Math.floor(text.length / CHARACTERS_PER_UNIT));
      texts.push(text);
    }
    const duplicate = lastDuplicate(texts);
    return duplicate === undefined || fail(uniqueItemsValid, "uniqueItems", duplicate);
  },
};

/**
 * A float64 as the decimal `digits × 10^exponent` of its shortest form
 * (`String`: how a schema or an argument writes it; `0.1` is 1 × 10⁻¹).
 */
function decimalOf(v: number): { digits: bigint; exponent: number } {
  const s = String(Math.abs(v));
  const e = s.indexOf("e");
  const mantissa = e === -1 ? s : s.slice(0, e);
  let exponent = e === -1 ? 0 : Number(s.slice(e + 1));
  const dot = mantissa.indexOf(".");
  if (dot === -1) return { digits: BigInt(mantissa), exponent };
  exponent -= mantissa.length - dot - 1;
  return { digits: BigInt(mantissa.slice(0, dot) + mantissa.slice(dot + 1)), exponent };
}

/**
 * True when `value` is an integer multiple of `divisor` (> 0), both read as
 * their shortest decimals: exact where float division is not (0.3 / 0.1 is
 * 2.9999999999999996; 1e308 / 1e-308 overflows; 1e21 / 7 prints as a whole
 * number). At most 17 digits each and exponents within ±324: constant work.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (value === 0) return true;
  const a = decimalOf(value);
  const b = decimalOf(divisor);
  const shift = a.exponent - b.exponent;
  return shift >= 0
    ? (a.digits * 10n ** BigInt(shift)) % b.digits === 0n
    : a.digits % (b.digits * 10n ** BigInt(-shift)) === 0n;
}

const multipleOfKeyword: FuncKeywordDefinition = {
  keyword: "multipleOf",
  type: "number",
  schemaType: "number",
  validate: function multipleOfValid(schema: number, data: number): boolean {
    return (
      (schema > 0 && isMultipleOf(data, schema)) ||
      fail(multipleOfValid, "multipleOf", { multipleOf: schema })
    );
  },
};

/** The keywords repair adds to ajv (through its `keywords` option). */
export const addedKeywords: readonly KeywordDefinition[] = [
  costKeyword,
  unevaluatedPatternKeyword,
  unevaluatedPatternPropertiesKeyword,
];

/**
 * Replaces ajv's `const`, `enum`, `uniqueItems` and `multipleOf` with the
 * definitions above, each at its own place in ajv's keyword order (so errors
 * come in the same order as before).
 */
export function replaceKeywords(ajv: Ajv): void {
  // Last first: each is put back before the keyword that followed it.
  for (const definition of [multipleOfKeyword, uniqueItemsKeyword, enumKeyword, constKeyword]) {
    const keyword = definition.keyword as string;
    const group = ajv.RULES.rules.find((g) => g.rules.some((r) => r.keyword === keyword));
    const index = group?.rules.findIndex((r) => r.keyword === keyword) ?? -1;
    const next = index >= 0 ? group?.rules[index + 1]?.keyword : undefined;
    ajv.removeKeyword(keyword);
    ajv.addKeyword(next === undefined ? definition : { ...definition, before: next });
  }
}
