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
import { isRecord } from "./keywords.js";
import { type Disj, expansion, K_FALSE, type NodeBase, type SchNode } from "./nodes.js";
import { and, or, type Pred } from "./predicates.js";
import {
  type CheckContext,
  hasAnyKeyword,
  ownAdmitsArray,
  ownObjectCheck,
  ownValueCheck,
  VALUE_CHECK_KEYWORDS,
} from "./vocabulary.js";
import { DROPPED, Op, run, type Work } from "./work.js";

/** What one schema object's own keywords require of a member's value; memoized on the node (no budget involved). */
function ownValuePred(s: SchNode): Pred {
  if (s.ownValuePred !== undefined) return s.ownValuePred as Pred;
  const p = ownValueCheck(s.raw);
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

/** What one schema object's own keywords require of an object value (see ./vocabulary.ts). */
function ownObjectPred(s: SchNode, work: Work, valueOp: ValuePredOp): Pred {
  const context: CheckContext = {
    memberCheck(subschema) {
      // Only a member schema that can require a value (itself or through an applicator) is worth a check.
      if (
        subschema !== false &&
        !(isRecord(subschema) && hasAnyKeyword(subschema, VALUE_CHECK_KEYWORDS))
      ) {
        return true;
      }
      const child = s.doc!.nodeFor(subschema, s.base);
      if (child === undefined) return true;
      const test = run(work, valueOp, child);
      return test === DROPPED ? true : test;
    },
  };
  return ownObjectCheck(s.raw, context);
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
    for (const s of exp.owns) if (!ownAdmitsArray(s.raw)) return false;
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
