// Predicates: what a value must satisfy to possibly match a branch, as a
// small and/or tree compiled once per branch and evaluated per value (see
// ./branch-filter.ts for how branches get theirs, ./vocabulary.ts for what
// each keyword contributes).
import { isPrimitive, isRecord } from "./keywords.js";
import type { ObjectProbe } from "./types.js";

export type Primitive = string | number | boolean | null;

/** A check on a value: true/false when known without the value. */
export type Predicate = boolean | PredicateNode;
export type PredicateNode =
  | { readonly t: "and" | "or"; readonly items: readonly Predicate[]; readonly size: number }
  | { readonly t: "has"; readonly key: string; readonly size: 1 }
  | { readonly t: "member"; readonly key: string; readonly test: Predicate; readonly size: number }
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
      readonly values: ReadonlySet<Primitive>;
      readonly containers: boolean;
      readonly size: 1;
    };

/** Predicates bigger than this are replaced by `true` (no filtering: always safe). */
const MAX_PREDICATE_SIZE = 2000;

export function sizeOf(p: Predicate): number {
  return typeof p === "boolean" ? 0 : p.size;
}

function combine(t: "and" | "or", parts: readonly Predicate[]): Predicate {
  const absorbing = t === "or";
  // A Set: a keyword's list (`required`, `enum`) may bring 100,000 parts, each compared once.
  const unique = new Set<Predicate>();
  let size = 1;
  for (const p of parts) {
    if (p === absorbing) return absorbing;
    if (p === !absorbing || unique.has(p)) continue;
    unique.add(p);
    size += sizeOf(p);
  }
  const items = [...unique];
  if (items.length === 0) return !absorbing;
  if (items.length === 1) return items[0]!;
  return size > MAX_PREDICATE_SIZE ? true : { t, items, size };
}

/** Conjunction of predicates. */
export function and(parts: readonly Predicate[]): Predicate {
  return combine("and", parts);
}

/** Disjunction of predicates. */
export function or(parts: readonly Predicate[]): Predicate {
  return combine("or", parts);
}

/**
 * Evaluates an object predicate against the value's probe. One function for
 * both kinds: a member's `test` (a value predicate: and/or of `in`) is
 * evaluated with the member's primitive as `v` (`undefined`: some container);
 * object predicates hold no `in` of their own, value predicates no member test.
 */
export function evalObject(p: Predicate, probe: ObjectProbe, v?: Primitive): boolean {
  if (typeof p === "boolean") return p;
  switch (p.t) {
    case "and":
      for (const x of p.items) if (!evalObject(x, probe, v)) return false;
      return true;
    case "or":
      for (const x of p.items) if (evalObject(x, probe, v)) return true;
      return false;
    case "has":
      return probe.has(p.key);
    case "member":
      return !probe.has(p.key) || evalObject(p.test, probe, probe.primitive(p.key));
    case "disc": {
      const s = probe.primitive(p.key);
      if (typeof s !== "string") return true;
      return p.mappingKeys.has(s) ? p.mapped.has(s) : p.name === s;
    }
    default:
      return v === undefined ? p.containers : p.values.has(v);
  }
}

/** `const`/`enum` as a value predicate over primitives (containers compare only as "some container"). */
export function valuesPredicate(values: readonly unknown[]): Predicate {
  const prims: Primitive[] = [];
  let containers = false;
  for (const v of values) {
    if (isPrimitive(v)) prims.push(v);
    else containers = true;
  }
  return {
    t: "in",
    values: new Set(prims),
    containers,
    size: 1,
  };
}

/** `const`/`enum` applied to an object value: some member must be an object whose primitive members match. */
export function objectValuesPredicate(values: readonly unknown[]): Predicate {
  const alts: Predicate[] = [];
  let size = 0;
  for (const v of values) {
    if (!isRecord(v)) continue;
    const parts: Predicate[] = [];
    for (const k of Object.keys(v)) {
      parts.push({ t: "has", key: k, size: 1 });
      const m = v[k];
      parts.push({ t: "member", key: k, test: valuesPredicate([m]), size: 2 });
    }
    const p = and(parts);
    // Past the size limit the disjunction is `true` (see combine): the rest of the list cannot change it.
    size += sizeOf(p);
    if (size > MAX_PREDICATE_SIZE) return true;
    alts.push(p);
  }
  return or(alts);
}

/**
 * Adds to `out` every member key an object predicate looks at (its answer
 * depends on nothing else), and to `valued` those whose value it reads
 * (the others it only asks whether they are present).
 */
export function predicateKeys(p: Predicate, out: Set<string>, valued: Set<string>): void {
  if (typeof p === "boolean") return;
  switch (p.t) {
    case "and":
    case "or":
      for (const x of p.items) predicateKeys(x, out, valued);
      return;
    case "has":
      out.add(p.key);
      return;
    case "member":
    case "disc":
      out.add(p.key);
      valued.add(p.key);
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
function conjunctsOf(p: Predicate, out: Predicate[]): Predicate[] {
  if (typeof p !== "boolean" && p.t === "and") for (const x of p.items) conjunctsOf(x, out);
  else out.push(p);
  return out;
}

/** The value set a branch predicate requires of member `key`, if one of its conjuncts says so. */
function requiredValues(p: Predicate, key: string): (PredicateNode & { t: "in" }) | undefined {
  for (const c of conjunctsOf(p, [])) {
    if (typeof c === "boolean" || c.t !== "member" || c.key !== key) continue;
    const test = c.test;
    if (typeof test !== "boolean" && test.t === "in") return test;
  }
  return undefined;
}

/** An index over the most selective member key, when at least half the branches constrain one. */
export function indexBranches(predicates: readonly Predicate[]): BranchIndex | undefined {
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
