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
export type ConditionNode =
  | {
      readonly t: "and" | "or" | "one";
      readonly items: readonly Condition[];
      readonly size: number;
    }
  | { readonly t: "not"; readonly item: Condition; readonly size: number }
  /** Object: the member is present. */
  | { readonly t: "has"; readonly key: string; readonly size: 1 }
  /** Object: the member, when present, satisfies `test` (a value condition). */
  | { readonly t: "member"; readonly key: string; readonly test: Condition; readonly size: number }
  /** Value: one of `values` (a container: undefined when `containers`, else false). */
  | {
      readonly t: "in";
      readonly values: ReadonlySet<Primitive>;
      readonly containers: boolean;
      readonly size: 1;
    }
  /** Value: of one of the JSON types `names`; OpenAPI `nullable` beside it makes null undecided. */
  | {
      readonly t: "type";
      readonly names: ReadonlySet<string>;
      readonly nullable: boolean;
      readonly size: 1;
    }
  /** Value: undecided for the kinds in `kinds` (a keyword not read here), true for the others. */
  | { readonly t: "kinds"; readonly kinds: number; readonly size: 1 };

/** Conditions bigger than this are undecided (a bound on what one object's evaluation costs). */
const MAX_CONDITION_SIZE = 2000;

/** The cost of evaluating `c` once. */
export function conditionSize(c: Condition): number {
  return typeof c === "object" ? c.size : 1;
}

function combine(t: "and" | "or", parts: readonly Condition[]): Condition {
  const absorbing = t === "or";
  const items: Condition[] = [];
  let size = 1;
  let undecided = false;
  for (const p of parts) {
    if (p === absorbing) return absorbing;
    if (p === undefined) {
      undecided = true;
      continue;
    }
    if (typeof p === "boolean") continue;
    items.push(p);
    size += p.size;
  }
  if (items.length === 0) return undecided ? undefined : !absorbing;
  if (undecided) items.push(undefined);
  if (items.length === 1) return items[0];
  return size > MAX_CONDITION_SIZE ? undefined : { t, items, size };
}

/** All of `parts`. */
export function allOf(parts: readonly Condition[]): Condition {
  return combine("and", parts);
}

/** Some of `parts`. */
export function someOf(parts: readonly Condition[]): Condition {
  return combine("or", parts);
}

/** Exactly one of `parts`. */
function oneOf(parts: readonly Condition[]): Condition {
  let size = 1;
  for (const p of parts) size += conditionSize(p);
  if (parts.every((p) => typeof p !== "object")) return evalOne(parts as readonly Verdict[]);
  return size > MAX_CONDITION_SIZE ? undefined : { t: "one", items: parts, size };
}

/** Not `c`. */
export function negation(c: Condition): Condition {
  if (typeof c !== "object") return c === undefined ? undefined : !c;
  return c.t === "not" ? c.item : { t: "not", item: c, size: c.size + 1 };
}

/** `t` when `c` holds, `e` when not. */
function choice(c: Condition, t: Condition, e: Condition): Condition {
  return someOf([allOf([c, t]), allOf([negation(c), e])]);
}

function evalAnd(vs: Iterable<Verdict>): Verdict {
  let undecided = false;
  for (const v of vs) {
    if (v === false) return false;
    if (v === undefined) undecided = true;
  }
  return undecided ? undefined : true;
}

function evalOr(vs: Iterable<Verdict>): Verdict {
  let undecided = false;
  for (const v of vs) {
    if (v === true) return true;
    if (v === undefined) undecided = true;
  }
  return undecided ? undefined : false;
}

function evalOne(vs: Iterable<Verdict>): Verdict {
  let yes = 0;
  let undecided = false;
  for (const v of vs) {
    if (v === true) yes++;
    else if (v === undefined) undecided = true;
  }
  if (yes > 1) return false;
  return undecided ? undefined : yes === 1;
}

/** Whether an object value whose members `probe` shows satisfies `c`. */
export function evalObjectCondition(c: Condition, probe: ObjectProbe): Verdict {
  if (typeof c !== "object") return c;
  switch (c.t) {
    case "and":
      return evalAnd(c.items.map((x) => evalObjectCondition(x, probe)));
    case "or":
      return evalOr(c.items.map((x) => evalObjectCondition(x, probe)));
    case "one":
      return evalOne(c.items.map((x) => evalObjectCondition(x, probe)));
    case "not": {
      const v = evalObjectCondition(c.item, probe);
      return v === undefined ? undefined : !v;
    }
    case "has":
      return probe.has(c.key);
    case "member":
      return probe.has(c.key) ? evalValueCondition(c.test, probe.primitive(c.key)) : true;
    default:
      // A value condition on an object: never compiled so.
      return undefined;
  }
}

/** The kind bit of a primitive value (VALUE_OBJECT | VALUE_ARRAY: some container). */
function kindOf(v: Primitive | undefined): number {
  return KIND_BITS[v === undefined ? "container" : v === null ? "null" : typeof v] ?? 0;
}

const KIND_BITS: Readonly<Record<string, number>> = {
  string: 1,
  number: 2,
  boolean: 4,
  null: 8,
  container: VALUE_OBJECT | VALUE_ARRAY,
};

/** Whether a member's value (a primitive, or undefined for a container) satisfies `c`. */
export function evalValueCondition(c: Condition, v: Primitive | undefined): Verdict {
  if (typeof c !== "object") return c;
  switch (c.t) {
    case "and":
      return evalAnd(c.items.map((x) => evalValueCondition(x, v)));
    case "or":
      return evalOr(c.items.map((x) => evalValueCondition(x, v)));
    case "one":
      return evalOne(c.items.map((x) => evalValueCondition(x, v)));
    case "not": {
      const r = evalValueCondition(c.item, v);
      return r === undefined ? undefined : !r;
    }
    case "in":
      if (v === undefined) return c.containers ? undefined : false;
      // From 2^53 on the Struct's float64 may stand for another integer than was written.
      if (typeof v === "number" && Math.abs(v) > Number.MAX_SAFE_INTEGER) return undefined;
      return c.values.has(v);
    case "type":
      return typeVerdict(c.names, c.nullable, v);
    case "kinds":
      return (kindOf(v) & c.kinds) !== 0 ? undefined : true;
    default:
      // An object condition on a member's value: never compiled so.
      return undefined;
  }
}

function typeVerdict(
  names: ReadonlySet<string>,
  nullable: boolean,
  v: Primitive | undefined,
): Verdict {
  if (v === undefined) {
    const object = names.has("object");
    return object === names.has("array") ? object : undefined;
  }
  if (v === null) return names.has("null") ? true : nullable ? undefined : false;
  if (typeof v === "number") {
    if (names.has("number")) return true;
    if (!names.has("integer")) return false;
    // Past 2^53 a whole float64 may stand for a written non-integer (its precision is lost).
    return Math.abs(v) > Number.MAX_SAFE_INTEGER ? undefined : Number.isInteger(v);
  }
  return names.has(typeof v);
}

/** Value kinds an object condition decides (the value is an object). */
const OBJECT_KIND = VALUE_OBJECT;
/** Value kinds a member's value may be of. */
const ANY_KIND = 1 | 2 | 4 | 8 | VALUE_OBJECT | VALUE_ARRAY;

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
      for (const name of Object.keys(raw)) {
        work.charge();
        parts.push(this.keyword(name, raw[name], raw, (x) => s.doc!.nodeFor(x, s.base), work));
      }
    }
    for (const d of expanded.disjunctions) {
      const c = run(work, this, d, false);
      parts.push(c === DROPPED ? undefined : c);
    }
    return allOf(parts);
  }

  /** One keyword's condition; `node` gives a subschema's node. */
  private keyword(
    name: string,
    value: unknown,
    raw: Readonly<Record<string, unknown>>,
    node: (x: unknown) => NodeBase | undefined,
    work: Work,
  ): Condition {
    switch (name) {
      case "type": {
        const names = typeNames(value);
        if (names === undefined) return undefined;
        if (this.object) return names.includes("object");
        return { t: "type", names: new Set(names), nullable: raw.nullable === true, size: 1 };
      }
      case "const":
        return this.values([value], work);
      case "enum":
        return Array.isArray(value) ? this.values(value, work) : undefined;
      case "not": {
        const n = node(value);
        return n === undefined ? undefined : negation(this.of(n, work));
      }
      case "required":
        if (!this.object) break;
        if (!Array.isArray(value)) return undefined;
        work.charge(value.length);
        return allOf(
          value.map(
            (k): Condition => (typeof k === "string" ? { t: "has", key: k, size: 1 } : undefined),
          ),
        );
      case "properties": {
        if (!this.object) break;
        if (!isRecord(value)) return undefined;
        const parts: Condition[] = [];
        this.members ??= new ConditionOp(false);
        for (const key of Object.keys(value)) {
          work.charge();
          const n = node(value[key]);
          const test = n === undefined ? undefined : this.members.of(n, work);
          if (test !== true) parts.push({ t: "member", key, test, size: 1 + conditionSize(test) });
        }
        return allOf(parts);
      }
      default:
        break;
    }
    // Applicators are in the expansion; the rest constrain the kinds of values they validate.
    const kinds = KEYWORD_BY_NAME.get(name)?.validates ?? 0;
    if (this.object) return (kinds & OBJECT_KIND) === 0 ? true : undefined;
    return (kinds & ANY_KIND) === 0 ? true : { t: "kinds", kinds, size: 1 };
  }

  /** `const`/`enum`: the value is one of `values`. */
  private values(values: readonly unknown[], work: Work): Condition {
    work.charge(values.length);
    const prims = new Set<Primitive>();
    let containers = false;
    for (const v of values) {
      if (isPrimitive(v)) prims.add(v);
      else containers = true;
    }
    // An object equals no primitive and no array; another object it may.
    if (this.object) return values.some(isRecord) ? undefined : false;
    return { t: "in", values: prims, containers, size: 1 };
  }

  /** The condition of a disjunction: some branch (anyOf), exactly one (oneOf), or its conditional. */
  private alternatives(d: Disjunction, work: Work): Condition {
    const when = d.condition;
    // A dependent schema: applies to objects that have the key, never to another value.
    if (typeof when === "string" && !this.object)
      return { t: "kinds", kinds: VALUE_OBJECT | VALUE_ARRAY, size: 1 };
    const branches = d.branches.map((b) => this.of(b, work));
    if (when === undefined) return d.exactlyOne ? oneOf(branches) : someOf(branches);
    const test: Condition =
      typeof when === "string" ? { t: "has", key: when, size: 1 } : this.of(when, work);
    return choice(test, branches[0], branches[1]);
  }
}

/** Adds to `out` every member key an object condition looks at, and to `valued` those whose value it reads. */
export function conditionKeys(c: Condition, out: Set<string>, valued: Set<string>): void {
  if (typeof c !== "object") return;
  switch (c.t) {
    case "and":
    case "or":
    case "one":
      for (const x of c.items) conditionKeys(x, out, valued);
      return;
    case "not":
      conditionKeys(c.item, out, valued);
      return;
    case "has":
      out.add(c.key);
      return;
    case "member":
      out.add(c.key);
      valued.add(c.key);
      return;
    default:
      return;
  }
}
