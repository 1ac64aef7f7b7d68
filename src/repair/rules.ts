// The repairs that have exactly one reading, each tried only at a position
// where validation failed. A rule only proposes; the caller keeps a proposal
// only if the position passes afterwards.

import { isStructJsonError } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { escapePointerToken } from "../json-pointer.js";
import { isJsonNumberText, numberTextIsWhole } from "../struct/number-text.js";
import { parseJsonSpans } from "../struct/parse-json.js";
import type { Edit } from "./edits.js";
import type { JsonNode, ObjectNode } from "./json-tree.js";
import type { LocatedFailures, Position, Positions } from "./positions.js";
import type { Failure } from "./validator.js";

/** What a repair did; stable names, for logs. */
export type RepairKind =
  | "null-omitted"
  | "empty-array-omitted"
  | "string-to-number"
  | "string-to-boolean"
  | "string-to-object"
  | "string-to-array"
  | "integer-literal";

/** A proposed repair at one position. */
export interface Candidate {
  readonly path: JsonPointer;
  readonly kind: RepairKind;
  readonly edit: Edit;
}

/** A proposal of a repair round, with its position. */
export interface RoundCandidate extends Candidate {
  readonly at: Position;
}

/**
 * Proposes at most one repair per failing position, skipping positions in
 * `blocked` (tried before without success). `recursionLimit` bounds the
 * nesting a string's parsed JSON may add. Positions are looked up in
 * `positions` (where every failure's position was made), segment by segment
 * along the walk: never a pointer string as a key.
 */
export function findCandidates(
  root: JsonNode,
  failures: LocatedFailures,
  blocked: ReadonlySet<Position>,
  positions: Positions,
  recursionLimit: number,
): RoundCandidate[] {
  const out: RoundCandidate[] = [];
  // The whole tree is walked, as before positions were nodes (a walk that
  // deep data overflows still ends the call with recursion-limit); `at` is
  // undefined below where no failure is.
  const visit = (
    node: JsonNode,
    path: JsonPointer,
    at: Position | undefined,
    depth: number,
    parent?: ObjectNode,
    index = 0,
  ) => {
    if (node.kind === "object") {
      node.members.forEach((m, i) => {
        const segment = escapePointerToken(m.key);
        const below = at === undefined ? undefined : positions.child(at, segment);
        visit(m.value, `${path}/${segment}`, below, depth + 1, node, i);
      });
      if (node.members.length > 0) return;
    } else if (node.kind === "array" && node.items.length > 0) {
      node.items.forEach((item, i) => {
        const below = at === undefined ? undefined : positions.child(at, String(i));
        visit(item, `${path}/${i}`, below, depth + 1);
      });
      return;
    }
    const here = at === undefined ? undefined : failures.byPosition.get(at);
    if (at === undefined || here === undefined || blocked.has(at)) return;
    const c = candidateAt(node, path, here, depth, recursionLimit, parent, index);
    if (c !== undefined) out.push({ ...c, at });
  };
  visit(root, "", positions.find(""), 0);
  return out;
}

function candidateAt(
  node: JsonNode,
  path: JsonPointer,
  failures: readonly Failure[],
  depth: number,
  recursionLimit: number,
  parent: ObjectNode | undefined,
  index: number,
): Candidate | undefined {
  const decisive: Failure[] = [];
  for (const f of failures) {
    // anyOf/oneOf/if summarise their branches' failures, which are listed too.
    if (f.keyword === "anyOf" || f.keyword === "if") continue;
    if (f.keyword === "oneOf") {
      // Several branches fit: choosing one is exactly what must never happen.
      if (f.params.passingSchemas != null) return undefined;
      continue;
    }
    decisive.push(f);
  }
  if (decisive.length === 0) return undefined;
  switch (node.kind) {
    case "null":
      if (parent !== undefined && decisive.every((f) => excludes(f, "null"))) {
        return { path, kind: "null-omitted", edit: { type: "omit", object: parent, index } };
      }
      return undefined;
    case "array":
      if (parent !== undefined && decisive.every((f) => f.keyword === "minItems")) {
        return { path, kind: "empty-array-omitted", edit: { type: "omit", object: parent, index } };
      }
      return undefined;
    case "string": {
      if (!decisive.every((f) => excludes(f, "string"))) return undefined;
      const held = stringValueText(node.value, recursionLimit - depth);
      if (held === undefined) return undefined;
      if (held.kind === "string-to-number" && !admitsAsNumber(held.text, decisive))
        return undefined;
      return {
        path,
        kind: held.kind,
        edit: { type: "replace", start: node.start, end: node.end, text: held.text },
      };
    }
    default:
      return undefined;
  }
}

/**
 * False for a number text that float64 reads as whole though its digits are
 * not (`1e-400`, `9007199254740993.5`) where a failing schema may tell: ajv's
 * `integer`, `const` and `enum` would pass a number the text does not
 * denote, so there it has two readings. True where each failure is a `type`
 * admitting any number or a schema admitting no number at all.
 */
function admitsAsNumber(text: string, failures: readonly Failure[]): boolean {
  if (!Number.isInteger(Number(text)) || numberTextIsWhole(text)) return true;
  return failures.every(
    (f) => (f.keyword === "type" && typesOf(f)?.includes("number") === true) || excludesNumbers(f),
  );
}

/** True when failure `f` shows its schema admits no number at all. */
function excludesNumbers(f: Failure): boolean {
  const p = f.params;
  switch (f.keyword) {
    case "type": {
      const types = typesOf(f);
      return types !== undefined && !types.includes("number") && !types.includes("integer");
    }
    case "enum":
      return Array.isArray(p.allowedValues) && !p.allowedValues.some((v) => typeof v === "number");
    case "const":
      return typeof p.allowedValue !== "number";
    default:
      return false;
  }
}

/** The types a `type` failure names (ajv gives a list, or one name, or names joined by commas). */
function typesOf(f: Failure): readonly unknown[] | undefined {
  const t = f.params.type;
  return Array.isArray(t) ? t : typeof t === "string" ? t.split(",") : undefined;
}

/** The JSON types a rule asks a failure about, as JSON Schema's `type` names them. */
export type JsonKind = "null" | "string" | "object" | "array";

/** True when failure `f` shows its schema admits no value of JSON type `kind` here. */
export function excludes(f: Failure, kind: JsonKind): boolean {
  const p = f.params;
  switch (f.keyword) {
    case "type": {
      const types = typesOf(f);
      return types !== undefined && !types.includes(kind);
    }
    case "enum":
      return Array.isArray(p.allowedValues) && !p.allowedValues.some((v) => isKind(v, kind));
    case "const":
      return !isKind(p.allowedValue, kind);
    default:
      // Any other keyword (maxLength, pattern, not, false schema, ...) means
      // a schema that may admit this kind of value failed for another reason.
      return false;
  }
}

function isKind(v: unknown, kind: JsonKind): boolean {
  switch (kind) {
    case "null":
      return v === null;
    case "string":
      return typeof v === "string";
    case "array":
      return Array.isArray(v);
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
  }
}

// Text is scanned by index, never by a regex: linear in the string's length by construction.

function isJsonWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** `s` without JSON whitespace at either end. */
function trimJsonWhitespace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isJsonWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isJsonWhitespace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/**
 * The one JSON value a string holds, as text: a number (exactly a JSON number,
 * no whitespace: `"4 2"`, `"0x10"`, `""`, `"+1"` are not numbers), `true` or
 * `false`, or an object or array (a JSON text; surrounding whitespace allowed).
 * Undefined when it holds anything else, or JSON this package would reject
 * (duplicate keys, out-of-range numbers, too deep, a lone surrogate).
 */
export function stringValueText(
  s: string,
  depthLeft: number,
): { kind: RepairKind; text: string } | undefined {
  if (isJsonNumberText(s)) {
    return Number.isFinite(Number(s)) ? { kind: "string-to-number", text: s } : undefined;
  }
  if (s === "true" || s === "false") return { kind: "string-to-boolean", text: s };
  const t = trimJsonWhitespace(s);
  const first = t.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return undefined;
  try {
    // Strictly: the package's parser refuses what it would refuse as arguments.
    parseJsonSpans(t, depthLeft);
  } catch (e) {
    if (isStructJsonError(e)) return undefined;
    throw e;
  }
  return { kind: first === 0x7b ? "string-to-object" : "string-to-array", text: t };
}
