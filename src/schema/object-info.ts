// What an object or array value at a node needs before its members are read:
// the notes of its in-place subschemas, the alternatives whose kept branches
// depend on the value's content (and how to select them), the member names
// any subschema declares, and where an array's elements stop differing.
import {
  ArrayAdmitsOp,
  branchPredicatesOf,
  keptForArray,
  keptForObject,
  ObjectPredicateOp,
} from "./branch-filter.js";
import { arrayKeywordsOf, objectKeywordsOf, type View } from "./children.js";
import { hasMember, isRecord, ownKeyword } from "./keywords.js";
import {
  type Disjunction,
  type Expansion,
  expansion,
  type NodeBase,
  SchemaObjectNode,
} from "./nodes.js";
import {
  type BranchIndex,
  candidateBranches,
  evalObject,
  indexBranches,
  type Predicate,
  predicateKeys,
} from "./predicates.js";
import type { ObjectProbe } from "./types.js";
import { typeNames } from "./vocabulary.js";
import { DROPPED, isWorkExceeded, run, Work } from "./work.js";

/** Most units reading one `if`'s condition may cost (see conditionOf). */
export const CONDITION_BUDGET = 1000;

/**
 * What decides a conditional for an object: its `if`'s branch predicate
 * (./branch-filter.ts), which fails only for an object the `if` fails, and
 * holds only for one it holds for when `exact`; a dependent schema's key.
 * Not holding: branch 1 (`else`); holding: branch 0 (`then`) when exact, else
 * both.
 */
export interface Condition {
  readonly predicate: Predicate;
  readonly exact: boolean;
}

/** A disjunction whose kept branches depend on the object's content. */
export interface DynamicDisjunction {
  readonly disjunction: Disjunction;
  readonly predicates: readonly Predicate[];
  /** A conditional's condition: branch 0 when it holds, 1 when not, both when undecided. */
  readonly condition?: Condition;
  /** Branches by a discriminating member's value, when there is one. */
  readonly index: BranchIndex | undefined;
  /** Kept branch indices without looking at the content ("0,2,"). */
  readonly staticKey: string;
  readonly allKey: string;
}

/** The members an object's dynamic predicates look at: what {@link probeSignature} reads. */
export interface ProbeKeys {
  /** The member keys the dynamic predicates look at, in a fixed order. */
  readonly keys: readonly string[];
  /**
   * For each of `keys`, whether a predicate reads its value (`const`, `enum`,
   * a discriminator); false: they only ask whether it is present (`required`),
   * so objects that differ only in its value get the same verdicts.
   */
  readonly valued: readonly boolean[];
}

/** What objectScope needs of a node. */
export interface ObjectInfo extends ProbeKeys {
  readonly notes: number;
  readonly dynamic: readonly DynamicDisjunction[];
  /**
   * Every member name a schema object in place here declares in `properties`
   * (through every branch, kept or not), or undefined when some has
   * `patternProperties`. A key outside it is evaluated by no `properties` and
   * no pattern, so its node is the same as any other such key's: one
   * question answers them all.
   */
  readonly named: ReadonlySet<string> | undefined;
}

/** What arrayScope needs of a node. */
export interface ArrayInfo {
  readonly notes: number;
  /** From this index on, every element has the same node. */
  readonly tail: number;
}

function indexKey(n: number, keep: (i: number) => boolean): string {
  let k = "";
  for (let i = 0; i < n; i++) if (keep(i)) k += `${i},`;
  return k;
}

function predicateSize(p: Predicate): number {
  return typeof p === "boolean" ? 1 : p.size;
}

/**
 * Visits `node` and, through each disjunction met (once each), the branches
 * `branchesOf` gives, each node once: one unit per node, plus its expansion.
 */
function traverse(
  node: NodeBase,
  work: Work,
  onNode: (expanded: Expansion) => void,
  branchesOf: (d: Disjunction) => readonly NodeBase[],
): void {
  const seen = new Set<NodeBase>();
  const seenDisjunctions = new Set<Disjunction>();
  const todo: NodeBase[] = [node];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    work.charge();
    const expanded = expansion(n, work);
    onNode(expanded);
    for (const d of expanded.disjunctions) {
      if (seenDisjunctions.has(d)) continue;
      seenDisjunctions.add(d);
      for (const b of branchesOf(d)) todo.push(b);
    }
  }
}

export function computeObjectInfo(node: NodeBase, work: Work): ObjectInfo {
  const objectPredicates = new ObjectPredicateOp();
  let notes = 0;
  const dynamic: DynamicDisjunction[] = [];
  const keys = new Set<string>();
  const valued = new Set<string>();
  traverse(
    node,
    work,
    (expanded) => {
      notes |= expanded.notes;
    },
    (d) => {
      const kept = keptForObject(d, work, objectPredicates);
      if (d.condition !== undefined) {
        const condition = conditionOf(d.condition, work);
        // Never decided by the members: both branches, as without a view.
        if (condition === undefined) return kept;
        predicateKeys(condition.predicate, keys, valued);
        dynamic.push({
          disjunction: d,
          predicates: [],
          condition,
          index: undefined,
          staticKey: "0,1,",
          allKey: "0,1,",
        });
        return kept;
      }
      if (!d.selectable) return kept;
      const predicates = branchPredicatesOf(d, work, objectPredicates);
      if (predicates.every((p) => typeof p === "boolean")) return kept;
      const count = d.branches.length;
      const keptSet = new Set(kept);
      for (const p of predicates) predicateKeys(p, keys, valued);
      work.charge(count);
      dynamic.push({
        disjunction: d,
        predicates,
        index: indexBranches(predicates),
        staticKey: indexKey(count, (i) => keptSet.has(d.branches[i]!)),
        allKey: indexKey(count, () => true),
      });
      return kept;
    },
  );
  return {
    notes: notes | work.notes,
    dynamic,
    keys: [...keys],
    valued: [...keys].map((k) => valued.has(k)),
    named: namedMembers(node, work),
  };
}

/**
 * What decides a conditional for an object (see {@link Condition}): a
 * dependent schema's key, or the `if`'s branch predicate, read within
 * CONDITION_BUDGET units of its own; one that costs more (100,000 properties,
 * a huge enum) is undefined: both branches apply, rather than the object's
 * whole info being too complex.
 */
function conditionOf(when: NodeBase | string, work: Work): Condition | undefined {
  if (typeof when === "string") return { predicate: { t: "has", key: when, size: 1 }, exact: true };
  const own = new Work(
    Math.min(CONDITION_BUDGET, work.limit - work.units),
    work.patterns,
    work.interned,
  );
  let condition: Condition | undefined;
  try {
    const p = run(own, new ObjectPredicateOp(), when);
    condition = { predicate: p === DROPPED ? true : p, exact: exactIf(when, own) };
  } catch (e) {
    if (!isWorkExceeded(e)) throw e;
  }
  // A charge past the limit is counted before it throws: what was spent is at most the limit.
  work.charge(Math.min(own.units, own.limit));
  return condition;
}

/** Keywords of an `if` its branch predicate decides exactly (annotations aside). */
const EXACT_IF = new Set(["type", "required", "properties", "title", "description", "$comment"]);
/** Keywords of a member's schema there: a tag. */
const EXACT_TAG = new Set(["const", "enum", "type", "title", "description", "$comment"]);

/**
 * True when the branch predicate of `if` node `n` holds exactly when an
 * object satisfies it: `type`, `required`, and `properties` whose members
 * are `true`, `false` or tags (`const`/`enum` of strings, booleans and null,
 * with a `type` that admits them all). Charged the values it reads.
 */
function exactIf(n: NodeBase, work: Work): boolean {
  if (!(n instanceof SchemaObjectNode)) return true;
  const raw = n.raw;
  if (!Object.keys(raw).every((k) => EXACT_IF.has(k))) return false;
  const properties = ownKeyword(raw, "properties");
  if (properties === undefined) return true;
  if (!isRecord(properties)) return false;
  return Object.keys(properties).every((key) => {
    const tag = properties[key];
    if (typeof tag === "boolean") return true;
    if (!isRecord(tag) || !Object.keys(tag).every((k) => EXACT_TAG.has(k))) return false;
    const values = hasMember(tag, "const") ? [tag.const] : tag.enum;
    if (!Array.isArray(values)) return false;
    work.charge(values.length);
    const types = hasMember(tag, "type") ? typeNames(tag.type) : TAG_TYPES;
    return values.every((v) => v !== undefined && types?.includes(v === null ? "null" : typeof v));
  });
}

const TAG_TYPES: readonly string[] = ["string", "boolean", "null"];

/** See ObjectInfo.named: through every branch, kept or not; undefined as soon as a pattern shows up. */
function namedMembers(node: NodeBase, work: Work): ReadonlySet<string> | undefined {
  const named = new Set<string>();
  const seenObjects = new Set<SchemaObjectNode>();
  let patterned = false;
  traverse(
    node,
    work,
    (expanded) => {
      for (const s of expanded.schemaObjects) {
        if (patterned || seenObjects.has(s)) continue;
        seenObjects.add(s);
        const k = objectKeywordsOf(s);
        if (k.patterns.length > 0) patterned = true;
        else if (k.properties !== undefined) {
          const names = Object.keys(k.properties);
          work.charge(names.length);
          for (const name of names) named.add(name);
        }
      }
    },
    (d) => (patterned ? [] : d.branches),
  );
  return patterned ? undefined : named;
}

export function computeArrayInfo(node: NodeBase, work: Work): ArrayInfo {
  const arrayAdmits = new ArrayAdmitsOp();
  let notes = 0;
  let tail = 0;
  traverse(
    node,
    work,
    (expanded) => {
      notes |= expanded.notes;
      for (const s of expanded.schemaObjects) {
        const prefix = arrayKeywordsOf(s).prefix;
        if (prefix !== undefined && prefix.length > tail) tail = prefix.length;
      }
    },
    (d) => keptForArray(d, work, arrayAdmits),
  );
  return { notes: notes | work.notes, tail };
}

/** The parts of an object value the dynamic predicates look at, as one string (equal strings: equal verdicts). */
export function probeSignature(on: ProbeKeys, probe: ObjectProbe): string {
  let out = "";
  const { keys, valued } = on;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (!probe.has(k)) {
      out += "a";
      continue;
    }
    if (!valued[i]) {
      out += "p";
      continue;
    }
    const v = probe.primitive(k);
    if (v === undefined) out += "c";
    else if (v === null) out += "z";
    else if (typeof v === "string") out += `s${v.length}:${v}`;
    else if (typeof v === "number") out += `n${v};`;
    else out += v ? "t" : "f";
  }
  return out;
}

/**
 * The kept branches of each dynamic disjunction for one object's content,
 * named by a key. Each predicate evaluated is charged its size; with a branch
 * index only the branches the discriminating member's value can match are.
 */
export function selectBranches(
  info: ObjectInfo,
  probe: ObjectProbe,
  work: Work,
): { key: string; view: View | undefined } {
  let key = "";
  let view: Map<Disjunction, readonly NodeBase[]> | undefined;
  for (let j = 0; j < info.dynamic.length; j++) {
    const dynamic = info.dynamic[j]!;
    const d = dynamic.disjunction;
    const predicates = dynamic.predicates;
    const candidates =
      dynamic.index === undefined ? undefined : candidateBranches(dynamic.index, probe);
    let kept = "";
    const condition = dynamic.condition;
    if (condition !== undefined) {
      work.charge(predicateSize(condition.predicate));
      kept = !evalObject(condition.predicate, probe)
        ? "1,"
        : condition.exact
          ? "0,"
          : dynamic.allKey;
    }
    const consider = (i: number) => {
      const p = predicates[i]!;
      work.charge(predicateSize(p));
      if (evalObject(p, probe)) kept += `${i},`;
    };
    if (candidates === undefined) for (let i = 0; i < predicates.length; i++) consider(i);
    else for (const i of candidates) consider(i);
    work.charge();
    if (kept === "") kept = dynamic.allKey;
    if (kept === dynamic.staticKey) continue;
    key += `${j}:${kept};`;
    view ??= new Map();
    view.set(
      d,
      kept
        .split(",")
        .filter((x) => x !== "")
        .map((x) => d.branches[Number(x)]!),
    );
  }
  return { key, view };
}
