// Conditions: whether an object value satisfies a subschema, as far as its
// members show, for the alternatives whose choice JSON Schema makes by
// validation rather than by the writer's guess: `if` (its `then` applies when
// the value validates against it, its `else` when not; an absent one is
// `true`) and `dependentSchemas` (applies when the key is present).
//
// Unlike a branch predicate (./predicates.ts: "may match", so `true` is always
// safe), a condition decides which subschema applies, so it is three-valued:
// true, false, or undefined when the members cannot tell (a keyword not read
// here, a container member, a number past 2^53, a cut recursion). Undefined
// keeps both branches, whose union the reader reports as it would any other.
// Compiled once per computation from the keyword table (./vocabulary.ts:
// `validates` says which values a keyword constrains), evaluated per object.
import { isPrimitive, isRecord } from "./keywords.js";
import { Disjunction, expansion, K_FALSE, K_UNKNOWN, type NodeBase } from "./nodes.js";
import type { Primitive } from "./predicates.js";
import type { ObjectProbe } from "./types.js";
import { KEYWORD_BY_NAME, typeNames, VALUE_ARRAY, VALUE_OBJECT } from "./vocabulary.js";
import { DROPPED, NOTE_UNRESOLVED, Op, run, type Work } from "./work.js";

/** A verdict: true, false, or undefined (cannot tell). */
export type Verdict = boolean | undefined;

/** A condition: a verdict known without the value, or a node evaluated against it. */
export type Condition = Verdict | ConditionNode;

/**
 * One node of a condition, by `t`: "and", "or", "one" (exactly one), "not"
 * (of its one item); on an object: "has" (member `key` present), "member"
 * (member `key`, when present, satisfies its one item); on a member's value:
 * "in" (one of `values`; a container undecided when `mask`), "type" (of a
 * kind in `mask`, see {@link kindBits}; null undecided when `nullable`),
 * "kinds" (undecided for a kind in `mask`, true for the others).
 */
export interface ConditionNode {
  readonly t: "and" | "or" | "one" | "not" | "has" | "member" | "in" | "type" | "kinds";
  readonly items?: readonly Condition[];
  readonly key?: string;
  readonly values?: ReadonlySet<Primitive>;
  readonly mask?: number;
  readonly nullable?: boolean;
  /** What evaluating it costs. */
  readonly size: number;
}

/** Conditions bigger than this are undecided (a bound on what one object's evaluation costs). */
const MAX_CONDITION_SIZE = 2000;

/** Kind bits of a value besides VALUE_*: boolean, null, an integer, an integer past 2^53 (maybe written otherwise). */
const BOOLEAN = 4;
const NULL = 8;
const INTEGER = 64;
const UNSAFE_INTEGER = 128;
const CONTAINER = VALUE_OBJECT | VALUE_ARRAY;
const TYPE_BITS: Readonly<Record<string, number>> = {
  string: 1,
  number: 2,
  boolean: BOOLEAN,
  null: NULL,
  object: VALUE_OBJECT,
  array: VALUE_ARRAY,
  integer: INTEGER,
};

/** The kind bits of a member's value (undefined: some container). */
function kindBits(v: Primitive | undefined): number {
  if (v === undefined) return CONTAINER;
  if (v === null) return NULL;
  if (typeof v !== "number") return TYPE_BITS[typeof v]!;
  if (!Number.isInteger(v)) return 2;
  return Math.abs(v) > Number.MAX_SAFE_INTEGER ? 2 | UNSAFE_INTEGER : 2 | INTEGER;
}

/** The cost of evaluating `c` once. */
export function conditionSize(c: Condition): number {
  return typeof c === "object" ? c.size : 1;
}

/** A combination of `items` (decided ones folded in where they settle it). */
function combine(t: "and" | "or" | "one", items: readonly Condition[]): Condition {
  const absorbing = t === "or";
  const kept: Condition[] = [];
  let size = 1;
  for (const c of items) {
    if (t !== "one") {
      if (c === absorbing) return absorbing;
      if (c === !absorbing) continue;
    }
    kept.push(c);
    size += conditionSize(c);
  }
  if (t !== "one" && kept.length < 2) return kept.length === 0 ? !absorbing : kept[0];
  const c: ConditionNode = { t, items: kept, size };
  return size > MAX_CONDITION_SIZE
    ? undefined
    : kept.some((x) => typeof x === "object")
      ? c
      : evaluate(c, null);
}

/** Not `c`. */
function negation(c: Condition): Condition {
  if (typeof c !== "object") return c === undefined ? undefined : !c;
  return c.t === "not" ? c.items![0] : { t: "not", items: [c], size: c.size + 1 };
}

/**
 * Whether an object whose members `probe` shows satisfies `c`; for a value
 * condition (probe null), whether the member's value `v` (undefined: some
 * container) does.
 */
export function evaluate(c: Condition, probe: ObjectProbe | null, v?: Primitive): Verdict {
  if (typeof c !== "object") return c;
  const bits = kindBits(v);
  switch (c.t) {
    case "has":
      return probe!.has(c.key!);
    case "member":
      return probe!.has(c.key!) ? evaluate(c.items![0], null, probe!.primitive(c.key!)) : true;
    case "in":
      if (v === undefined) return c.mask ? undefined : false;
      return (bits & UNSAFE_INTEGER) !== 0 ? undefined : c.values!.has(v);
    case "kinds":
      return (bits & c.mask!) !== 0 ? undefined : true;
    case "type": {
      const mask = c.mask!;
      if (bits === CONTAINER) {
        const both = mask & CONTAINER;
        return both === 0 ? false : both === CONTAINER ? true : undefined;
      }
      if ((bits & mask) !== 0) return true;
      const open =
        (v === null && c.nullable) || ((bits & UNSAFE_INTEGER) !== 0 && (mask & INTEGER) !== 0);
      return open ? undefined : false;
    }
    default: {
      let yes = 0;
      let no = 0;
      let open = 0;
      for (const x of c.items!) {
        const r = evaluate(x, probe, v);
        if (r === undefined) open++;
        else if (r) yes++;
        else no++;
      }
      if (c.t === "not") return open > 0 ? undefined : no > 0;
      if (c.t === "and") return no > 0 ? false : open > 0 ? undefined : true;
      if (c.t === "or") return yes > 0 ? true : open > 0 ? undefined : false;
      return yes > 1 ? false : open > 0 ? undefined : yes === 1;
    }
  }
}

/**
 * Op: the condition a value must meet to satisfy a node, for an object value
 * (`object`: the `if` at an object's position) or for a member's value.
 */
export class ConditionOp extends Op<NodeBase | Disjunction, Condition> {
  /** The op for members' values (an object op's only). */
  private members: ConditionOp | undefined;
  constructor(private readonly object: boolean) {
    super();
  }

  /** The condition of `node` (undecided where a recursion is cut). */
  of(node: NodeBase, work: Work): Condition {
    const c = run(work, this, node);
    return c === DROPPED ? undefined : c;
  }

  compute(n: NodeBase | Disjunction, work: Work): Condition {
    if (n instanceof Disjunction) return this.alternatives(n, work);
    if (n.kind === K_UNKNOWN) return true;
    if (n.kind === K_FALSE) return false;
    const expanded = expansion(n, work);
    if (expanded.hasFalse) return false;
    const parts: Condition[] = [];
    if ((expanded.notes & NOTE_UNRESOLVED) !== 0) parts.push(undefined);
    for (const s of expanded.schemaObjects) {
      const raw = s.raw;
      const node = (x: unknown) => s.doc!.nodeFor(x, s.base);
      for (const name of Object.keys(raw)) {
        work.charge();
        parts.push(this.keyword(name, raw[name], raw.nullable === true, node, work));
      }
    }
    for (const d of expanded.disjunctions) {
      const c = run(work, this, d, false);
      parts.push(c === DROPPED ? undefined : c);
    }
    return combine("and", parts);
  }

  /** One keyword's condition; `node` gives a subschema's node. */
  private keyword(
    name: string,
    value: unknown,
    nullable: boolean,
    node: (x: unknown) => NodeBase | undefined,
    work: Work,
  ): Condition {
    const object = this.object;
    switch (name) {
      case "type": {
        let mask = 0;
        for (const t of typeNames(value) ?? []) mask |= TYPE_BITS[t]!;
        if (mask === 0) return undefined;
        return object ? (mask & VALUE_OBJECT) !== 0 : { t: "type", mask, nullable, size: 1 };
      }
      case "const":
      case "enum": {
        const values = name === "const" ? [value] : value;
        if (!Array.isArray(values)) return undefined;
        work.charge(values.length);
        // An object equals no primitive and no array; another object it may.
        if (object) return values.some(isRecord) ? undefined : false;
        return {
          t: "in",
          values: new Set(values.filter(isPrimitive)),
          mask: values.some((x) => !isPrimitive(x)) ? 1 : 0,
          size: 1,
        };
      }
      case "not": {
        const n = node(value);
        return n === undefined ? undefined : negation(this.of(n, work));
      }
      case "required":
        if (!object) break;
        if (!Array.isArray(value)) return undefined;
        work.charge(value.length);
        return combine(
          "and",
          value.map(
            (key): Condition => (typeof key === "string" ? { t: "has", key, size: 1 } : undefined),
          ),
        );
      case "properties": {
        if (!object) break;
        if (!isRecord(value)) return undefined;
        const members = (this.members ??= new ConditionOp(false));
        const parts: Condition[] = [];
        for (const key of Object.keys(value)) {
          work.charge();
          const n = node(value[key]);
          const test = n === undefined ? undefined : members.of(n, work);
          if (test !== true)
            parts.push({ t: "member", key, items: [test], size: 1 + conditionSize(test) });
        }
        return combine("and", parts);
      }
    }
    // Applicators are in the expansion; the rest constrain the kinds of values they validate.
    const mask = KEYWORD_BY_NAME.get(name)?.validates ?? 0;
    if (object) return (mask & VALUE_OBJECT) === 0 ? true : undefined;
    return mask === 0 ? true : { t: "kinds", mask, size: 1 };
  }

  /** The condition of a disjunction: some branch (anyOf), exactly one (oneOf), or its conditional. */
  private alternatives(d: Disjunction, work: Work): Condition {
    const when = d.condition;
    // A dependent schema: applies to objects that have the key, never to another value.
    if (typeof when === "string" && !this.object) return { t: "kinds", mask: CONTAINER, size: 1 };
    const branches = d.branches.map((b) => this.of(b, work));
    if (when === undefined) return combine(d.exactlyOne ? "one" : "or", branches);
    const test: Condition =
      typeof when === "string" ? { t: "has", key: when, size: 1 } : this.of(when, work);
    return combine("or", [
      combine("and", [test, branches[0]]),
      combine("and", [negation(test), branches[1]]),
    ]);
  }
}

/** Adds to `out` every member key an object condition looks at, and to `valued` those whose value it reads. */
export function conditionKeys(c: Condition, out: Set<string>, valued: Set<string>): void {
  if (typeof c !== "object") return;
  if (c.key !== undefined) {
    out.add(c.key);
    if (c.t === "member") valued.add(c.key);
  } else for (const x of c.items ?? []) conditionKeys(x, out, valued);
}
