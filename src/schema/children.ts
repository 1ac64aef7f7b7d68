// The node of a member or element: per schema object, `properties` (own keys
// only), every matching `patternProperties`, else `additionalProperties`, else
// `unevaluatedProperties` (when no in-place subschema evaluated the key);
// `prefixItems[i]` then `items`, or draft-07 `items` array + `additionalItems`,
// or `items`, else `unevaluatedItems`. The child of a conjunction is the
// conjunction of the children; the child of a disjunction is the disjunction of
// the kept branches' children (a branch that says nothing of the key
// contributes "unknown").
import { type ArrayOkOp, keptForArray, keptForObject, type ObjectPredOp } from "./branch-filter.js";
import {
  arrayKeywordsOf,
  type Disj,
  type Doc,
  expansion,
  K_UNKNOWN,
  MAX_CHILD_MEMO,
  makeAll,
  makeAny,
  NodeBase,
  objectKeywordsOf,
  type SchNode,
  TOO_COMPLEX_NODE,
} from "./nodes.js";
import { DROPPED, FAILED, type Memo, Op, run, WORK_EXCEEDED, type Work } from "./work.js";

/** Marks a child that is nothing but a cut recursion; reads as unknown outside. */
export const CUT_NODE = new NodeBase(K_UNKNOWN, true, null);

/** Kept branches per disjunction for one object value; absent disjunctions use their static kept set. */
export type View = ReadonlyMap<Disj, readonly NodeBase[]>;

/**
 * The child node from the owns' children (`members`) and each disjunction's
 * kept branches. A branch whose child is a cut recursion contributes nothing;
 * when that is all there is, the result is the CUT_NODE marker (never
 * returned by the public calls).
 */
function childOf(
  doc: Doc,
  work: Work,
  op: Op<NodeBase, NodeBase>,
  disjs: readonly Disj[],
  members: NodeBase[],
  kept: (d: Disj) => readonly NodeBase[],
): NodeBase {
  let cut = false;
  for (const d of disjs) {
    const alts: NodeBase[] = [];
    for (const b of kept(d)) {
      const c = run(work, op, b);
      if (c !== DROPPED && c !== CUT_NODE) alts.push(c);
    }
    if (alts.length > 0) members.push(makeAny(doc, alts));
    else cut = true;
  }
  return members.length === 0 && cut ? CUT_NODE : makeAll(doc, members);
}

/** Tests `key` against a schema object's patterns; gives up (too complex) when the key is too long to test safely. */
function matchingPatterns(s: SchNode, key: string, out: NodeBase[] | undefined): boolean {
  let found = false;
  for (const p of objectKeywordsOf(s).patterns) {
    const m = p.pattern.test(key);
    if (m === undefined) throw WORK_EXCEEDED;
    if (m) {
      found = true;
      out?.push(p.node);
    }
  }
  return found;
}

/** True when a schema object's own properties/patternProperties/additionalProperties evaluate `key`. */
function ownEvaluates(s: SchNode, key: string): boolean {
  const k = objectKeywordsOf(s);
  if (k.properties !== undefined && Object.hasOwn(k.properties, key)) return true;
  return matchingPatterns(s, key, undefined) || k.additional !== undefined;
}

/** Op: does any in-place subschema of a node (kept branches only) evaluate member `key`? */
class EvaluatesKeyOp extends Op<NodeBase, boolean> {
  private readonly memo = new Map<NodeBase, Memo<boolean>>();
  constructor(
    private readonly key: string,
    private readonly kept: (d: Disj, w: Work) => readonly NodeBase[],
  ) {
    super();
  }
  get(n: NodeBase): Memo<boolean> | undefined {
    return this.memo.get(n);
  }
  set(n: NodeBase, m: Memo<boolean>): void {
    this.memo.set(n, m);
  }
  compute(n: NodeBase, work: Work): boolean {
    const exp = expansion(n, work);
    for (const s of exp.owns) if (ownEvaluates(s, this.key)) return true;
    for (const d of exp.disjs) {
      for (const b of this.kept(d, work)) if (run(work, this, b) === true) return true;
    }
    return false;
  }
}

/** Op: the node of member `key` of an object value at a node, under a view (null: the static one). */
export class ObjectChildOp extends Op<NodeBase, NodeBase> {
  private readonly local: Map<NodeBase, Memo<NodeBase>> | undefined;
  private evaluates: EvaluatesKeyOp | undefined;
  constructor(
    private readonly doc: Doc,
    private readonly key: string,
    private readonly view: View | null,
    private readonly objectOp: ObjectPredOp,
  ) {
    super();
    this.local = view === null ? undefined : new Map();
  }
  get(n: NodeBase): Memo<NodeBase> | undefined {
    if (this.local !== undefined) return this.local.get(n);
    const c = n.children?.get(this.key);
    return c === undefined ? undefined : c === TOO_COMPLEX_NODE ? FAILED : { value: c, notes: 0 };
  }
  set(n: NodeBase, m: Memo<NodeBase>): void {
    if (this.local !== undefined) this.local.set(n, m);
    else {
      n.children ??= new Map();
      if (n.children.size < MAX_CHILD_MEMO) {
        n.children.set(this.key, m === FAILED ? TOO_COMPLEX_NODE : m.value);
      }
    }
  }
  private kept = (d: Disj, w: Work): readonly NodeBase[] =>
    this.view?.get(d) ?? keptForObject(d, w, this.objectOp);

  compute(n: NodeBase, work: Work): NodeBase {
    const members: NodeBase[] = [];
    const exp = expansion(n, work);
    for (const s of exp.owns) this.ownChildren(s, members, work);
    return childOf(this.doc, work, this, exp.disjs, members, (d) => this.kept(d, work));
  }

  private ownChildren(s: SchNode, out: NodeBase[], work: Work): void {
    const k = objectKeywordsOf(s);
    let found = false;
    if (k.properties !== undefined && Object.hasOwn(k.properties, this.key)) {
      found = true;
      const c = s.doc!.nodeFor(k.properties[this.key], s.base);
      if (c !== undefined) out.push(c);
    }
    if (matchingPatterns(s, this.key, out)) found = true;
    if (found) return;
    if (k.additional !== undefined) out.push(k.additional);
    else if (k.unevaluated !== undefined) {
      this.evaluates ??= new EvaluatesKeyOp(this.key, this.kept);
      if (run(work, this.evaluates, s) !== true) out.push(k.unevaluated);
    }
  }
}

/** True when a schema object's own array keywords evaluate element `i`. */
function ownEvaluatesItem(s: SchNode, i: number): boolean {
  const k = arrayKeywordsOf(s);
  return (k.prefix !== undefined && i < k.prefix.length) || k.rest !== undefined;
}

/** Op: does any in-place subschema of a node evaluate element `i`? */
class EvaluatesItemOp extends Op<NodeBase, boolean> {
  private readonly memo = new Map<NodeBase, Memo<boolean>>();
  constructor(
    private readonly index: number,
    private readonly arrayOp: ArrayOkOp,
  ) {
    super();
  }
  get(n: NodeBase): Memo<boolean> | undefined {
    return this.memo.get(n);
  }
  set(n: NodeBase, m: Memo<boolean>): void {
    this.memo.set(n, m);
  }
  compute(n: NodeBase, work: Work): boolean {
    const exp = expansion(n, work);
    for (const s of exp.owns) if (ownEvaluatesItem(s, this.index)) return true;
    for (const d of exp.disjs) {
      for (const b of keptForArray(d, work, this.arrayOp))
        if (run(work, this, b) === true) return true;
    }
    return false;
  }
}

/** Op: the node of element `index` of an array value at a node (memoized on the node). */
export class ArrayChildOp extends Op<NodeBase, NodeBase> {
  private evaluates: EvaluatesItemOp | undefined;
  constructor(
    private readonly doc: Doc,
    private readonly index: number,
    private readonly arrayOp: ArrayOkOp,
  ) {
    super();
  }
  get(n: NodeBase): Memo<NodeBase> | undefined {
    const c = n.items?.get(this.index);
    return c === undefined ? undefined : c === TOO_COMPLEX_NODE ? FAILED : { value: c, notes: 0 };
  }
  set(n: NodeBase, m: Memo<NodeBase>): void {
    n.items ??= new Map();
    if (n.items.size < MAX_CHILD_MEMO)
      n.items.set(this.index, m === FAILED ? TOO_COMPLEX_NODE : m.value);
  }
  compute(n: NodeBase, work: Work): NodeBase {
    const members: NodeBase[] = [];
    const exp = expansion(n, work);
    for (const s of exp.owns) this.ownChildren(s, members, work);
    return childOf(this.doc, work, this, exp.disjs, members, (d) =>
      keptForArray(d, work, this.arrayOp),
    );
  }

  private ownChildren(s: SchNode, out: NodeBase[], work: Work): void {
    const k = arrayKeywordsOf(s);
    const i = this.index;
    if (k.prefix !== undefined && i < k.prefix.length) {
      const c = k.prefix[i];
      if (c !== undefined) out.push(c);
    } else if (k.rest !== undefined) {
      out.push(k.rest);
    } else if (k.unevaluated !== undefined) {
      this.evaluates ??= new EvaluatesItemOp(i, this.arrayOp);
      if (run(work, this.evaluates, s) !== true) out.push(k.unevaluated);
    }
  }
}
