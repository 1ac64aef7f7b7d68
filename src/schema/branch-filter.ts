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
import { entry } from "../map-entry.js";
import { isRecord } from "./keywords.js";
import { Disjunction, expansion, K_FALSE, type NodeBase, type SchemaObjectNode } from "./nodes.js";
import { and, or, type Predicate } from "./predicates.js";
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
function ownValuePredicate(s: SchemaObjectNode): Predicate {
  if (s.ownValuePredicate !== undefined) return s.ownValuePredicate as Predicate;
  const p = ownValueCheck(s.raw);
  s.ownValuePredicate = p;
  return p;
}

/** Op: the value predicate of a node (a member's schema): own const/enum, through refs, allOf, anyOf/oneOf. */
export class ValuePredicateOp extends Op<NodeBase | Disjunction, Predicate> {
  compute(n: NodeBase | Disjunction, work: Work): Predicate {
    return n instanceof Disjunction
      ? branchesPredicate(n, work, this, () => true)
      : nodePredicate(n, work, this, ownValuePredicate);
  }
}

/**
 * The predicate of a node (not a disjunction): false where a `false` schema
 * applies; else the conjunction of its schema objects' own predicates
 * (`own`) and of its selectable unions' (each computed in a frame of its
 * own: cut when met again inside its branches, true).
 */
function nodePredicate(
  n: NodeBase,
  work: Work,
  op: Op<NodeBase | Disjunction, Predicate>,
  own: (s: SchemaObjectNode) => Predicate,
): Predicate {
  const expanded = expansion(n, work);
  if (expanded.hasFalse) return false;
  const parts: Predicate[] = [];
  for (const s of expanded.schemaObjects) parts.push(own(s));
  for (const d of expanded.disjunctions) {
    if (!d.selectable) continue;
    const p = run(work, op, d, false);
    parts.push(p === DROPPED ? true : p);
  }
  return and(parts);
}

/**
 * OR over a disjunction's branches (cut branches contribute nothing; all cut
 * → true); each branch's own predicate goes to `each` when given.
 */
function branchesPredicate(
  d: Disjunction,
  work: Work,
  op: Op<NodeBase | Disjunction, Predicate>,
  extra: (i: number) => Predicate,
  each?: Predicate[],
): Predicate {
  const alts: Predicate[] = [];
  let any = false;
  for (let i = 0; i < d.branches.length; i++) {
    const p = run(work, op, d.branches[i]!);
    if (p === DROPPED) {
      each?.push(true);
      continue;
    }
    any = true;
    const q = and([p, extra(i)]);
    each?.push(q);
    alts.push(q);
  }
  return any ? or(alts) : true;
}

/** What one schema object's own keywords require of an object value (see ./vocabulary.ts). */
function ownObjectPredicate(
  s: SchemaObjectNode,
  work: Work,
  valuePredicates: ValuePredicateOp,
): Predicate {
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
      const test = run(work, valuePredicates, child);
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
export class ObjectPredicateOp extends Op<NodeBase | Disjunction, Predicate> {
  private readonly valuePredicates = new ValuePredicateOp();
  private readonly own = new Map<SchemaObjectNode, Predicate>();
  readonly branchPredicates = new Map<Disjunction, readonly Predicate[]>();
  readonly kept = new Map<Disjunction, readonly NodeBase[]>();
  compute(n: NodeBase | Disjunction, work: Work): Predicate {
    if (n instanceof Disjunction) {
      // Computed with nothing below it on the stack: its branches' predicates are what
      // branchPredicatesOf gives (with a recursion into the union itself cut, as anywhere).
      const each: Predicate[] | undefined = this.stack.size === 1 ? [] : undefined;
      const p = branchesPredicate(n, work, this, (i) => discriminatorPredicate(n, i), each);
      if (each !== undefined) this.branchPredicates.set(n, each);
      return p;
    }
    if (n.kind === K_FALSE) return false;
    const own = (s: SchemaObjectNode) => ownObjectPredicate(s, work, this.valuePredicates);
    return nodePredicate(n, work, this, (s) => entry(this.own, s, own));
  }
}

/** Op: whether an array value can possibly match a node (JSON type only); holds its computation's kept branches. */
export class ArrayAdmitsOp extends Op<NodeBase | Disjunction, boolean> {
  readonly kept = new Map<Disjunction, readonly NodeBase[]>();
  compute(n: NodeBase | Disjunction, work: Work): boolean {
    if (n instanceof Disjunction) {
      // Computed with nothing below it on the stack: its kept branches are what keptForArray gives.
      const top = this.stack.size === 1;
      const admitted: NodeBase[] = [];
      let any = false;
      let ok = false;
      for (const b of n.branches) {
        const r = run(work, this, b);
        if (r === DROPPED) {
          if (top) admitted.push(b);
          continue;
        }
        any = true;
        if (r) {
          if (!top) return true;
          ok = true;
          admitted.push(b);
        }
      }
      if (top) this.kept.set(n, admitted.length === 0 ? n.branches : admitted);
      return !any || ok;
    }
    if (n.kind === K_FALSE) return false;
    const expanded = expansion(n, work);
    if (expanded.hasFalse) return false;
    for (const s of expanded.schemaObjects) if (!ownAdmitsArray(s.raw)) return false;
    for (const d of expanded.disjunctions) {
      if (d.selectable && run(work, this, d, false) === false) return false;
    }
    return true;
  }
}

/** What branch `i` of `d` must satisfy by its schema object's own keywords (OpenAPI `discriminator`). */
function discriminatorPredicate(d: Disjunction, i: number): Predicate {
  return d.branchChecks?.[i] ?? true;
}

/** Per branch of `d`: the object predicate including the discriminator's (memoized in `objectPredicates`). */
export function branchPredicatesOf(
  d: Disjunction,
  work: Work,
  objectPredicates: ObjectPredicateOp,
): readonly Predicate[] {
  const found = objectPredicates.branchPredicates.get(d);
  if (found !== undefined) return found;
  // In a frame of the union's own, so a branch that reaches it again is cut once, not per branch.
  if (objectPredicates.stack.size === 0) run(work, objectPredicates, d, false);
  const known = objectPredicates.branchPredicates.get(d);
  if (known !== undefined) return known;
  // The union's predicate was memoized before (its branches need no frame of it: no recursion).
  const out: Predicate[] = [];
  branchesPredicate(d, work, objectPredicates, (i) => discriminatorPredicate(d, i), out);
  objectPredicates.branchPredicates.set(d, out);
  return out;
}

/** The branches of `d` an object value of any content may match (memoized in `objectPredicates`); all when none may. */
export function keptForObject(
  d: Disjunction,
  work: Work,
  objectPredicates: ObjectPredicateOp,
): readonly NodeBase[] {
  const found = objectPredicates.kept.get(d);
  if (found !== undefined) return found;
  let kept = d.branches;
  if (d.selectable) {
    const preds = branchPredicatesOf(d, work, objectPredicates);
    kept = d.branches.filter((_, i) => preds[i] !== false);
    if (kept.length === 0) kept = d.branches;
  }
  objectPredicates.kept.set(d, kept);
  return kept;
}

/** The branches of `d` an array value may match (memoized in `arrayAdmits`); all when none may. */
export function keptForArray(
  d: Disjunction,
  work: Work,
  arrayAdmits: ArrayAdmitsOp,
): readonly NodeBase[] {
  const found = arrayAdmits.kept.get(d);
  if (found !== undefined) return found;
  let kept = d.forOthers;
  if (d.selectable) {
    // In a frame of the union's own, as branchPredicatesOf.
    if (arrayAdmits.stack.size === 0) run(work, arrayAdmits, d, false);
    const known = arrayAdmits.kept.get(d);
    if (known !== undefined) return known;
    kept = d.branches.filter((b) => run(work, arrayAdmits, b) !== false);
    if (kept.length === 0) kept = d.branches;
  }
  arrayAdmits.kept.set(d, kept);
  return kept;
}
