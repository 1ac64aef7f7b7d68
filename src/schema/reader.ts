// The writer-facing calls: one SchemaReader per public call (structToJson,
// inspectNumbers, a raw-text verification), holding that call's budget.
//
// Budget: a call may spend CALL_BUDGET units, plus POSITION_ALLOWANCE for each
// position it asks about (each number read, each object or array scoped, each
// member or element looked up), so the work of a call is bounded by a number
// linear in its arguments. Each question (a node's reading, a member's node,
// an object's or array's info) is answered by one computation whose cost in
// units depends only on the schema and the question (./work.ts); the first
// time a call asks a question it is charged that cost, every later time one
// unit. A compiled schema keeps finished answers with their cost and charges
// that cost again, so a warm schema costs a call exactly what a fresh one
// does: outputs never depend on earlier calls. A question that does not fit
// what is left reads as too complex, and the whole budget is spent.
import type { PatternEngine } from "../patterns/engine.js";
import {
  ArrayAdmitsOp,
  branchPredicatesOf,
  keptForArray,
  keptForObject,
  ObjectPredicateOp,
} from "./branch-filter.js";
import {
  ArrayChildOp,
  arrayKeywordsOf,
  CUT_NODE,
  ObjectChildOp,
  objectKeywordsOf,
  type View,
} from "./children.js";
import {
  type Costed,
  conjunctsOf,
  type Disjunction,
  disjunctionsOf,
  type Expansion,
  expansion,
  K_COMPLEX,
  K_FALSE,
  K_UNDECIDED,
  K_UNKNOWN,
  MAX_ANSWERS,
  NodeBase,
  SchemaObjectNode,
  TOO_COMPLEX_NODE,
  UNDECIDED_NODE,
  UNKNOWN_NODE_IMPL,
} from "./nodes.js";
import {
  conjunction,
  disjunction,
  PUBLIC_READING,
  R_DROP,
  R_NONE,
  R_UNKNOWN,
  type Reading,
  readingBit,
} from "./number-reading.js";
import {
  type BranchIndex,
  candidateBranches,
  evalObject,
  indexBranches,
  type Predicate,
  predicateKeys,
} from "./predicates.js";
import type {
  ArrayScope,
  NoteSink,
  NumberReading,
  ObjectProbe,
  ObjectScope,
  SchemaNode,
} from "./types.js";
import { ownReading } from "./vocabulary.js";
import {
  DROPPED,
  isWorkExceeded,
  type Memo,
  NOTE_COMPLEX,
  NOTE_PATTERN,
  NOTE_UNRESOLVED,
  Op,
  PATTERN_UNDECIDED,
  run,
  Work,
} from "./work.js";

/** Units every call may spend, before the allowance of the positions it reads. */
export const CALL_BUDGET = 20_000;
/** Units added to a call's budget for each position it asks about. */
export const POSITION_ALLOWANCE = 64;

/** Options of a {@link SchemaReader}. */
export interface SchemaReaderOptions {
  /**
   * The engine that evaluates `patternProperties` (e.g. `re2Patterns` from
   * "struct-json-bridge/re2"). Default undefined: a member whose node depends
   * on a pattern reads as unknown and notes `schema-pattern-unevaluated`.
   */
  patterns: PatternEngine | undefined;
}

function emitNotes(bits: number, note: NoteSink): void {
  if ((bits & NOTE_UNRESOLVED) !== 0) note("schema-ref-unresolved");
  if ((bits & NOTE_COMPLEX) !== 0) note("schema-too-complex");
  if ((bits & NOTE_PATTERN) !== 0) note("schema-pattern-unevaluated");
}

/** Op: the number reading of a node, for a whole or a non-whole value. */
class ReadOp extends Op<NodeBase, Reading> {
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
  compute(n: NodeBase, work: Work): Reading {
    if (n.kind === K_UNKNOWN) return R_UNKNOWN;
    if (n.kind === K_FALSE) return R_NONE;
    const expanded = expansion(n, work);
    work.notes |= expanded.notes;
    let r: Reading = expanded.hasFalse ? R_NONE : R_DROP;
    if ((expanded.notes & NOTE_UNRESOLVED) !== 0) r = conjunction(r, R_UNKNOWN);
    for (const s of expanded.schemaObjects) r = conjunction(r, ownReading(s.raw, this.whole));
    let cut = false;
    for (const d of expanded.disjunctions) {
      let mask = 0;
      for (const b of d.branches) {
        const x = isLeaf(b) ? this.leaf(b, work) : run(work, this, b);
        if (x !== DROPPED) mask |= readingBit(x);
      }
      const x = disjunction(mask, this.whole);
      if (x === R_DROP) cut = true;
      r = conjunction(r, x);
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

const EMPTY_OBJECT_SCOPE: ObjectScope = { child: () => UNKNOWN_NODE_IMPL };
const EMPTY_ARRAY_SCOPE: ArrayScope = { child: () => UNKNOWN_NODE_IMPL };

/** A disjunction whose kept branches depend on the object's content. */
interface DynamicDisjunction {
  readonly disjunction: Disjunction;
  readonly predicates: readonly Predicate[];
  /** Branches by a discriminating member's value, when there is one. */
  readonly index: BranchIndex | undefined;
  /** Kept branch indices without looking at the content ("0,2,"). */
  readonly staticKey: string;
  readonly allKey: string;
}

/** What objectScope needs of a node. */
interface ObjectInfo {
  readonly notes: number;
  readonly dynamic: readonly DynamicDisjunction[];
  /** The member keys the dynamic predicates look at, in a fixed order. */
  readonly keys: readonly string[];
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
interface ArrayInfo {
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

function computeObjectInfo(node: NodeBase, work: Work): ObjectInfo {
  const objectPredicates = new ObjectPredicateOp();
  let notes = 0;
  const dynamic: DynamicDisjunction[] = [];
  const keys = new Set<string>();
  traverse(
    node,
    work,
    (expanded) => {
      notes |= expanded.notes;
    },
    (d) => {
      const kept = keptForObject(d, work, objectPredicates);
      if (!d.selectable) return kept;
      const predicates = branchPredicatesOf(d, work, objectPredicates);
      if (predicates.every((p) => typeof p === "boolean")) return kept;
      const count = d.branches.length;
      const keptSet = new Set(kept);
      for (const p of predicates) predicateKeys(p, keys);
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
    named: namedMembers(node, work),
  };
}

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

function computeArrayInfo(node: NodeBase, work: Work): ArrayInfo {
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
function probeSignature(keys: readonly string[], probe: ObjectProbe): string {
  let out = "";
  for (const k of keys) {
    if (!probe.has(k)) {
      out += "a";
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

/** What one call has answered about one node (answers are never undefined). */
interface CallAnswers {
  whole?: unknown;
  fraction?: unknown;
  objectInfo?: unknown;
  arrayInfo?: unknown;
  /** The scope without value-dependent branches, made once per call. */
  staticScope?: ObjectScope;
  selections?: Map<string, unknown>;
  /** By view key, then by member key (UNNAMED: the answer every unnamed key shares). */
  members?: Map<string, Map<string | typeof UNNAMED, unknown>>;
  elements?: Map<number, unknown>;
}

/** The member key every key no `properties` names stands for. */
const UNNAMED: unique symbol = Symbol("unnamed");

/** The map under `key` in `outer`, made on first use. */
function inner<K, L, V>(outer: Map<K, Map<L, V>>, key: K): Map<L, V> {
  let m = outer.get(key);
  if (m === undefined) {
    m = new Map();
    outer.set(key, m);
  }
  return m;
}

/** Marks a question whose answer did not fit the call's budget. */
const TOO_COMPLEX: unique symbol = Symbol("too complex");

let engineCount = 0;
const engineIds = new WeakMap<PatternEngine, number>();

function engineKey(engine: PatternEngine | undefined): string {
  if (engine === undefined) return "";
  let id = engineIds.get(engine);
  if (id === undefined) {
    id = ++engineCount;
    engineIds.set(engine, id);
  }
  return String(id);
}

/**
 * The schema reader of one call: what the schema says at each position the
 * writer walks to, within one budget (see the top of ./reader.ts). Create one
 * per public call; never share one between calls.
 */
export class SchemaReader {
  private remaining = CALL_BUDGET;
  private spent = 0;
  /** This call's answers, per node. */
  private readonly answered = new Map<NodeBase, CallAnswers>();
  /** This call's composites past the document's intern table. */
  private readonly interned = new Map<string, unknown>();
  private readonly patterns: PatternEngine | undefined;
  /** Part of every member question: members depend on the pattern engine. */
  private readonly memberPrefix: string;

  constructor(options?: Partial<SchemaReaderOptions>) {
    this.patterns = options?.patterns;
    this.memberPrefix = `k${engineKey(this.patterns)}|`;
  }

  /** Units this call has been charged so far (deterministic: a function of the schema and the positions read). */
  get units(): number {
    return this.spent;
  }

  private spend(units: number): void {
    this.remaining -= units;
    this.spent += units;
  }

  /** Spends `units` when they fit; else spends what is left and returns false. */
  private afford(units: number): boolean {
    if (units > this.remaining) {
      this.spend(this.remaining);
      return false;
    }
    this.spend(units);
    return true;
  }

  /** Adds one position's allowance to the budget. */
  private grant(): void {
    this.remaining += POSITION_ALLOWANCE;
  }

  /** Answers `question` about `node`: from this call, from the schema's shared answers, or computed. */
  private ask<T>(
    node: NodeBase,
    question: string,
    compute: (work: Work) => T,
  ): T | typeof TOO_COMPLEX {
    const shared = node.answers?.get(question) as Costed<T> | undefined;
    if (shared !== undefined) return this.afford(shared.cost) ? shared.value : TOO_COMPLEX;
    const work = new Work(this.remaining, this.patterns, this.interned);
    try {
      const answer = compute(work);
      this.spend(work.units);
      node.answers ??= new Map();
      if (node.answers.size < MAX_ANSWERS)
        node.answers.set(question, { value: answer, cost: work.units });
      return answer;
    } catch (e) {
      if (!isWorkExceeded(e)) throw e;
      this.spend(this.remaining);
      return TOO_COMPLEX;
    }
  }

  /** What this call has answered about `node`. */
  private answersOf(node: NodeBase): CallAnswers {
    let a = this.answered.get(node);
    if (a === undefined) {
      a = {};
      this.answered.set(node, a);
    }
    return a;
  }

  /** This call's answer in `slot` of `node`'s answers (one unit), else `ask`'s, remembered there. */
  private recallSlot<T>(
    node: NodeBase,
    slot: "whole" | "fraction" | "objectInfo" | "arrayInfo",
    question: string,
    compute: (work: Work) => T,
  ): T | typeof TOO_COMPLEX {
    const mine = this.answersOf(node);
    const known = mine[slot] as T | typeof TOO_COMPLEX | undefined;
    if (known !== undefined) return this.afford(1) ? known : TOO_COMPLEX;
    const answer = this.ask(node, question, compute);
    mine[slot] = answer;
    return answer;
  }

  /** This call's answer under `key` in `mine` (one unit), else `ask`'s, remembered there. */
  private recall<K, T>(
    mine: Map<K, unknown>,
    key: K,
    node: NodeBase,
    question: () => string,
    compute: (work: Work) => T,
  ): T | typeof TOO_COMPLEX {
    const known = mine.get(key) as T | typeof TOO_COMPLEX | undefined;
    if (known !== undefined) return this.afford(1) ? known : TOO_COMPLEX;
    const answer = this.ask(node, question(), compute);
    mine.set(key, answer);
    return answer;
  }

  /** The reading of a number `value` at `node`; notes go to `note`. */
  numberReading(node: SchemaNode, value: number, note: NoteSink): NumberReading {
    if (!(node instanceof NodeBase) || node.isUnknown) return "unknown";
    if (node.kind === K_COMPLEX || node.kind === K_UNDECIDED) {
      emitNotes(node.kind === K_COMPLEX ? NOTE_COMPLEX : NOTE_PATTERN, note);
      return "unknown";
    }
    this.grant();
    const whole = Number.isInteger(value);
    const m = this.recallSlot(
      node,
      whole ? "whole" : "fraction",
      whole ? "w" : "f",
      (work): Memo<Reading> => {
        const r = run(work, new ReadOp(whole), node);
        return { value: r === DROPPED ? R_UNKNOWN : r, notes: work.notes };
      },
    );
    if (m === TOO_COMPLEX) {
      note("schema-too-complex");
      return "unknown";
    }
    if (m.notes !== 0) emitNotes(m.notes, note);
    return PUBLIC_READING[m.value]!;
  }

  /**
   * What an object or array value at `node` needs (its notes emitted);
   * undefined when nothing is known below it.
   */
  private containerInfo<T extends { readonly notes: number }>(
    node: SchemaNode,
    note: NoteSink,
    slot: "objectInfo" | "arrayInfo",
    compute: (node: NodeBase, work: Work) => T,
  ): { node: NodeBase; info: T } | undefined {
    if (!(node instanceof NodeBase) || node.isUnknown) return undefined;
    if (node.kind === K_COMPLEX || node.kind === K_UNDECIDED || node.doc === null) {
      emitNotes(node.kind === K_UNDECIDED ? NOTE_PATTERN : NOTE_COMPLEX, note);
      return undefined;
    }
    this.grant();
    const info = this.recallSlot(node, slot, slot === "objectInfo" ? "o" : "a", (work) =>
      compute(node, work),
    );
    if (info === TOO_COMPLEX) {
      note("schema-too-complex");
      return undefined;
    }
    if (info.notes !== 0) emitNotes(info.notes, note);
    return { node, info };
  }

  /** The scope of an object value at `node`; `probe` lets branch filtering look at its members. */
  objectScope(at: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope {
    const found = this.containerInfo(at, note, "objectInfo", computeObjectInfo);
    if (found === undefined) return EMPTY_OBJECT_SCOPE;
    const { node, info } = found;
    if (info.dynamic.length === 0) {
      const mine = this.answersOf(node);
      mine.staticScope ??= new MemberScope(this, node, info.named, "", undefined);
      return mine.staticScope;
    }
    if (!this.afford(info.keys.length)) {
      note("schema-too-complex");
      return EMPTY_OBJECT_SCOPE;
    }
    const signature = probeSignature(info.keys, probe);
    const selection = this.recall(
      (this.answersOf(node).selections ??= new Map()),
      signature,
      node,
      () => `s${signature}`,
      (work) => selectBranches(info, probe, work),
    );
    if (selection === TOO_COMPLEX) {
      note("schema-too-complex");
      return EMPTY_OBJECT_SCOPE;
    }
    return new MemberScope(this, node, info.named, selection.key, selection.view);
  }

  /**
   * The node of member `key` of an object at `node`, with the branches `view`
   * keeps (`viewKey` names it). A key outside `named` asks the question every
   * such key shares (the answer and its cost are the same for all of them).
   */
  member(
    node: NodeBase,
    named: ReadonlySet<string> | undefined,
    viewKey: string,
    view: View | undefined,
    key: string,
  ): SchemaNode {
    const doc = node.doc!;
    this.grant();
    const shared = named !== undefined && !named.has(key);
    const r = this.recall(
      inner((this.answersOf(node).members ??= new Map()), viewKey),
      shared ? UNNAMED : key,
      node,
      () => (shared ? `u${viewKey}` : `${this.memberPrefix}${viewKey}|${key}`),
      (work) => {
        try {
          const c = run(
            work,
            new ObjectChildOp(doc, key, view ?? null, new ObjectPredicateOp()),
            node,
          );
          return c === DROPPED || c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
        } catch (e) {
          if (e === PATTERN_UNDECIDED) return UNDECIDED_NODE;
          throw e;
        }
      },
    );
    return r === TOO_COMPLEX ? TOO_COMPLEX_NODE : r;
  }

  /** The scope of an array value at `node` (element nodes do not depend on the array's content). */
  arrayScope(at: SchemaNode, _length: number, note: NoteSink): ArrayScope {
    const found = this.containerInfo(at, note, "arrayInfo", computeArrayInfo);
    return found === undefined
      ? EMPTY_ARRAY_SCOPE
      : new ElementScope(this, found.node, found.info.tail);
  }

  /** The node of element `index` of an array at `node`. */
  element(node: NodeBase, index: number): SchemaNode {
    const doc = node.doc!;
    this.grant();
    const r = this.recall(
      (this.answersOf(node).elements ??= new Map()),
      index,
      node,
      () => `i${index}`,
      (work) => {
        const c = run(work, new ArrayChildOp(doc, index, new ArrayAdmitsOp()), node);
        return c === DROPPED || c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
      },
    );
    return r === TOO_COMPLEX ? TOO_COMPLEX_NODE : r;
  }
}

/**
 * The kept branches of each dynamic disjunction for one object's content,
 * named by a key. Each predicate evaluated is charged its size; with a branch
 * index only the branches the discriminating member's value can match are.
 */
function selectBranches(
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

class MemberScope implements ObjectScope {
  constructor(
    private readonly reader: SchemaReader,
    private readonly node: NodeBase,
    private readonly named: ReadonlySet<string> | undefined,
    private readonly viewKey: string,
    private readonly view: View | undefined,
  ) {}
  child(key: string): SchemaNode {
    return this.reader.member(this.node, this.named, this.viewKey, this.view, key);
  }
}

class ElementScope implements ArrayScope {
  constructor(
    private readonly reader: SchemaReader,
    private readonly node: NodeBase,
    private readonly tail: number,
  ) {}
  child(index: number): SchemaNode {
    if (!Number.isInteger(index) || index < 0) return UNKNOWN_NODE_IMPL;
    return this.reader.element(this.node, Math.min(index, this.tail));
  }
}
