// Value-dependent branch filtering: before the branches of an anyOf/oneOf are
// combined, those the actual value cannot match are set aside: wrong JSON type,
// a `const`/`enum` the value does not satisfy, a `required` member that is
// missing, a member whose `const`/`enum` the value's member does not satisfy
// (discriminated unions), an OpenAPI `discriminator` naming another branch. The
// checks go through `$ref`/`allOf` (a branch `{ $ref: Cat }` is judged by Cat's
// keywords). If every branch is set aside, all are used.
//
// A branch's checks are compiled once into a predicate (a small and/or tree);
// per value only the predicate is evaluated.
import { isPrimitive, isRecord, kw } from "./keywords.js";
import { type Disj, expansion, K_FALSE, type NodeBase, type SchNode, typesOf } from "./nodes.js";
import type { ObjectProbe } from "./types.js";
import { DROPPED, Op, run, type Work } from "./work.js";

type Primitive = string | number | boolean | null;

/** A check on a value: true/false when known without the value. */
export type Pred = boolean | PredNode;
type PredNode =
  | { readonly t: "and" | "or"; readonly items: readonly Pred[]; readonly size: number }
  | { readonly t: "has"; readonly key: string; readonly size: 1 }
  | { readonly t: "member"; readonly key: string; readonly test: Pred; readonly size: number }
  | {
      readonly t: "disc";
      readonly key: string;
      readonly mappingKeys: ReadonlyMap<string, string>;
      readonly mapped: ReadonlySet<string>;
      readonly name: string | undefined;
      readonly size: 1;
    }
  /** The value (a member's) is one of `values`, or a container when `containers`. */
  | {
      readonly t: "in";
      readonly values: ReadonlySet<Primitive> | readonly Primitive[];
      readonly containers: boolean;
      readonly size: 1;
    };

/** Lists longer than this are looked up through a Set (an `enum` may be huge). */
const SET_FROM = 16;

/** Predicates bigger than this are replaced by `true` (no filtering: always safe). */
const MAX_PRED_SIZE = 2000;

function sizeOf(p: Pred): number {
  return typeof p === "boolean" ? 0 : p.size;
}

function combine(t: "and" | "or", parts: readonly Pred[]): Pred {
  const absorbing = t === "or";
  const items: Pred[] = [];
  let size = 1;
  for (const p of parts) {
    if (p === absorbing) return absorbing;
    if (p === !absorbing || items.includes(p)) continue;
    items.push(p);
    size += sizeOf(p);
  }
  if (items.length === 0) return !absorbing;
  if (items.length === 1) return items[0]!;
  return size > MAX_PRED_SIZE ? true : { t, items, size };
}

/** Conjunction of predicates. */
export function and(parts: readonly Pred[]): Pred {
  return combine("and", parts);
}

/** Disjunction of predicates. */
export function or(parts: readonly Pred[]): Pred {
  return combine("or", parts);
}

/** Evaluates an object predicate against the value's probe. */
export function evalObject(p: Pred, probe: ObjectProbe): boolean {
  if (typeof p === "boolean") return p;
  switch (p.t) {
    case "and":
      for (const x of p.items) if (!evalObject(x, probe)) return false;
      return true;
    case "or":
      for (const x of p.items) if (evalObject(x, probe)) return true;
      return false;
    case "has":
      return probe.has(p.key);
    case "member":
      return !probe.has(p.key) || evalValue(p.test, probe.primitive(p.key));
    case "disc": {
      const v = probe.primitive(p.key);
      if (typeof v !== "string") return true;
      return p.mappingKeys.has(v) ? p.mapped.has(v) : p.name === v;
    }
    default:
      return true;
  }
}

/** Evaluates a value predicate; `undefined` stands for some container (object or array). */
export function evalValue(p: Pred, v: Primitive | undefined): boolean {
  if (typeof p === "boolean") return p;
  switch (p.t) {
    case "and":
      for (const x of p.items) if (!evalValue(x, v)) return false;
      return true;
    case "or":
      for (const x of p.items) if (evalValue(x, v)) return true;
      return false;
    case "in":
      if (v === undefined) return p.containers;
      return Array.isArray(p.values)
        ? p.values.includes(v)
        : (p.values as ReadonlySet<Primitive>).has(v);
    default:
      return true;
  }
}

/** `const`/`enum` as a value predicate over primitives (containers compare only as "some container"). */
function valuesPred(values: readonly unknown[]): Pred {
  const prims: Primitive[] = [];
  let containers = false;
  for (const v of values) {
    if (isPrimitive(v)) prims.push(v);
    else containers = true;
  }
  return {
    t: "in",
    values: prims.length > SET_FROM ? new Set(prims) : prims,
    containers,
    size: 1,
  };
}

/** What one schema object's own keywords require of a member's value (`const`/`enum`); memoized on the node. */
function ownValuePred(s: SchNode): Pred {
  if (s.ownValuePred !== undefined) return s.ownValuePred as Pred;
  const parts: Pred[] = [];
  if (Object.hasOwn(s.raw, "const")) parts.push(valuesPred([s.raw.const]));
  const e = kw(s.raw, "enum");
  if (Array.isArray(e)) parts.push(valuesPred(e));
  const p = and(parts);
  s.ownValuePred = p;
  return p;
}

/** Op: the value predicate of a node (a member's schema): own const/enum, through refs, allOf, anyOf/oneOf. */
export class ValuePredOp extends Op<NodeBase, Pred> {
  compute(n: NodeBase, work: Work): Pred {
    const exp = expansion(n, work);
    if (exp.hasFalse) return false;
    const parts: Pred[] = [];
    for (const s of exp.owns) parts.push(ownValuePred(s));
    for (const d of exp.disjs)
      if (d.filterable) parts.push(branchesPred(d, work, this, () => true));
    return and(parts);
  }
}

/** OR over a disjunction's branches (cut branches contribute nothing; all cut → true). */
function branchesPred(
  d: Disj,
  work: Work,
  op: Op<NodeBase, Pred>,
  extra: (i: number) => Pred,
): Pred {
  const alts: Pred[] = [];
  let any = false;
  for (let i = 0; i < d.branches.length; i++) {
    const p = run(work, op, d.branches[i]!);
    if (p === DROPPED) continue;
    any = true;
    alts.push(and([p, extra(i)]));
  }
  return any ? or(alts) : true;
}

const MEMBER_CHECK_KEYWORDS = [
  "const",
  "enum",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "allOf",
  "anyOf",
  "oneOf",
];

/** What one schema object's own keywords require of an object value. */
function ownObjectPred(s: SchNode, work: Work, valueOp: ValuePredOp): Pred {
  const parts: Pred[] = [];
  const types = typesOf(s);
  if (types !== undefined && !types.includes("object")) parts.push(false);
  if (Object.hasOwn(s.raw, "const")) parts.push(objectValuesPred([s.raw.const]));
  const e = kw(s.raw, "enum");
  if (Array.isArray(e)) parts.push(objectValuesPred(e));
  const required = kw(s.raw, "required");
  if (Array.isArray(required)) {
    for (const k of required) if (typeof k === "string") parts.push({ t: "has", key: k, size: 1 });
  }
  const props = kw(s.raw, "properties");
  if (isRecord(props)) {
    for (const key of Object.keys(props)) {
      const raw = props[key];
      // Only a member schema that can hold const/enum (itself or through an applicator) is worth a check.
      if (
        raw !== false &&
        !(isRecord(raw) && MEMBER_CHECK_KEYWORDS.some((k) => Object.hasOwn(raw, k)))
      ) {
        continue;
      }
      const child = s.doc!.nodeFor(raw, s.base);
      if (child === undefined) continue;
      const test = run(work, valueOp, child);
      if (test === DROPPED || test === true) continue;
      parts.push({ t: "member", key, test, size: 1 + sizeOf(test) });
    }
  }
  return and(parts);
}

/** `const`/`enum` applied to an object value: some member must be an object whose primitive members match. */
function objectValuesPred(values: readonly unknown[]): Pred {
  const alts: Pred[] = [];
  for (const v of values) {
    if (!isRecord(v)) continue;
    const parts: Pred[] = [];
    for (const k of Object.keys(v)) {
      parts.push({ t: "has", key: k, size: 1 });
      const m = v[k];
      parts.push({ t: "member", key: k, test: valuesPred([m]), size: 2 });
    }
    alts.push(and(parts));
  }
  return or(alts);
}

/**
 * Op: the predicate an object value must pass to possibly match a node. It
 * also holds this computation's memos of what is derived from it (own
 * predicates, kept branches), so nothing budgeted outlives the computation.
 */
export class ObjectPredOp extends Op<NodeBase, Pred> {
  private readonly valueOp = new ValuePredOp();
  private readonly own = new Map<SchNode, Pred>();
  readonly branchPreds = new Map<Disj, readonly Pred[]>();
  readonly kept = new Map<Disj, readonly NodeBase[]>();
  compute(n: NodeBase, work: Work): Pred {
    if (n.kind === K_FALSE) return false;
    const exp = expansion(n, work);
    if (exp.hasFalse) return false;
    const parts: Pred[] = [];
    for (const s of exp.owns) {
      let p = this.own.get(s);
      if (p === undefined) {
        p = ownObjectPred(s, work, this.valueOp);
        this.own.set(s, p);
      }
      parts.push(p);
    }
    for (const d of exp.disjs) {
      if (d.filterable) parts.push(branchesPred(d, work, this, (i) => discriminatorPred(d, i)));
    }
    return and(parts);
  }
}

/** Op: whether an array value can possibly match a node (JSON type only); holds its computation's kept branches. */
export class ArrayOkOp extends Op<NodeBase, boolean> {
  readonly kept = new Map<Disj, readonly NodeBase[]>();
  compute(n: NodeBase, work: Work): boolean {
    if (n.kind === K_FALSE) return false;
    const exp = expansion(n, work);
    if (exp.hasFalse) return false;
    for (const s of exp.owns) {
      const types = typesOf(s);
      if (types !== undefined && !types.includes("array")) return false;
      if (Object.hasOwn(s.raw, "const") && !Array.isArray(s.raw.const)) return false;
      const e = kw(s.raw, "enum");
      if (Array.isArray(e) && !e.some((v) => Array.isArray(v))) return false;
    }
    for (const d of exp.disjs) {
      if (!d.filterable) continue;
      let any = false;
      let ok = false;
      for (const b of d.branches) {
        const r = run(work, this, b);
        if (r === DROPPED) continue;
        any = true;
        if (r) {
          ok = true;
          break;
        }
      }
      if (any && !ok) return false;
    }
    return true;
  }
}

/** The last segment of a `$ref` ("#/$defs/Cat" → "Cat"), unescaped. */
function lastSegment(ref: string): string {
  const i = Math.max(ref.lastIndexOf("/"), ref.lastIndexOf("#"));
  let seg = ref.slice(i + 1);
  try {
    seg = decodeURIComponent(seg);
  } catch {
    // keep the raw text
  }
  return seg.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * OpenAPI `discriminator` for branch `i`: when the object's member
 * `propertyName` is a string, a mapped value selects the branches whose `$ref`
 * is the mapping's target; an unmapped value selects the branch whose `$ref`
 * ends in that name. Branches without `$ref` are not judged by it.
 */
function discriminatorPred(d: Disj, i: number): Pred {
  const disc = d.discriminator;
  const ref = d.refs[i];
  if (disc === undefined || ref === undefined) return true;
  const name = lastSegment(ref);
  const mapped = new Set<string>();
  for (const [value, target] of disc.mapping) {
    if (target === ref || lastSegment(target) === name) mapped.add(value);
  }
  return { t: "disc", key: disc.propertyName, mappingKeys: disc.mapping, mapped, name, size: 1 };
}

/** Per branch of `d`: the object predicate including the discriminator's (memoized in `objectOp`). */
export function branchPredsOf(d: Disj, work: Work, objectOp: ObjectPredOp): readonly Pred[] {
  const found = objectOp.branchPreds.get(d);
  if (found !== undefined) return found;
  const out: Pred[] = [];
  for (let i = 0; i < d.branches.length; i++) {
    const p = run(work, objectOp, d.branches[i]!);
    out.push(p === DROPPED ? true : and([p, discriminatorPred(d, i)]));
  }
  objectOp.branchPreds.set(d, out);
  return out;
}

/** The branches of `d` an object value of any content may match (memoized in `objectOp`); all when none may. */
export function keptForObject(d: Disj, work: Work, objectOp: ObjectPredOp): readonly NodeBase[] {
  const found = objectOp.kept.get(d);
  if (found !== undefined) return found;
  let kept = d.branches;
  if (d.filterable) {
    const preds = branchPredsOf(d, work, objectOp);
    kept = d.branches.filter((_, i) => preds[i] !== false);
    if (kept.length === 0) kept = d.branches;
  }
  objectOp.kept.set(d, kept);
  return kept;
}

/** The branches of `d` an array value may match (memoized in `arrayOp`); all when none may. */
export function keptForArray(d: Disj, work: Work, arrayOp: ArrayOkOp): readonly NodeBase[] {
  const found = arrayOp.kept.get(d);
  if (found !== undefined) return found;
  let kept = d.branches;
  if (d.filterable) {
    kept = d.branches.filter((b) => run(work, arrayOp, b) !== false);
    if (kept.length === 0) kept = d.branches;
  }
  arrayOp.kept.set(d, kept);
  return kept;
}

/** Adds to `out` every member key an object predicate looks at (its answer depends on nothing else). */
export function predicateKeys(p: Pred, out: Set<string>): void {
  if (typeof p === "boolean") return;
  switch (p.t) {
    case "and":
    case "or":
      for (const x of p.items) predicateKeys(x, out);
      return;
    case "has":
    case "member":
    case "disc":
      out.add(p.key);
      return;
    default:
      return;
  }
}

/**
 * An index of a disjunction's branches by one member's value, for
 * discriminated unions: branch i requires member `key` (when present) to be
 * one of its values. Selecting for an object then evaluates only the branches
 * its value can match, instead of every branch.
 */
export interface BranchIndex {
  readonly key: string;
  /** Branches by the primitive values they admit for `key`. */
  readonly byValue: ReadonlyMap<Primitive, readonly number[]>;
  /** Branches that admit a container there. */
  readonly containers: readonly number[];
  /** Branches that do not constrain `key` (always evaluated). */
  readonly others: readonly number[];
}

/** The top-level conjuncts of a predicate (nested `and`s flattened). */
function conjunctsOf(p: Pred, out: Pred[]): Pred[] {
  if (typeof p !== "boolean" && p.t === "and") for (const x of p.items) conjunctsOf(x, out);
  else out.push(p);
  return out;
}

/** The value set a branch predicate requires of member `key`, if one of its conjuncts says so. */
function requiredValues(p: Pred, key: string): (PredNode & { t: "in" }) | undefined {
  for (const c of conjunctsOf(p, [])) {
    if (typeof c === "boolean" || c.t !== "member" || c.key !== key) continue;
    const test = c.test;
    if (typeof test !== "boolean" && test.t === "in") return test;
  }
  return undefined;
}

/** An index over the most selective member key, when at least half the branches constrain one. */
export function indexBranches(predicates: readonly Pred[]): BranchIndex | undefined {
  const counts = new Map<string, number>();
  for (const p of predicates) {
    for (const c of conjunctsOf(p, [])) {
      if (typeof c === "boolean" || c.t !== "member") continue;
      const test = c.test;
      if (typeof test !== "boolean" && test.t === "in")
        counts.set(c.key, (counts.get(c.key) ?? 0) + 1);
    }
  }
  let key: string | undefined;
  let best = 0;
  for (const [k, n] of counts) {
    if (n > best) {
      key = k;
      best = n;
    }
  }
  if (key === undefined || best * 2 < predicates.length) return undefined;
  const byValue = new Map<Primitive, number[]>();
  const containers: number[] = [];
  const others: number[] = [];
  predicates.forEach((p, i) => {
    const values = requiredValues(p, key);
    if (values === undefined) {
      others.push(i);
      return;
    }
    if (values.containers) containers.push(i);
    for (const v of values.values) {
      const list = byValue.get(v);
      if (list === undefined) byValue.set(v, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  return { key, byValue, containers, others };
}

/** The branches worth evaluating for an object (ascending); undefined when all are (the member is absent). */
export function candidateBranches(
  index: BranchIndex,
  probe: ObjectProbe,
): readonly number[] | undefined {
  if (!probe.has(index.key)) return undefined;
  const v = probe.primitive(index.key);
  const matching = v === undefined ? index.containers : (index.byValue.get(v) ?? []);
  if (index.others.length === 0) return matching;
  return [...new Set([...matching, ...index.others])].sort((a, b) => a - b);
}
