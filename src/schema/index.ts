// The schema reader: for each value position of a tool call's arguments, what
// the tool's JSON Schema says about the numbers there. The one walk (walk.ts)
// pairs a value with its schema and asks this module at each position; the
// Struct → JSON writer and walkNumbers are its visitors.
//
// Modules, from the keywords up:
// - vocabulary.ts: the keyword table (one definition per keyword) and every
//   keyword list derived from it; predicates.ts: branch checks as data.
// - nodes.ts: a position's node (a schema object, or a conjunction or
//   disjunction of nodes), its keywords read once, its in-place expansion.
// - branch-filter.ts: which branches an object or array value may match;
//   children.ts: the node of a member or element (the member/element rules).
// - readings.ts: a node's reading; object-info.ts: what an object or array
//   value needs before its members are read, and branch selection.
// - work.ts: recursion, cycle cuts and the budget of one computation;
//   reader.ts: one call's budget and the answers shared across calls;
//   walk.ts: the one walk that pairs a value with its schema (walkValue,
//   for the writer, inspectNumbers and walkNumbers). No module below
//   reader.ts knows the call, and
//   none of work.ts, reader.ts, walk.ts names a keyword.
//
// Reading rules (how a number position's reading is found)
// - One schema object's own keywords (conjoined; none of them → unknown):
//   `type` (string or array): "integer" without "number" → integer; "number"
//   without "integer" → number; both → ambiguous (number for a non-whole
//   value); neither → numbers not admitted ("none"). `const`/`enum`: all
//   numeric members whole → integer, some not → number, none numeric → none.
//   `multipleOf` a positive integer → integer. `true`/`{}` → unknown, `false` → none.
// - Conjunction (own keywords, each `allOf` item, `$ref`/`$dynamicRef`/
//   `$recursiveRef` targets beside their siblings): none wins, then integer,
//   then ambiguous, then number, then unknown.
// - Disjunction (`anyOf`, `oneOf`, a conditional's branches): none branches
//   are ignored; only integer → integer; only number → number; only unknown →
//   unknown; integer with number or unknown → ambiguous; number with unknown →
//   number; anything with ambiguous → ambiguous; all none → none. A non-whole
//   value never satisfies an integer branch: such branches are set aside first,
//   unless nothing admitting numbers would be left.
// - Conditionals: `if` chooses `then` when the value satisfies it and `else`
//   when not, an absent one being `true` (anything); a `dependentSchemas`/
//   `dependencies` schema applies to an object that has its key and to no
//   other value. At an object's position the `if`'s branch predicate (the
//   one below, by which anyOf/oneOf branches are set aside) decides: failing,
//   `else`; holding, `then` when the `if` has only `type`, `required` and
//   `properties` whose members are `true`, `false` or tags (`const`/`enum` of
//   strings, booleans, null, with a `type` admitting them; annotations
//   aside), which the predicate decides exactly; else both. Reading the
//   predicate costs at most CONDITION_BUDGET (1,000) units (past it: both).
//   At a number's or an array's position both branches are the disjunction.
// - "none" reads as unknown to the writer.
// - Before combining the branches of an `anyOf`/`oneOf` for an object value,
//   branches it cannot match are set aside: wrong JSON type, a `const`/`enum`
//   the object does not satisfy, a missing `required` member, a member whose
//   `const`/`enum` the object's member does not satisfy (discriminated unions,
//   also through the member schema's `$ref`/`allOf`/`anyOf`), an OpenAPI
//   `discriminator` naming another branch (mapping, else the last segment of
//   the branch's `$ref`); judged through the branch's `$ref`/`allOf`. If all
//   are set aside, all are used. Array values are judged by JSON type only;
//   numbers need no filter (wrong-type branches read "none" anyway).
// - Members: `properties` (own keys only), every matching `patternProperties`,
//   else `additionalProperties`, else `unevaluatedProperties` (when no in-place
//   subschema evaluated the key, an `unevaluatedProperties` inside one
//   evaluating every key left to it; when some kept branches of a union
//   evaluate it and others do not, both ways). Elements: `prefixItems[i]` then `items`;
//   draft-07 `items` array then `additionalItems`; `items`; else
//   `unevaluatedItems`. The members an `if` evaluates, and the elements a
//   `contains` matches, are evaluated only where it holds: both ways. A
//   `false` subschema evaluates nothing. `not` is ignored. The
//   member of a conjunction/disjunction is the conjunction/disjunction of the
//   members (a branch silent about the key contributes unknown).
// - `$ref`: `#`, JSON Pointers (`~0`, `~1`, %-escapes), `$anchor`,
//   `$dynamicAnchor`, draft-07 `$id: "#name"`, and `$id`-scoped resources
//   embedded in the document. `$dynamicRef` prefers the root resource's
//   matching `$dynamicAnchor`; `$recursiveRef` goes to the root when both set
//   `$recursiveAnchor`. Nothing is ever fetched: an unresolved ref reads as
//   unknown and notes `schema-ref-unresolved` at the position it applies to.
// - Recursion terminates: a node, or a disjunction, met again at the same
//   position contributes nothing; at most MAX_DEPTH (200) nested applicators
//   are followed. Each node and disjunction is computed once per question
//   (./work.ts), so a recursive union costs units linear in its branches.
// - Budget: one per call (a SchemaReader), CALL_BUDGET (20,000) units plus
//   POSITION_ALLOWANCE (64) per position read, charged for schema nodes
//   visited, branches tried, members composed, and pattern tests in proportion
//   to the key tested (see ./reader.ts and SECURITY.md). A question that does
//   not fit reads as unknown and notes `schema-too-complex` at its position.
//   A compiled schema shares only finished answers with their cost, so no
//   call's output depends on an earlier call.
// - `patternProperties` are tested only by an injected linear-time engine
//   (the `patterns` option, e.g. re2Patterns from "struct-json-bridge/re2";
//   never JavaScript's backtracking RegExp). Without one, or for a pattern
//   the engine refuses (lookaround, backreferences, see
//   ../patterns/translate.ts), a member whose node depends on the pattern
//   reads as unknown and notes `schema-pattern-unevaluated` at its position;
//   a pattern no member reaches (or whose answer changes nothing) is never
//   compiled and never noted.
// - Compiled once per schema object (WeakMap), lazily per position.

export {
  type CompiledSchema,
  compileSchema,
  isCompiledSchema,
  rootNode,
} from "./compile-schema.js";
export {
  CALL_BUDGET,
  POSITION_ALLOWANCE,
  SchemaReader,
  type SchemaReaderOptions,
} from "./reader.js";
export type {
  ArrayScope,
  NoteSink,
  NumberReading,
  ObjectProbe,
  ObjectScope,
  SchemaNode,
  SchemaNote,
} from "./types.js";
export {
  type NumberVisitor,
  type PathTree,
  pathTree,
  pathTreeBranch,
  type SchemaSource,
  type WalkNumbersOptions,
  type WalkOptions,
  type WalkVisitor,
  walkNumbers,
  walkValue,
} from "./walk.js";

import { UNKNOWN_NODE_IMPL } from "./nodes.js";
import { SchemaReader } from "./reader.js";
import type {
  ArrayScope,
  NoteSink,
  NumberReading,
  ObjectProbe,
  ObjectScope,
  SchemaNode,
} from "./types.js";

/** The node that describes nothing (no schema, `true`, `{}`, or a position the schema does not describe). */
export const UNKNOWN_NODE: SchemaNode = UNKNOWN_NODE_IMPL;

/**
 * One position's reading with a budget of its own and no pattern engine.
 * @deprecated Kept for callers not yet moved to {@link SchemaReader}, which shares one budget per call.
 */
export function numberReading(node: SchemaNode, value: number, note: NoteSink): NumberReading {
  return new SchemaReader().numberReading(node, value, note);
}

/**
 * One object's scope with a budget of its own and no pattern engine.
 * @deprecated Use {@link SchemaReader}.
 */
export function objectScope(node: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope {
  return new SchemaReader().objectScope(node, probe, note);
}

/**
 * One array's scope with a budget of its own and no pattern engine.
 * @deprecated Use {@link SchemaReader}.
 */
export function arrayScope(node: SchemaNode, length: number, note: NoteSink): ArrayScope {
  return new SchemaReader().arrayScope(node, length, note);
}
