// The writer-facing calls: numberReading, objectScope, arrayScope. Each call is
// one budgeted unit of work whose result is memoized on the node, so the hot
// path (a node already read) is a field lookup and allocates nothing.
import {
  ArrayOkOp,
  branchPredsOf,
  evalObject,
  keptForArray,
  keptForObject,
  ObjectPredOp,
  type Pred,
  ValuePredOp,
} from "./branch-filter.js";
import { ArrayChildOp, CUT_NODE, ObjectChildOp, type View } from "./children.js";
import {
  arrayKeywordsOf,
  conjunctsOf,
  type Disj,
  disjunctionsOf,
  expansion,
  K_COMPLEX,
  K_FALSE,
  K_UNKNOWN,
  MAX_CHILD_MEMO,
  NodeBase,
  objectKeywordsOf,
  SchNode,
  TOO_COMPLEX_NODE,
  typesOf,
  UNKNOWN_NODE_IMPL,
} from "./nodes.js";
import {
  conj,
  disjunction,
  ownReading,
  PUBLIC_READING,
  R_DROP,
  R_NONE,
  R_UNKNOWN,
  type Reading,
  readingBit,
} from "./number-reading.js";
import type {
  ArrayScope,
  NoteSink,
  NumberReading,
  ObjectProbe,
  ObjectScope,
  SchemaNode,
} from "./types.js";
import {
  DROPPED,
  FAILED,
  isWorkExceeded,
  type Memo,
  NOTE_COMPLEX,
  NOTE_UNRESOLVED,
  Op,
  run,
  sharedMemo,
  Work,
} from "./work.js";

/** Most value-dependent scopes kept per node (one per distinct set of kept branches). */
const MAX_SCOPES = 256;

function emitNotes(bits: number, note: NoteSink): void {
  if ((bits & NOTE_UNRESOLVED) !== 0) note("schema-ref-unresolved");
  if ((bits & NOTE_COMPLEX) !== 0) note("schema-too-complex");
}

/** Op: the number reading of a node, for a whole or a non-whole value. */
class ReadOp extends Op<NodeBase, Reading> {
  constructor(private readonly whole: boolean) {
    super();
  }
  get(n: NodeBase): Memo<Reading> | undefined {
    return this.whole ? n.readWhole : n.readFraction;
  }
  set(n: NodeBase, m: Memo<Reading>): void {
    const shared = m === FAILED ? m : sharedMemo(m.value, m.notes);
    if (this.whole) n.readWhole = shared;
    else n.readFraction = shared;
  }
  /** The reading of a leaf branch, memoized like any other. */
  leaf(n: SchNode, work: Work): Reading {
    const m = this.get(n);
    if (m !== undefined && m !== FAILED) return m.value;
    work.charge();
    const r = ownReading(n.raw, typesOf(n), this.whole);
    const v = r === R_DROP ? R_UNKNOWN : r;
    this.set(n, sharedMemo(v, 0));
    return v;
  }
  compute(n: NodeBase, work: Work): Reading {
    if (n.kind === K_UNKNOWN) return R_UNKNOWN;
    if (n.kind === K_FALSE) return R_NONE;
    if (n.kind === K_COMPLEX) {
      work.notes |= NOTE_COMPLEX;
      return R_UNKNOWN;
    }
    const exp = expansion(n, work);
    work.notes |= exp.notes;
    let r: Reading = exp.hasFalse ? R_NONE : R_DROP;
    if ((exp.notes & NOTE_UNRESOLVED) !== 0) r = conj(r, R_UNKNOWN);
    for (const s of exp.owns) r = conj(r, ownReading(s.raw, typesOf(s), this.whole));
    let cut = false;
    for (const d of exp.disjs) {
      let mask = 0;
      for (const b of d.branches) {
        const x = isLeaf(b) ? this.leaf(b, work) : run(work, this, b);
        if (x !== DROPPED) mask |= readingBit(x);
      }
      const x = disjunction(mask, this.whole);
      if (x === R_DROP) cut = true;
      r = conj(r, x);
    }
    // Nothing said about numbers: unknown, unless all that was there is a cut
    // recursion, which contributes nothing.
    return r === R_DROP && !cut ? R_UNKNOWN : r;
  }
}

/** A schema object without in-place applicators: its reading is its own keywords' (no recursion possible). */
function isLeaf(n: NodeBase): n is SchNode {
  return n instanceof SchNode && conjunctsOf(n).length === 0 && disjunctionsOf(n).length === 0;
}

function topReading(node: NodeBase, whole: boolean): Memo<Reading> {
  const work = new Work();
  try {
    const r = run(work, new ReadOp(whole), node);
    return { value: r === DROPPED ? R_UNKNOWN : r, notes: work.notes };
  } catch (e) {
    if (!isWorkExceeded(e)) throw e;
    return { value: R_UNKNOWN, notes: NOTE_COMPLEX };
  }
}

/** The reading of a number `value` at `node`; notes go to `note` (at most once per code). */
export function numberReading(node: SchemaNode, value: number, note: NoteSink): NumberReading {
  if (!(node instanceof NodeBase) || node.isUnknown) return "unknown";
  const whole = Number.isInteger(value);
  let m = whole ? node.topWhole : node.topFraction;
  if (m === undefined) {
    m = topReading(node, whole);
    if (whole) node.topWhole = m;
    else node.topFraction = m;
  }
  if (m.notes !== 0) emitNotes(m.notes, note);
  return PUBLIC_READING[m.value]!;
}

const EMPTY_OBJECT_SCOPE: ObjectScope = { child: () => UNKNOWN_NODE_IMPL };
const EMPTY_ARRAY_SCOPE: ArrayScope = { child: () => UNKNOWN_NODE_IMPL };

/** A disjunction whose kept branches depend on the object's content. */
interface DynamicDisj {
  readonly disj: Disj;
  readonly preds: readonly Pred[];
  /** Kept branch indices without looking at the content ("0,2,"). */
  readonly staticKey: string;
  readonly allKey: string;
}

/** What objectScope needs of a node, computed once. */
export interface ObjectInfo {
  readonly notes: number;
  readonly dynamic: readonly DynamicDisj[];
  readonly staticScope: ObjectScope;
  readonly scopes: Map<string, ObjectScope>;
}

const COMPLEX_OBJECT_INFO: ObjectInfo = {
  notes: NOTE_COMPLEX,
  dynamic: [],
  staticScope: EMPTY_OBJECT_SCOPE,
  scopes: new Map(),
};

function indexKey(n: number, keep: (i: number) => boolean): string {
  let k = "";
  for (let i = 0; i < n; i++) if (keep(i)) k += `${i},`;
  return k;
}

/** The member nodes of an object value under a view (null: no value-dependent filtering). */
function objectChild(node: NodeBase, key: string, view: View | null): NodeBase {
  const doc = node.doc;
  if (doc === null) return UNKNOWN_NODE_IMPL;
  const work = new Work();
  try {
    const r = run(
      work,
      new ObjectChildOp(doc, key, view, new ObjectPredOp(new ValuePredOp())),
      node,
    );
    return r === DROPPED || r === CUT_NODE ? UNKNOWN_NODE_IMPL : r;
  } catch (e) {
    if (!isWorkExceeded(e)) throw e;
    if (view === null) {
      node.children ??= new Map();
      if (node.children.size < MAX_CHILD_MEMO) node.children.set(key, TOO_COMPLEX_NODE);
    }
    return TOO_COMPLEX_NODE;
  }
}

class StaticObjectScope implements ObjectScope {
  constructor(private readonly node: NodeBase) {}
  child(key: string): SchemaNode {
    const c = this.node.children?.get(key);
    if (c === undefined) return objectChild(this.node, key, null);
    return c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
  }
}

class ViewObjectScope implements ObjectScope {
  private readonly cache = new Map<string, NodeBase>();
  constructor(
    private readonly node: NodeBase,
    private readonly view: View,
  ) {}
  child(key: string): SchemaNode {
    let c = this.cache.get(key);
    if (c === undefined) {
      c = objectChild(this.node, key, this.view);
      if (this.cache.size < MAX_CHILD_MEMO) this.cache.set(key, c);
    }
    return c;
  }
}

function computeObjectInfo(node: NodeBase): ObjectInfo {
  if (node.kind === K_COMPLEX || node.doc === null) return COMPLEX_OBJECT_INFO;
  const work = new Work();
  try {
    const objectOp = new ObjectPredOp(new ValuePredOp());
    let notes = 0;
    const dynamic: DynamicDisj[] = [];
    const seen = new Set<NodeBase>();
    const seenDisj = new Set<Disj>();
    const todo: NodeBase[] = [node];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      work.charge();
      const exp = expansion(n, work);
      notes |= exp.notes;
      for (const s of exp.owns) if (objectKeywordsOf(s).rejected) notes |= NOTE_COMPLEX;
      for (const d of exp.disjs) {
        if (seenDisj.has(d)) continue;
        seenDisj.add(d);
        const kept = keptForObject(d, work, objectOp);
        if (d.filterable) {
          const preds = branchPredsOf(d, work, objectOp);
          if (preds.some((p) => typeof p !== "boolean")) {
            const n = d.branches.length;
            const keptSet = new Set(kept);
            dynamic.push({
              disj: d,
              preds,
              staticKey: indexKey(n, (i) => keptSet.has(d.branches[i]!)),
              allKey: indexKey(n, () => true),
            });
          }
        }
        for (const b of kept) todo.push(b);
      }
    }
    return {
      notes: notes | work.notes,
      dynamic,
      staticScope: new StaticObjectScope(node),
      scopes: new Map(),
    };
  } catch (e) {
    if (!isWorkExceeded(e)) throw e;
    return COMPLEX_OBJECT_INFO;
  }
}

/** The scope for this object value: the static one unless its content sets aside branches. */
function scopeFor(node: NodeBase, info: ObjectInfo, probe: ObjectProbe): ObjectScope {
  let sig = "";
  const keys: string[] = [];
  for (let j = 0; j < info.dynamic.length; j++) {
    const dd = info.dynamic[j]!;
    let key = indexKey(dd.preds.length, (i) => evalObject(dd.preds[i]!, probe));
    if (key === "") key = dd.allKey;
    keys.push(key);
    if (key !== dd.staticKey) sig += `${j}:${key};`;
  }
  if (sig === "") return info.staticScope;
  const found = info.scopes.get(sig);
  if (found !== undefined) return found;
  const view = new Map<Disj, readonly NodeBase[]>();
  for (let j = 0; j < info.dynamic.length; j++) {
    const dd = info.dynamic[j]!;
    const key = keys[j]!;
    if (key === dd.staticKey) continue;
    view.set(
      dd.disj,
      key
        .split(",")
        .filter((x) => x !== "")
        .map((x) => dd.disj.branches[Number(x)]!),
    );
  }
  const scope = new ViewObjectScope(node, view);
  if (info.scopes.size < MAX_SCOPES) info.scopes.set(sig, scope);
  return scope;
}

/** The scope of an object value at `node`; `probe` lets branch filtering look at its members. */
export function objectScope(node: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope {
  if (!(node instanceof NodeBase) || node.isUnknown) return EMPTY_OBJECT_SCOPE;
  let info = node.objectInfo;
  if (info === undefined) {
    info = computeObjectInfo(node);
    node.objectInfo = info;
  }
  if (info.notes !== 0) emitNotes(info.notes, note);
  return info.dynamic.length === 0 ? info.staticScope : scopeFor(node, info, probe);
}

/** What arrayScope needs of a node, computed once. */
export interface ArrayInfo {
  readonly notes: number;
  readonly scope: ArrayScope;
}

class StaticArrayScope implements ArrayScope {
  constructor(
    private readonly node: NodeBase,
    /** From this index on, every element has the same node. */
    private readonly tail: number,
  ) {}
  child(index: number): SchemaNode {
    if (!Number.isInteger(index) || index < 0) return UNKNOWN_NODE_IMPL;
    const i = Math.min(index, this.tail);
    const c = this.node.items?.get(i);
    if (c === undefined) return arrayChild(this.node, i);
    return c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
  }
}

function arrayChild(node: NodeBase, index: number): NodeBase {
  const doc = node.doc;
  if (doc === null) return UNKNOWN_NODE_IMPL;
  const work = new Work();
  try {
    const r = run(work, new ArrayChildOp(doc, index, new ArrayOkOp()), node);
    return r === DROPPED || r === CUT_NODE ? UNKNOWN_NODE_IMPL : r;
  } catch (e) {
    if (!isWorkExceeded(e)) throw e;
    node.items ??= new Map();
    if (node.items.size < MAX_CHILD_MEMO) node.items.set(index, TOO_COMPLEX_NODE);
    return TOO_COMPLEX_NODE;
  }
}

const COMPLEX_ARRAY_INFO: ArrayInfo = { notes: NOTE_COMPLEX, scope: EMPTY_ARRAY_SCOPE };

function computeArrayInfo(node: NodeBase): ArrayInfo {
  if (node.kind === K_COMPLEX || node.doc === null) return COMPLEX_ARRAY_INFO;
  const work = new Work();
  try {
    const arrayOp = new ArrayOkOp();
    let notes = 0;
    let tail = 0;
    const seen = new Set<NodeBase>();
    const seenDisj = new Set<Disj>();
    const todo: NodeBase[] = [node];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      work.charge();
      const exp = expansion(n, work);
      notes |= exp.notes;
      for (const s of exp.owns) {
        const prefix = arrayKeywordsOf(s).prefix;
        if (prefix !== undefined && prefix.length > tail) tail = prefix.length;
      }
      for (const d of exp.disjs) {
        if (seenDisj.has(d)) continue;
        seenDisj.add(d);
        for (const b of keptForArray(d, work, arrayOp)) todo.push(b);
      }
    }
    return { notes: notes | work.notes, scope: new StaticArrayScope(node, tail) };
  } catch (e) {
    if (!isWorkExceeded(e)) throw e;
    return COMPLEX_ARRAY_INFO;
  }
}

/** The scope of an array value at `node` (element nodes do not depend on the array's content). */
export function arrayScope(node: SchemaNode, _length: number, note: NoteSink): ArrayScope {
  if (!(node instanceof NodeBase) || node.isUnknown) return EMPTY_ARRAY_SCOPE;
  let info = node.arrayInfo;
  if (info === undefined) {
    info = computeArrayInfo(node);
    node.arrayInfo = info;
  }
  if (info.notes !== 0) emitNotes(info.notes, note);
  return info.scope;
}
