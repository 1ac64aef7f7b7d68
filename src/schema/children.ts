// The node of a member or element: per schema object, `properties` (own keys
// only), every matching `patternProperties`, else `additionalProperties`, else
// `unevaluatedProperties` (when no in-place subschema evaluated the key);
// `prefixItems[i]` then `items`, or draft-07 `items` array + `additionalItems`,
// or `items`, else `unevaluatedItems`. The child of a conjunction is the
// conjunction of the children; the child of a disjunction is the disjunction of
// the kept branches' children (a branch that says nothing of the key
// contributes "unknown").

import { compilePattern, isPatternRefusal } from "../patterns/engine.js";
import {
  type ArrayAdmitsOp,
  keptForArray,
  keptForObject,
  type ObjectPredicateOp,
} from "./branch-filter.js";
import type { JsonSchemaObject } from "./json-schema.js";
import { isRecord, ownKeyword } from "./keywords.js";
import {
  Disjunction,
  type Doc,
  expansion,
  K_FALSE,
  K_UNKNOWN,
  makeAll,
  makeAny,
  NodeBase,
  type SchemaObjectNode,
} from "./nodes.js";
import { DROPPED, Op, PATTERN_UNDECIDED, run, type Work } from "./work.js";

/** `properties`, `patternProperties`, `additionalProperties`, `unevaluatedProperties` of one schema object. */
export interface ObjectKeywords {
  /**
   * Its members are looked up by Object.hasOwn, non-enumerable ones too (the
   * schema cache compares a `properties` map's own names for that reason).
   */
  readonly properties: JsonSchemaObject | undefined;
  /** `patternProperties`: each pattern's source and its subschema's node (compiled only when a key needs it). */
  readonly patterns: readonly { readonly source: string; readonly node: NodeBase }[];
  readonly additional: NodeBase | undefined;
  readonly unevaluated: NodeBase | undefined;
}

/** The array keywords of one schema object. */
export interface ArrayKeywords {
  /** `prefixItems` (2020-12) or `items` as an array (draft-07). */
  readonly prefix: readonly (NodeBase | undefined)[] | undefined;
  /** `items` after `prefixItems`, `additionalItems` after an `items` array, or `items` alone. */
  readonly rest: NodeBase | undefined;
  readonly unevaluated: NodeBase | undefined;
}

// Read once per schema object, outside any call's budget (their size is the schema's).
const objectKeywordsMemo = new WeakMap<SchemaObjectNode, ObjectKeywords>();
const arrayKeywordsMemo = new WeakMap<SchemaObjectNode, ArrayKeywords>();

/** The object keywords of one schema object (memoized); patterns are compiled when a key is tested. */
export function objectKeywordsOf(s: SchemaObjectNode): ObjectKeywords {
  const known = objectKeywordsMemo.get(s);
  if (known !== undefined) return known;
  const doc = s.doc!;
  const props = ownKeyword(s.raw, "properties");
  const patterns: { source: string; node: NodeBase }[] = [];
  const pp = ownKeyword(s.raw, "patternProperties");
  if (isRecord(pp)) {
    for (const source of Object.keys(pp)) {
      const node = doc.nodeFor(pp[source], s.base);
      if (node !== undefined) patterns.push({ source, node });
    }
  }
  const found: ObjectKeywords = {
    properties: isRecord(props) ? props : undefined,
    patterns,
    additional: doc.nodeFor(ownKeyword(s.raw, "additionalProperties"), s.base),
    unevaluated: doc.nodeFor(ownKeyword(s.raw, "unevaluatedProperties"), s.base),
  };
  objectKeywordsMemo.set(s, found);
  return found;
}

/** The array keywords of one schema object (memoized). */
export function arrayKeywordsOf(s: SchemaObjectNode): ArrayKeywords {
  const known = arrayKeywordsMemo.get(s);
  if (known !== undefined) return known;
  const doc = s.doc!;
  const list = (v: unknown) =>
    // Read through the array's iterator, as every list of a schema is (the schema cache checks that one).
    Array.isArray(v) ? Array.from(v, (x) => doc.nodeFor(x, s.base)) : undefined;
  const prefixItems = list(ownKeyword(s.raw, "prefixItems"));
  const items = ownKeyword(s.raw, "items");
  let prefix: (NodeBase | undefined)[] | undefined;
  let rest: NodeBase | undefined;
  if (prefixItems !== undefined) {
    prefix = prefixItems;
    rest = doc.nodeFor(items, s.base);
  } else if (Array.isArray(items)) {
    prefix = list(items);
    rest = doc.nodeFor(ownKeyword(s.raw, "additionalItems"), s.base);
  } else {
    rest = doc.nodeFor(items, s.base);
  }
  const found: ArrayKeywords = {
    prefix,
    rest,
    unevaluated: doc.nodeFor(ownKeyword(s.raw, "unevaluatedItems"), s.base),
  };
  arrayKeywordsMemo.set(s, found);
  return found;
}

/** Marks a child that is nothing but a cut recursion; reads as unknown outside. */
export const CUT_NODE = new NodeBase(K_UNKNOWN, true, null);

/** Kept branches per disjunction for one object value; absent disjunctions use their static kept set. */
export type View = ReadonlyMap<Disjunction, readonly NodeBase[]>;

/**
 * The child node from the schema objects' children (`members`) and each
 * disjunction's (a frame of `op`, see {@link unionChild}). A disjunction whose
 * child is a cut recursion contributes nothing; when that is all there is,
 * the result is the CUT_NODE marker (never returned by the public calls).
 */
function childOf(
  doc: Doc,
  work: Work,
  op: Op<NodeBase | Disjunction, NodeBase>,
  disjunctions: readonly Disjunction[],
  members: NodeBase[],
): NodeBase {
  let cut = false;
  for (const d of disjunctions) {
    const c = run(work, op, d, false);
    if (c === DROPPED || c === CUT_NODE) cut = true;
    else members.push(c);
  }
  return members.length === 0 && cut ? CUT_NODE : makeAll(doc, members, work);
}

/**
 * The child of a disjunction: the disjunction of its kept branches'
 * children. A branch whose child is a cut recursion contributes nothing;
 * CUT_NODE when none contributes.
 */
function unionChild(
  doc: Doc,
  work: Work,
  op: Op<NodeBase | Disjunction, NodeBase>,
  kept: readonly NodeBase[],
): NodeBase {
  const alts: NodeBase[] = [];
  for (const b of kept) {
    const c = run(work, op, b);
    if (c !== DROPPED && c !== CUT_NODE) alts.push(c);
  }
  return alts.length > 0 ? makeAny(doc, alts, work) : CUT_NODE;
}

/**
 * Tests `key` against a schema object's patterns, pushing the matching
 * patterns' nodes to `out`; true when one matched. Each test is charged
 * (key length + 1) × the pattern's weight before it runs. A pattern that
 * cannot be evaluated (no engine, or refused) throws PATTERN_UNDECIDED unless
 * its answer cannot change the member's node: its subschema describes
 * nothing and `settled` (the key is evaluated anyway, or nothing else depends
 * on whether it is).
 */
function matchingPatterns(
  s: SchemaObjectNode,
  key: string,
  work: Work,
  out: NodeBase[] | undefined,
  settled: boolean,
): boolean {
  let found = false;
  for (const p of objectKeywordsOf(s).patterns) {
    const compiled =
      work.patterns === undefined ? undefined : compilePattern(work.patterns, p.source);
    if (compiled === undefined || isPatternRefusal(compiled)) {
      if (settled && p.node.isUnknown && p.node.kind !== K_FALSE) continue;
      throw PATTERN_UNDECIDED;
    }
    work.charge((key.length + 1) * compiled.weight);
    if (compiled.test(key)) {
      found = true;
      out?.push(p.node);
    }
  }
  return found;
}

/** True when a schema object's own properties/patternProperties/additionalProperties evaluate `key`. */
function ownEvaluates(s: SchemaObjectNode, key: string, work: Work): boolean {
  const k = objectKeywordsOf(s);
  if (k.properties !== undefined && Object.hasOwn(k.properties, key)) return true;
  if (k.additional !== undefined) return true;
  return matchingPatterns(s, key, work, undefined, false);
}

/** Op: does any in-place subschema of a node (kept branches only) evaluate member `key`? */
class EvaluatesKeyOp extends Op<NodeBase | Disjunction, boolean> {
  constructor(
    private readonly key: string,
    private readonly kept: (d: Disjunction, w: Work) => readonly NodeBase[],
  ) {
    super();
  }
  compute(n: NodeBase | Disjunction, work: Work): boolean {
    // One subschema that evaluates the key settles the answer, whatever another's pattern would
    // say: an unevaluated pattern makes it undecided only when none does, so the answer does not
    // depend on the order of the subschemas (allOf [A, B] as allOf [B, A]).
    let undecided = false;
    const evaluates = (test: () => boolean): boolean => {
      try {
        return test();
      } catch (e) {
        if (e !== PATTERN_UNDECIDED) throw e;
        undecided = true;
        return false;
      }
    };
    if (n instanceof Disjunction) {
      for (const b of this.kept(n, work))
        if (evaluates(() => run(work, this, b) === true)) return true;
    } else {
      const expanded = expansion(n, work);
      for (const s of expanded.schemaObjects)
        if (evaluates(() => ownEvaluates(s, this.key, work))) return true;
      for (const d of expanded.disjunctions)
        if (evaluates(() => run(work, this, d, false) === true)) return true;
    }
    if (undecided) throw PATTERN_UNDECIDED;
    return false;
  }
}

/** Op: the node of member `key` of an object value at a node (or a disjunction), under a view (null: the static one). */
export class ObjectChildOp extends Op<NodeBase | Disjunction, NodeBase> {
  private evaluates: EvaluatesKeyOp | undefined;
  constructor(
    private readonly doc: Doc,
    private readonly key: string,
    private readonly view: View | null,
    private readonly objectPredicates: ObjectPredicateOp,
  ) {
    super();
  }
  private kept = (d: Disjunction, w: Work): readonly NodeBase[] =>
    this.view?.get(d) ?? keptForObject(d, w, this.objectPredicates);

  compute(n: NodeBase | Disjunction, work: Work): NodeBase {
    if (n instanceof Disjunction) return unionChild(this.doc, work, this, this.kept(n, work));
    const members: NodeBase[] = [];
    const expanded = expansion(n, work);
    for (const s of expanded.schemaObjects) this.ownChildren(s, members, work);
    return childOf(this.doc, work, this, expanded.disjunctions, members);
  }

  private ownChildren(s: SchemaObjectNode, out: NodeBase[], work: Work): void {
    const k = objectKeywordsOf(s);
    let found = false;
    if (k.properties !== undefined && Object.hasOwn(k.properties, this.key)) {
      found = true;
      const c = s.doc!.nodeFor(k.properties[this.key], s.base);
      if (c !== undefined) out.push(c);
    }
    const settled = found || (k.additional === undefined && k.unevaluated === undefined);
    if (matchingPatterns(s, this.key, work, out, settled)) found = true;
    if (found) return;
    if (k.additional !== undefined) out.push(k.additional);
    else if (k.unevaluated !== undefined) {
      this.evaluates ??= new EvaluatesKeyOp(this.key, this.kept);
      if (run(work, this.evaluates, s) !== true) out.push(k.unevaluated);
    }
  }
}
/** True when a schema object's own array keywords evaluate element `i`. */
function ownEvaluatesItem(s: SchemaObjectNode, i: number): boolean {
  const k = arrayKeywordsOf(s);
  return (k.prefix !== undefined && i < k.prefix.length) || k.rest !== undefined;
}

/** Op: does any in-place subschema of a node (or a disjunction's kept branches) evaluate element `i`? */
class EvaluatesItemOp extends Op<NodeBase | Disjunction, boolean> {
  constructor(
    private readonly index: number,
    private readonly arrayAdmits: ArrayAdmitsOp,
  ) {
    super();
  }
  compute(n: NodeBase | Disjunction, work: Work): boolean {
    if (n instanceof Disjunction) {
      for (const b of keptForArray(n, work, this.arrayAdmits))
        if (run(work, this, b) === true) return true;
      return false;
    }
    const expanded = expansion(n, work);
    for (const s of expanded.schemaObjects) if (ownEvaluatesItem(s, this.index)) return true;
    for (const d of expanded.disjunctions) if (run(work, this, d, false) === true) return true;
    return false;
  }
}

/** Op: the node of element `index` of an array value at a node (or a disjunction). */
export class ArrayChildOp extends Op<NodeBase | Disjunction, NodeBase> {
  private evaluates: EvaluatesItemOp | undefined;
  constructor(
    private readonly doc: Doc,
    private readonly index: number,
    private readonly arrayAdmits: ArrayAdmitsOp,
  ) {
    super();
  }
  compute(n: NodeBase | Disjunction, work: Work): NodeBase {
    if (n instanceof Disjunction)
      return unionChild(this.doc, work, this, keptForArray(n, work, this.arrayAdmits));
    const members: NodeBase[] = [];
    const expanded = expansion(n, work);
    for (const s of expanded.schemaObjects) this.ownChildren(s, members, work);
    return childOf(this.doc, work, this, expanded.disjunctions, members);
  }

  private ownChildren(s: SchemaObjectNode, out: NodeBase[], work: Work): void {
    const k = arrayKeywordsOf(s);
    const i = this.index;
    if (k.prefix !== undefined && i < k.prefix.length) {
      const c = k.prefix[i];
      if (c !== undefined) out.push(c);
    } else if (k.rest !== undefined) {
      out.push(k.rest);
    } else if (k.unevaluated !== undefined) {
      this.evaluates ??= new EvaluatesItemOp(i, this.arrayAdmits);
      if (run(work, this.evaluates, s) !== true) out.push(k.unevaluated);
    }
  }
}
