// The node of a member or element: per schema object, `properties` (own keys
// only), every matching `patternProperties`, else `additionalProperties`, else
// `unevaluatedProperties` (when no in-place subschema evaluated the key, an
// `unevaluated*` inside one evaluating every key left to it, and both with
// and without it when only some kept branches of a union did);
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

// Whether the in-place subschemas of a node evaluate a member or element, as
// bits: EVALUATED surely, NOT_EVALUATED surely not, both (3) only where some
// of a union's kept branches hold. JSON Schema takes annotations from the
// branches that hold, so a key one branch names and another does not is
// evaluated or not as the value decides: its child is then read both ways,
// with and without the `unevaluated*` schema (see {@link childOfNode}), so a
// number whose type the value decides reads ambiguous, never a guessed type.
const EVALUATED = 1;
const NOT_EVALUATED = 2;

/**
 * Whether a schema that applies to a member or element evaluates it: a
 * `false` one never does (where it applies, its schema object fails, and a
 * failing subschema's annotations do not count).
 */
function holds(n: NodeBase | undefined): boolean {
  return n !== undefined && n.kind !== K_FALSE;
}

/**
 * Op: do the in-place subschemas of a node (kept branches only) evaluate a
 * member or element (bits, see EVALUATED)? Its child op says for one schema
 * object (`ownEvaluates`) and which branches of a union are kept. Asked at
 * the schema object whose `unevaluated*` is in question (`top`), where that
 * object's own `unevaluated*` does not count; below it (another op: its memo
 * answers the other question) every `unevaluated*` does.
 */
class EvaluatesOp extends Op<NodeBase | Disjunction, number> {
  private readonly sub: EvaluatesOp;
  constructor(
    private readonly child: ChildOp,
    private readonly top = true,
  ) {
    super();
    this.sub = top ? new EvaluatesOp(child, false) : this;
  }
  compute(n: NodeBase | Disjunction, work: Work): number {
    const sub = this.sub;
    // One subschema that evaluates the key settles the answer, whatever another's pattern would
    // say: an unevaluated pattern makes it undecided only when none does, so the answer does not
    // depend on the order of the subschemas (allOf [A, B] as allOf [B, A]).
    let undecided = false;
    let bits = 0;
    /** Adds one part's answer (a cut recursion: not evaluated); true when it settles. */
    const add = (test: () => number | typeof DROPPED): boolean => {
      try {
        const r = test();
        bits |= r === DROPPED ? NOT_EVALUATED : r;
        return r === EVALUATED;
      } catch (e) {
        if (e !== PATTERN_UNDECIDED) throw e;
        undecided = true;
        bits |= EVALUATED | NOT_EVALUATED;
        return false;
      }
    };
    // A union's branch whose pattern could not be run may evaluate the key or not.
    if (n instanceof Disjunction)
      for (const b of this.child.kept(n, work)) add(() => run(work, sub, b));
    else {
      const expanded = expansion(n, work);
      for (const s of expanded.schemaObjects) {
        if (add(() => this.child.ownEvaluates(s, work, this.top && s === n))) return EVALUATED;
        // `if` evaluates what it evaluates only where it holds, which the value decides.
        const c = s.doc!.nodeFor(ownKeyword(s.raw, "if"), s.base);
        if (c !== undefined)
          add(() => {
            try {
              const r = run(work, sub, c);
              return r !== DROPPED && r & EVALUATED ? EVALUATED | NOT_EVALUATED : NOT_EVALUATED;
            } catch (e) {
              // A pattern of the `if` not run: "maybe" says all there is.
              if (e === PATTERN_UNDECIDED) return EVALUATED | NOT_EVALUATED;
              throw e;
            }
          });
      }
      for (const d of expanded.disjunctions)
        if (add(() => run(work, sub, d, false))) return EVALUATED;
    }
    if (undecided && !(n instanceof Disjunction)) throw PATTERN_UNDECIDED;
    return bits || NOT_EVALUATED;
  }
}

/** Op: the node of a member or element of a value at a node (or a disjunction). */
abstract class ChildOp extends Op<NodeBase | Disjunction, NodeBase> {
  private evaluates: EvaluatesOp | undefined;
  constructor(private readonly doc: Doc) {
    super();
  }

  /** The branches of `d` the value may take. */
  abstract kept(d: Disjunction, work: Work): readonly NodeBase[];

  /**
   * Adds the nodes a schema object's own keywords give the child to `out`,
   * and those that apply only where some branches hold to `maybe` (see
   * {@link childAt}).
   */
  abstract ownChildren(s: SchemaObjectNode, out: NodeBase[], maybe: NodeBase[], work: Work): void;

  /**
   * Whether a schema object's own keywords evaluate the child (see
   * EVALUATED); `self`: it is the object whose `unevaluated*` is in question.
   */
  abstract ownEvaluates(s: SchemaObjectNode, work: Work, self: boolean): number;

  compute(n: NodeBase | Disjunction, work: Work): NodeBase {
    return n instanceof Disjunction
      ? this.unionChild(work, this.kept(n, work))
      : this.childAt(n, work);
  }

  /**
   * The child of a disjunction: the disjunction of its kept branches'
   * children. A branch whose child is a cut recursion contributes nothing;
   * CUT_NODE when none contributes.
   */
  private unionChild(work: Work, kept: readonly NodeBase[]): NodeBase {
    const alts: NodeBase[] = [];
    for (const b of kept) {
      const c = run(work, this, b);
      if (c !== DROPPED && c !== CUT_NODE) alts.push(c);
    }
    return alts.length > 0 ? makeAny(this.doc, alts, work) : CUT_NODE;
  }

  /**
   * The child at a node that is not a disjunction: the conjunction of its
   * schema objects' own children (`ownChildren` adds them to `out`) and of
   * each disjunction's (a frame of this op, see {@link unionChild}). A
   * disjunction whose child is a cut recursion contributes nothing; when that
   * is all there is, the result is the CUT_NODE marker (never returned by the
   * public calls). The `unevaluated*` schemas that apply only where some
   * branches hold (added to `maybe`) give the child read both ways: with and
   * without them.
   */
  private childAt(n: NodeBase, work: Work): NodeBase {
    const doc = this.doc;
    const members: NodeBase[] = [];
    const maybe: NodeBase[] = [];
    const expanded = expansion(n, work);
    for (const s of expanded.schemaObjects) this.ownChildren(s, members, maybe, work);
    let cut = false;
    for (const d of expanded.disjunctions) {
      const c = run(work, this, d, false);
      if (c === DROPPED || c === CUT_NODE) cut = true;
      else members.push(c);
    }
    if (members.length === 0 && maybe.length === 0 && cut) return CUT_NODE;
    // Every subset of `maybe` may apply (each schema object's own branches
    // decide): distinct readings only, each charged, so the doubling stops at
    // the budget (schema-too-complex) even where the readings merge.
    const ways = new Set([makeAll(doc, members, work)]);
    for (const u of maybe) {
      work.charge(ways.size);
      for (const w of [...ways]) ways.add(makeAll(doc, [w, u], work));
    }
    return makeAny(doc, [...ways], work);
  }

  /**
   * Adds `unevaluated`, the `unevaluated*` schema of `s`, to `out` where the
   * in-place subschemas of `s` surely leave the child unevaluated, and to
   * `maybe` where only some kept branches evaluate it.
   */
  protected addUnevaluated(
    s: SchemaObjectNode,
    unevaluated: NodeBase,
    out: NodeBase[],
    maybe: NodeBase[],
    work: Work,
  ): void {
    this.evaluates ??= new EvaluatesOp(this);
    const e = run(work, this.evaluates, s);
    if (e !== EVALUATED) (e === 3 ? maybe : out).push(unevaluated);
  }
}

/** Op: the node of member `key` of an object value at a node (or a disjunction), under a view (null: the static one). */
export class ObjectChildOp extends ChildOp {
  constructor(
    doc: Doc,
    private readonly key: string,
    private readonly view: View | null,
    private readonly objectPredicates: ObjectPredicateOp,
  ) {
    super(doc);
  }

  kept(d: Disjunction, work: Work): readonly NodeBase[] {
    return this.view?.get(d) ?? keptForObject(d, work, this.objectPredicates);
  }

  ownChildren(s: SchemaObjectNode, out: NodeBase[], maybe: NodeBase[], work: Work): void {
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
    else if (k.unevaluated !== undefined) this.addUnevaluated(s, k.unevaluated, out, maybe, work);
  }

  /**
   * Its `properties`, `patternProperties`, `additionalProperties`, and (below
   * the object whose `unevaluatedProperties` is in question) its
   * `unevaluatedProperties`, which evaluates whatever is left.
   */
  ownEvaluates(s: SchemaObjectNode, work: Work, self: boolean): number {
    const k = objectKeywordsOf(s);
    return (k.properties !== undefined && Object.hasOwn(k.properties, this.key)) ||
      holds(k.additional) ||
      (!self && holds(k.unevaluated)) ||
      matchingPatterns(s, this.key, work, undefined, false)
      ? EVALUATED
      : NOT_EVALUATED;
  }
}

/** Op: the node of element `index` of an array value at a node (or a disjunction). */
export class ArrayChildOp extends ChildOp {
  constructor(
    doc: Doc,
    private readonly index: number,
    private readonly arrayAdmits: ArrayAdmitsOp,
  ) {
    super(doc);
  }

  kept(d: Disjunction, work: Work): readonly NodeBase[] {
    return keptForArray(d, work, this.arrayAdmits);
  }

  ownChildren(s: SchemaObjectNode, out: NodeBase[], maybe: NodeBase[], work: Work): void {
    const k = arrayKeywordsOf(s);
    const i = this.index;
    if (k.prefix !== undefined && i < k.prefix.length) {
      const c = k.prefix[i];
      if (c !== undefined) out.push(c);
    } else if (k.rest !== undefined) {
      out.push(k.rest);
    } else if (k.unevaluated !== undefined) {
      this.addUnevaluated(s, k.unevaluated, out, maybe, work);
    }
  }

  ownEvaluates(s: SchemaObjectNode, _work: Work, self: boolean): number {
    const k = arrayKeywordsOf(s);
    const i = this.index;
    if (
      (k.prefix !== undefined && i < k.prefix.length) ||
      holds(k.rest) ||
      (!self && holds(k.unevaluated))
    )
      return EVALUATED;
    // `contains` evaluates the elements it matches, which the value decides.
    const c = ownKeyword(s.raw, "contains");
    return c !== undefined && c !== false ? EVALUATED | NOT_EVALUATED : NOT_EVALUATED;
  }
}
