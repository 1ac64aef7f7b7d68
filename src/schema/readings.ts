// The reading of a node (what its schema says about a number there), by
// conjunction over its schema objects and disjunction over its alternatives
// (rules at the top of ./index.ts; the lattice in ./number-reading.ts).
import {
  conjunctsOf,
  Disjunction,
  disjunctionsOf,
  expansion,
  K_FALSE,
  K_UNKNOWN,
  type NodeBase,
  SchemaObjectNode,
} from "./nodes.js";
import {
  conjunction,
  disjunction,
  R_DROP,
  R_NONE,
  R_UNKNOWN,
  type Reading,
  readingBit,
} from "./number-reading.js";
import { ownReading } from "./vocabulary.js";
import { DROPPED, NOTE_UNRESOLVED, Op, run, type Work } from "./work.js";

/** Op: the number reading of a node (or of a disjunction's branches), for a whole or a non-whole value. */
export class ReadOp extends Op<NodeBase | Disjunction, Reading> {
  constructor(private readonly whole: boolean) {
    super();
  }
  /** The reading of a leaf branch, memoized like any other. */
  leaf(n: SchemaObjectNode, work: Work): Reading {
    const m = this.memo.get(n);
    if (m !== undefined) return m.value;
    work.charge();
    const r = ownReading(n.raw, this.whole);
    const v = r === R_DROP ? R_UNKNOWN : r;
    this.memo.set(n, { value: v, notes: 0 });
    return v;
  }
  compute(n: NodeBase | Disjunction, work: Work): Reading {
    if (n instanceof Disjunction) {
      let mask = 0;
      for (const b of n.forOthers) {
        const x = isLeaf(b) ? this.leaf(b, work) : run(work, this, b);
        if (x !== DROPPED) mask |= readingBit(x);
      }
      return disjunction(mask, this.whole);
    }
    if (n.kind === K_UNKNOWN) return R_UNKNOWN;
    if (n.kind === K_FALSE) return R_NONE;
    const expanded = expansion(n, work);
    work.notes |= expanded.notes;
    let r: Reading = expanded.hasFalse ? R_NONE : R_DROP;
    if ((expanded.notes & NOTE_UNRESOLVED) !== 0) r = conjunction(r, R_UNKNOWN);
    for (const s of expanded.schemaObjects) r = conjunction(r, ownReading(s.raw, this.whole));
    let cut = false;
    for (const d of expanded.disjunctions) {
      const x = run(work, this, d, false);
      if (x === DROPPED || x === R_DROP) cut = true;
      else r = conjunction(r, x);
    }
    // Nothing said about numbers: unknown, unless all that was there is a cut
    // recursion, which contributes nothing.
    return r === R_DROP && !cut ? R_UNKNOWN : r;
  }
}

/** A schema object without in-place applicators: its reading is its own keywords' (no recursion possible). */
function isLeaf(n: NodeBase): n is SchemaObjectNode {
  return (
    n instanceof SchemaObjectNode && conjunctsOf(n).length === 0 && disjunctionsOf(n).length === 0
  );
}
