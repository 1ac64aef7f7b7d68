// Schema nodes: what the reader holds for one value position. A position's
// node is a formula over schema objects: a schema object (with all of its
// in-place applicators), a conjunction of nodes (All) or a disjunction (Any).
// A node keeps only what does not depend on any call: its keywords, read
// once, its expansion (with what computing it costs), and the answers of
// finished computations with their cost (./reader.ts charges that cost to
// every call that uses them, so sharing them changes no output).
import type { JsonSchemaObject } from "./json-schema.js";
import { isRecord, ownKeyword } from "./keywords.js";
import type { Predicate } from "./predicates.js";
import {
  buildIndex,
  ownBase,
  type RefTarget,
  resolveReference,
  type SchemaIndex,
} from "./resolve-ref.js";
import type { SchemaNode } from "./types.js";
import {
  ALTERNATIVE_KEYWORDS,
  DESCRIBING_KEYWORDS,
  hasAnyKeyword,
  IN_PLACE_KEYWORDS,
  keywordNames,
  ownBranchChecks,
  REFERENCE_KEYWORDS,
} from "./vocabulary.js";
import { NOTE_UNRESOLVED, type Work } from "./work.js";

let nextId = 1;

/** Node kind: describes nothing. */
export const K_UNKNOWN = 0;
/** Node kind: the `false` schema. */
export const K_FALSE = 1;
/** Node kind: too complex to read. */
export const K_COMPLEX = 2;
/** Node kind: one schema object. */
export const K_SCHEMA = 3;
/** Node kind: a conjunction. */
export const K_ALL = 4;
/** Node kind: a disjunction. */
export const K_ANY = 5;
/** Node kind: depends on a pattern that could not be evaluated. */
export const K_UNDECIDED = 6;

/** Most finished answers kept per node (hostile arguments may bring endless distinct keys). */
export const MAX_ANSWERS = 4096;
/** Most composite nodes interned per document (past it, per computation: see `intern`). */
const MAX_INTERNED = 50_000;

/** A finished computation's result and the units it cost from scratch. */
export interface Costed<T> {
  readonly value: T;
  readonly cost: number;
}

/** Base of every node. */
export class NodeBase implements SchemaNode {
  readonly id = nextId++;
  expanded: Expansion | undefined;
  /** Finished answers about this node, by question (see ./reader.ts), shared by every call. */
  answers: Map<string, Costed<unknown>> | undefined;
  constructor(
    readonly kind: number,
    readonly isUnknown: boolean,
    readonly doc: Doc | null,
  ) {}
}

/** Describes nothing. */
export const UNKNOWN_NODE_IMPL = new NodeBase(K_UNKNOWN, true, null);
/** The `false` schema: admits nothing (reads as unknown to the writer). */
export const FALSE_NODE = new NodeBase(K_FALSE, true, null);
/** A position whose schema was too complex to read: every call on it notes `schema-too-complex`. */
export const TOO_COMPLEX_NODE = new NodeBase(K_COMPLEX, false, null);
/** A member whose node depends on a pattern that could not be evaluated: reads as unknown, notes `schema-pattern-unevaluated`. */
export const UNDECIDED_NODE = new NodeBase(K_UNDECIDED, false, null);

/** Marks a `$ref` that did not resolve. */
export const UNRESOLVED: unique symbol = Symbol("unresolved");

/** One schema object, read in the context of its base URI. */
export class SchemaObjectNode extends NodeBase {
  ownConjuncts: readonly (NodeBase | typeof UNRESOLVED)[] | undefined;
  ownDisjunctions: readonly Disjunction[] | undefined;
  /** What its own `const`/`enum` require of a member's value (see ./branch-filter.ts); no budget involved. */
  ownValuePredicate: unknown;
  /** Visit mark of the closure walk. */
  mark = 0;
  constructor(
    doc: Doc,
    readonly raw: JsonSchemaObject,
    readonly base: string,
  ) {
    super(K_SCHEMA, !hasAnyKeyword(raw, DESCRIBING_KEYWORDS), doc);
  }
}

/** A conjunction of nodes (never nested, never fewer than two). */
export class ConjunctionNode extends NodeBase {
  constructor(
    doc: Doc,
    readonly members: readonly NodeBase[],
  ) {
    super(K_ALL, false, doc);
  }
}

/** A disjunction of nodes: the children of an anyOf's branches. */
export class DisjunctionNode extends NodeBase {
  readonly disjunction: Disjunction;
  constructor(doc: Doc, members: readonly NodeBase[]) {
    super(K_ANY, false, doc);
    this.disjunction = new Disjunction(members, true, undefined);
  }
}

/**
 * A disjunction in a node's expansion: `anyOf`, `oneOf`, an Any node, or a
 * conditional: `if`'s [then, else] or a dependent schema's [schema, true].
 */
export class Disjunction {
  readonly id = nextId++;
  constructor(
    readonly branches: readonly NodeBase[],
    /** anyOf/oneOf/Any: branches the value cannot match are set aside; a conditional: never (its condition chooses). */
    readonly selectable: boolean,
    /** Per branch: what the schema object's own keywords require of it (`discriminator`); undefined: nothing. */
    readonly branchChecks: readonly Predicate[] | undefined,
    /**
     * A conditional's choice: the `if` node (branch 0 when a value satisfies
     * it, else branch 1), or a dependent schema's key (branch 0 when an
     * object has it; any other value takes branch 1).
     */
    readonly condition: NodeBase | string | undefined = undefined,
  ) {}

  /** The branches a value other than an object may take (a dependent schema never applies to one). */
  get forOthers(): readonly NodeBase[] {
    return typeof this.condition === "string" ? this.branches.slice(1) : this.branches;
  }
}

/** A node's in-place structure: the schema objects that all apply, and the disjunctions that apply. */
export interface Expansion {
  readonly schemaObjects: readonly SchemaObjectNode[];
  readonly disjunctions: readonly Disjunction[];
  /** Some conjunct is the `false` schema. */
  readonly hasFalse: boolean;
  /** NOTE_UNRESOLVED when a conjunct `$ref` did not resolve. */
  readonly notes: number;
  /** Units charged each time a computation uses this expansion (schema objects the closure visits). */
  readonly cost: number;
}

const EMPTY_EXPANSION: Expansion = {
  schemaObjects: [],
  disjunctions: [],
  hasFalse: false,
  notes: 0,
  cost: 0,
};
const FALSE_EXPANSION: Expansion = {
  schemaObjects: [],
  disjunctions: [],
  hasFalse: true,
  notes: 0,
  cost: 0,
};

/** One compiled schema document: nodes per schema object, the ref index, interned composites. */
export class Doc {
  private index: SchemaIndex | undefined;
  // A Map, not a WeakMap: the keys are this document's own subschemas, alive as
  // long as the document is, and Map is far cheaper for the garbage collector.
  private readonly nodes = new Map<object, SchemaObjectNode | Map<string, SchemaObjectNode>>();
  private readonly interned = new Map<string, NodeBase>();
  constructor(
    readonly root: JsonSchemaObject,
    readonly rootBase: string,
  ) {}

  /** The node of a subschema whose parent's base URI is `parentBase`; undefined when `raw` is not a schema. */
  nodeFor(raw: unknown, parentBase: string): NodeBase | undefined {
    if (raw === true) return UNKNOWN_NODE_IMPL;
    if (raw === false) return FALSE_NODE;
    if (!isRecord(raw)) return undefined;
    return this.nodeAt(raw, ownBase(raw, parentBase));
  }

  /** The node of a schema object whose own base URI is `base`. */
  nodeAt(raw: JsonSchemaObject, base: string): SchemaObjectNode {
    const found = this.nodes.get(raw);
    if (found instanceof SchemaObjectNode) {
      if (found.base === base) return found;
      const m = new Map<string, SchemaObjectNode>([[found.base, found]]);
      this.nodes.set(raw, m);
      return this.fresh(m, raw, base);
    }
    if (found !== undefined) return found.get(base) ?? this.fresh(found, raw, base);
    const n = new SchemaObjectNode(this, raw, base);
    this.nodes.set(raw, n);
    return n;
  }

  private fresh(
    m: Map<string, SchemaObjectNode>,
    raw: JsonSchemaObject,
    base: string,
  ): SchemaObjectNode {
    const n = new SchemaObjectNode(this, raw, base);
    m.set(base, n);
    return n;
  }

  /** Resolves a `$ref`/`$dynamicRef`/`$recursiveRef`; undefined when it does not resolve. */
  resolve(keyword: string, ref: string, base: string): NodeBase | undefined {
    const root: RefTarget = { raw: this.root, base: this.rootBase };
    const index = () => {
      this.index ??= buildIndex(this.root, this.rootBase);
      return this.index;
    };
    const t = resolveReference(keyword, root, index, ref, base);
    if (t === undefined) return undefined;
    if (typeof t.raw === "boolean") return t.raw ? UNKNOWN_NODE_IMPL : FALSE_NODE;
    return this.nodeAt(t.raw, t.base);
  }

  /**
   * Interns a composite so equal formulas share one node (and its answers).
   * Past MAX_INTERNED the computation's own table takes over, so equal
   * formulas are still one node within a call and costs do not depend on how
   * full the document's table is.
   */
  intern(key: string, make: () => NodeBase, local: Map<string, unknown>): NodeBase {
    const found = this.interned.get(key) ?? (local.get(key) as NodeBase | undefined);
    if (found !== undefined) return found;
    const n = make();
    if (this.interned.size < MAX_INTERNED) this.interned.set(key, n);
    else local.set(key, n);
    return n;
  }
}

function sortedUnique(nodes: readonly NodeBase[]): NodeBase[] {
  const out = [...new Set(nodes)];
  out.sort((a, b) => a.id - b.id);
  return out;
}

function internKey(tag: string, nodes: readonly NodeBase[]): string {
  let k = tag;
  for (const n of nodes) k += `${n.id},`;
  return k;
}

/** The disjunction of `members`: `false` members drop out; all unknown → unknown. */
export function makeAny(doc: Doc, members: readonly NodeBase[], work: Work): NodeBase {
  const list = sortedUnique(members.filter((m) => m.kind !== K_FALSE));
  if (list.length === 0) return FALSE_NODE;
  if (list.length === 1) return list[0]!;
  if (list.every((m) => m.isUnknown)) return UNKNOWN_NODE_IMPL;
  work.charge(list.length);
  return doc.intern(internKey("|", list), () => new DisjunctionNode(doc, list), work.interned);
}

/** The conjunction of `members`: unknown members drop out; any `false` → false; nested All flattened. */
export function makeAll(doc: Doc, members: readonly NodeBase[], work: Work): NodeBase {
  const flat: NodeBase[] = [];
  for (const m of members) {
    if (m.kind === K_FALSE) return FALSE_NODE;
    if (m.isUnknown) continue;
    if (m instanceof ConjunctionNode) flat.push(...m.members);
    else flat.push(m);
  }
  const list = sortedUnique(flat);
  if (list.length === 0) return UNKNOWN_NODE_IMPL;
  if (list.length === 1) return list[0]!;
  work.charge(list.length);
  return doc.intern(internKey("&", list), () => new ConjunctionNode(doc, list), work.interned);
}

/** allOf items and `$ref`/`$dynamicRef`/`$recursiveRef` targets (memoized). */
export function conjunctsOf(s: SchemaObjectNode): readonly (NodeBase | typeof UNRESOLVED)[] {
  if (s.ownConjuncts !== undefined) return s.ownConjuncts;
  let out: (NodeBase | typeof UNRESOLVED)[] = NONE;
  if (hasAnyKeyword(s.raw, IN_PLACE_KEYWORDS)) {
    out = [];
    for (const k of IN_PLACE_LIST_KEYWORDS) {
      const items = ownKeyword(s.raw, k);
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        const n = s.doc!.nodeFor(item, s.base);
        if (n !== undefined) out.push(n);
      }
    }
    for (const k of REFERENCE_KEYWORDS) {
      const ref = ownKeyword(s.raw, k);
      if (typeof ref === "string") out.push(s.doc!.resolve(k, ref, s.base) ?? UNRESOLVED);
    }
  }
  s.ownConjuncts = out;
  return out;
}

const NONE: never[] = [];
/** `allOf`: in-place applicators whose value is a list of subschemas. */
const IN_PLACE_LIST_KEYWORDS = keywordNames(
  (k) => k.subschemas?.applies === "in-place" && k.subschemas.shape === "list",
);
/** `anyOf`, `oneOf`: alternatives a value may set aside. */
const SELECTABLE_KEYWORDS = keywordNames(
  (k) => k.subschemas?.applies === "alternatives" && k.selectable === true,
);

/** `dependentSchemas`, `dependencies`: alternatives keyed by a member's name. */
const DEPENDENT_KEYWORDS = keywordNames(
  (k) =>
    k.subschemas?.applies === "alternatives" &&
    k.subschemas.shape === "map" &&
    k.selectable === false,
);

/** anyOf, oneOf, if's then/else and dependent schemas of one schema object (memoized). */
export function disjunctionsOf(s: SchemaObjectNode): readonly Disjunction[] {
  if (s.ownDisjunctions !== undefined) return s.ownDisjunctions;
  if (!hasAnyKeyword(s.raw, ALTERNATIVE_KEYWORDS)) {
    s.ownDisjunctions = NONE;
    return NONE;
  }
  const out: Disjunction[] = [];
  const doc = s.doc!;
  for (const k of SELECTABLE_KEYWORDS) {
    const list = ownKeyword(s.raw, k);
    if (!Array.isArray(list)) continue;
    const branches: NodeBase[] = [];
    const raws: unknown[] = [];
    for (const item of list) {
      const n = doc.nodeFor(item, s.base);
      if (n === undefined) continue;
      branches.push(n);
      raws.push(item);
    }
    if (branches.length > 0) {
      out.push(new Disjunction(branches, true, ownBranchChecks(s.raw, raws)));
    }
  }
  const condition = doc.nodeFor(ownKeyword(s.raw, "if"), s.base);
  if (condition !== undefined) {
    // An absent (or malformed) then/else is `true`: a value the other does not apply to is free.
    const then = doc.nodeFor(ownKeyword(s.raw, "then"), s.base);
    const otherwise = doc.nodeFor(ownKeyword(s.raw, "else"), s.base);
    if (then !== undefined || otherwise !== undefined) {
      const branches = [then ?? UNKNOWN_NODE_IMPL, otherwise ?? UNKNOWN_NODE_IMPL];
      out.push(new Disjunction(branches, false, undefined, condition));
    }
  }
  for (const k of DEPENDENT_KEYWORDS) {
    const map = ownKeyword(s.raw, k);
    if (!isRecord(map)) continue;
    for (const key of Object.keys(map)) {
      // `dependencies` also holds lists of names (dependentRequired): no schema, nothing to read.
      const n = doc.nodeFor(map[key], s.base);
      if (n === undefined || n.isUnknown) continue;
      out.push(new Disjunction([n, UNKNOWN_NODE_IMPL], false, undefined, key));
    }
  }
  s.ownDisjunctions = out;
  return out;
}

/**
 * A node's expansion (memoized): for a schema object, every schema object
 * reachable through allOf and refs (a set, so conjunct cycles terminate) with
 * their disjunctions; for All, the union of its members'; for Any, its one
 * disjunction.
 */
export function expansion(node: NodeBase, work: Work): Expansion {
  const e = expansionOf(node);
  if (e.cost !== 0) work.charge(e.cost);
  return e;
}

/** The expansion, computed once per node; its cost is charged by `expansion` at every use. */
function expansionOf(node: NodeBase): Expansion {
  if (node.expanded !== undefined) return node.expanded;
  let e: Expansion;
  if (node instanceof SchemaObjectNode) e = closure(node);
  else if (node instanceof ConjunctionNode) e = merge(node.members);
  else if (node instanceof DisjunctionNode)
    e = { schemaObjects: [], disjunctions: [node.disjunction], hasFalse: false, notes: 0, cost: 0 };
  else e = node.kind === K_FALSE ? FALSE_EXPANSION : EMPTY_EXPANSION;
  node.expanded = e;
  return e;
}

let closureMark = 0;

function closure(start: SchemaObjectNode): Expansion {
  const first = conjunctsOf(start);
  if (first.length === 0)
    return {
      schemaObjects: [start],
      disjunctions: disjunctionsOf(start),
      hasFalse: false,
      notes: 0,
      cost: 0,
    };
  const schemaObjects: SchemaObjectNode[] = [];
  const disjunctions: Disjunction[] = [];
  let hasFalse = false;
  let notes = 0;
  // A mark per closure instead of a Set: this loop may visit many nodes.
  const mark = ++closureMark;
  const todo: SchemaObjectNode[] = [start];
  while (todo.length > 0) {
    const s = todo.pop()!;
    if (s.mark === mark) continue;
    s.mark = mark;
    schemaObjects.push(s);
    for (const c of conjunctsOf(s)) {
      if (c === UNRESOLVED) notes |= NOTE_UNRESOLVED;
      else if (c.kind === K_FALSE) hasFalse = true;
      else if (c instanceof SchemaObjectNode) todo.push(c);
    }
    for (const d of disjunctionsOf(s)) disjunctions.push(d);
  }
  return { schemaObjects, disjunctions, hasFalse, notes, cost: schemaObjects.length };
}

function merge(members: readonly NodeBase[]): Expansion {
  const schemaObjects = new Set<SchemaObjectNode>();
  const disjunctions = new Set<Disjunction>();
  let hasFalse = false;
  let notes = 0;
  let cost = 0;
  for (const m of members) {
    const e = expansionOf(m);
    cost += e.cost;
    for (const s of e.schemaObjects) schemaObjects.add(s);
    for (const d of e.disjunctions) disjunctions.add(d);
    hasFalse ||= e.hasFalse;
    notes |= e.notes;
  }
  return {
    schemaObjects: [...schemaObjects],
    disjunctions: [...disjunctions],
    hasFalse,
    notes,
    cost,
  };
}
