// Writer plans: what the schema says at each position, resolved once per
// schema node and kept beside the compiled schema, so that a call asks the
// schema engine only at value-dependent unions.
//
// A plan holds, per schema node, the answers a SchemaReader gives (a number
// reading per whole/fractional value, an object's or array's notes, each
// member's and element's node) together with the units each answer costs a
// call the first time it is asked. A call through plans adds up those costs
// once per answer it uses (a stamp per answer marks the call that paid) and
// asks a real SchemaReader of its own only at value-dependent unions. While
// the total stays within CALL_BUDGET no question of the call can run out of
// budget, so every answer, note and diagnostic is the one the engine gives
// (see ./schema/reader.ts: a position's allowance always covers its repeat
// charges, so only first-time costs can exhaust a call). The total counts
// every distinct member key in full, where the engine shares one answer
// between keys no `properties` names only when it knows; it can only be
// higher than the engine's. When it passes CALL_BUDGET the call stops and the
// writer redoes it with the engine alone (see to-json.ts), so a call's output
// never depends on plans.
//
// Memory: a plan grows with the schema (named members, prefix items), not with
// the arguments: keys no `properties` names share one answer, and a node whose
// members depend on patterns keeps at most MAX_PLAN_MEMBERS member answers.

import { entry, newWeakMap } from "../map-entry.js";
import type { PatternEngine } from "../patterns/engine.js";
import {
  type ArrayScope,
  CALL_BUDGET,
  type NoteSink,
  type NumberReading,
  type ObjectProbe,
  type ObjectScope,
  type SchemaNode,
  type SchemaNote,
  SchemaReader,
  UNKNOWN_NODE,
} from "../schema/index.js";
import { type Costed, K_COMPLEX, K_UNDECIDED, NodeBase } from "../schema/nodes.js";
import {
  type ArrayInfo,
  type ObjectInfo,
  type ProbeKeys,
  probeSignature,
} from "../schema/object-info.js";
import type { SchemaSource } from "../schema/walk.js";
import { jsonString } from "./exact-number-text.js";

/**
 * Internal switch for tests: false reads every schema through the engine
 * alone (the path a call over budget takes), to compare both paths;
 * `redone` counts calls redone by the engine. `compiled` picks the compiled
 * writer (./writer-program.ts): "auto" generates code where the runtime
 * allows it and interprets the program elsewhere; "generated" and
 * "interpreted" force one ("generated" still interprets where the runtime
 * refuses code); "off" walks every call.
 */
export const writerPlans: {
  enabled: boolean;
  redone: number;
  compiled: "auto" | "generated" | "interpreted" | "off";
  /** Calls the compiled writer wrote, as generated code and interpreted; objects written by a view's program. */
  written: { generated: number; interpreted: number; views: number };
} = {
  enabled: true,
  redone: 0,
  compiled: "auto",
  written: { generated: 0, interpreted: 0, views: 0 },
};

/** Most member answers kept per plan for keys that cannot share one (a node with `patternProperties`). */
export const MAX_PLAN_MEMBERS = 1024;

/** One answer with its notes and its first-time cost; `stamp` is the last call that paid for it. */
interface Answer {
  readonly notes: readonly SchemaNote[];
  readonly cost: number;
  stamp: number;
}

interface ReadingAnswer extends Answer {
  readonly reading: NumberReading;
}

interface ChildAnswer extends Answer {
  readonly plan: NodePlan;
  /** The member's key as JSON text with its colon (named members only). */
  readonly keyText: string | undefined;
}

/** How an object value's members are found at a node. */
const SCOPE_EMPTY = 0; // nothing known below: every member is unknown, at no cost
const SCOPE_STATIC = 1; // the same members whatever the object holds
const SCOPE_VIEWS = 2; // branches depend on the content: one member table per probe signature
const SCOPE_ENGINE = 3; // the engine kept no answer to plan from: the call's own SchemaReader decides

/** Member answers of an object scope (or of one view of it). */
export interface MemberTable extends Answer {
  /** The names `properties` declare; undefined when every key is its own question. */
  readonly named: ReadonlySet<string> | undefined;
  readonly members: Map<string, ChildAnswer>;
  /** The answer every key outside `named` shares. */
  unnamed: ChildAnswer | undefined;
}

interface ObjectAnswer extends MemberTable, ProbeKeys {
  readonly scope: number;
  /** SCOPE_VIEWS: a member table per probe signature (at most MAX_PLAN_VIEWS). */
  readonly views: Map<string, MemberTable>;
}

/** Most views kept per object plan (one per distinct content the branch predicates see). */
export const MAX_PLAN_VIEWS = 64;

export interface ArrayAnswer extends Answer {
  /** SCOPE_EMPTY, SCOPE_STATIC (elements from the plan) or SCOPE_ENGINE (the call's own reader). */
  readonly scope: number;
  /** Elements at or past this index share its node. */
  readonly tail: number;
  readonly elements: (ChildAnswer | undefined)[];
}

/** What the writer knows of one schema node; stands for the node in the walk. */
export class NodePlan implements SchemaNode {
  readonly isUnknown: boolean;
  whole: ReadingAnswer | undefined;
  fraction: ReadingAnswer | undefined;
  object: ObjectAnswer | undefined;
  array: ArrayAnswer | undefined;
  constructor(readonly node: SchemaNode) {
    this.isUnknown = node.isUnknown;
  }
}

const noNote: NoteSink = () => {};
/** A probe of no content: a static member table does not look at the object. */
export const NO_MEMBERS: ObjectProbe = { has: () => false, primitive: () => undefined };

/** Plans by pattern engine (member answers depend on it), then by schema node. */
const plansByEngine = new WeakMap<object, WeakMap<SchemaNode, NodePlan>>();
const NO_ENGINE = {};

/** The plan of `node` for calls with `engine`. */
export function planOf(node: SchemaNode, engine: PatternEngine | undefined): NodePlan {
  return entry(entry(plansByEngine, engine ?? NO_ENGINE, newWeakMap), node, newPlan);
}

function newPlan(node: SchemaNode): NodePlan {
  return new NodePlan(node);
}

/** The shared answer `question` of a node, when the engine kept it. */
function sharedAnswer<T>(node: SchemaNode, question: string): T | undefined {
  if (!(node instanceof NodeBase)) return undefined;
  return (node.answers?.get(question) as Costed<T> | undefined)?.value;
}

/** True when the reader answers nothing below `node` without a budget (see SchemaReader.answer). */
function emptyContainer(node: SchemaNode): boolean {
  return (
    !(node instanceof NodeBase) ||
    node.isUnknown ||
    node.kind === K_COMPLEX ||
    node.kind === K_UNDECIDED ||
    node.doc === null
  );
}

/** Thrown inside a plan walk when its total may pass CALL_BUDGET; the writer redoes the call. */
export const PLAN_OVER_BUDGET: unique symbol = Symbol("plan over budget");

let callCount = 0;

/**
 * The schema source of one call through plans: answers from plans, first-time
 * costs added up, a SchemaReader of its own for value-dependent unions.
 * Throws {@link PLAN_OVER_BUDGET} when the total may pass CALL_BUDGET.
 */
export class PlanReader implements SchemaSource {
  private readonly stamp = ++callCount;
  private spent: number;
  private reader: SchemaReader | undefined;
  /** See {@link takeKeyText}. */
  private keyText: string | undefined;

  /** `spent`: units already charged to the call elsewhere (a compiled writer's bound). */
  constructor(
    private readonly patterns: PatternEngine | undefined,
    spent = 0,
  ) {
    this.spent = spent;
  }

  /** The units this reader has added up (first-time costs, and its own reader's). */
  get units(): number {
    return this.spent + (this.reader === undefined ? 0 : this.reader.units);
  }

  /** The plan to start a walk at. */
  root(node: SchemaNode): NodePlan {
    return planOf(node, this.patterns);
  }

  private fresh(): SchemaReader {
    return new SchemaReader({ patterns: this.patterns });
  }

  private own(): SchemaReader {
    this.reader ??= this.fresh();
    return this.reader;
  }

  private check(): void {
    if (this.units > CALL_BUDGET) throw PLAN_OVER_BUDGET;
  }

  /** Charges `a`'s cost if this call has not paid for it yet, and replays its notes. */
  private use(a: Answer, note: NoteSink | undefined): void {
    if (a.stamp !== this.stamp) {
      a.stamp = this.stamp;
      if (a.cost !== 0) {
        this.spent += a.cost;
        this.check();
      }
    }
    if (note !== undefined) for (const n of a.notes) note(n);
  }

  numberReading(at: SchemaNode, value: number, note: NoteSink): NumberReading {
    const plan = at as NodePlan;
    const whole = Number.isInteger(value);
    let a = whole ? plan.whole : plan.fraction;
    if (a === undefined) {
      let reading: NumberReading = "unknown";
      const measured = this.measure((r, n) => {
        reading = r.numberReading(plan.node, value, n);
      });
      a = { ...measured, reading };
      if (whole) plan.whole = a;
      else plan.fraction = a;
    }
    this.use(a, note);
    return a.reading;
  }

  objectScope(at: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope {
    const plan = at as NodePlan;
    const a = this.objectAnswer(plan);
    switch (a.scope) {
      case SCOPE_STATIC:
        this.use(a, note);
        return new TableScope(this, plan.node, probe, a);
      case SCOPE_VIEWS: {
        const view = this.viewOf(a, plan, probe);
        this.use(view, note);
        return new TableScope(this, plan.node, probe, view);
      }
      case SCOPE_ENGINE: {
        const scope = this.own().objectScope(plan.node, probe, note);
        this.check();
        return new DynamicScope<string>(this, scope);
      }
      default:
        this.use(a, note);
        return EMPTY_PLAN_SCOPE;
    }
  }

  /**
   * The view of `a` (SCOPE_VIEWS) for an object whose content `probe` shows,
   * made on first use (kept in the plan while it holds fewer than
   * MAX_PLAN_VIEWS); a view this call already used charges the predicates'
   * keys again, as the engine does at every object. Its own cost is charged
   * by `use`.
   */
  private viewOf(a: ObjectAnswer, plan: NodePlan, probe: ObjectProbe): MemberTable {
    const signature = probeSignature(a, probe);
    let view = a.views.get(signature);
    if (view === undefined) {
      view = {
        ...this.measure((r, n) => r.objectScope(plan.node, probe, n)),
        named: a.named,
        members: new Map(),
        unnamed: undefined,
      };
      if (a.views.size < MAX_PLAN_VIEWS) a.views.set(signature, view);
    } else if (view.stamp === this.stamp && a.keys.length !== 0) {
      // The engine charges the predicates' keys at every object, not only the first time.
      this.charge(a.keys.length);
    }
    return view;
  }

  /** Adds `units` to the call's total (throws PLAN_OVER_BUDGET when it may pass CALL_BUDGET). */
  charge(units: number): void {
    this.spent += units;
    this.check();
  }

  /**
   * For a compiled writer: the member keys the branch predicates of `plan`
   * look at when an object's members there depend on its content (a
   * value-dependent union) and each view names its members; else undefined.
   */
  viewKeys(plan: NodePlan): ProbeKeys | undefined {
    const a = this.objectAnswer(plan);
    return a.scope === SCOPE_VIEWS && a.named !== undefined ? a : undefined;
  }

  /**
   * For a compiled writer: the member table of the view of `plan` for an
   * object whose content `probe` shows (see {@link viewKeys}), charged and
   * its notes replayed as a call's walk would; undefined (nothing charged)
   * when members there do not depend on the content.
   */
  viewObject(plan: NodePlan, probe: ObjectProbe, note: NoteSink): StaticMembers | undefined {
    if (this.viewKeys(plan) === undefined) return undefined;
    const view = this.viewOf(plan.object!, plan, probe);
    this.use(view, note);
    return { table: view, named: view.named!, empty: false };
  }

  /**
   * What `ask` notes and costs on a fresh reader: an answer no call has paid
   * for yet (see {@link use}).
   */
  private measure(ask: (r: SchemaReader, note: NoteSink) => void): Answer {
    const r = this.fresh();
    const notes: SchemaNote[] = [];
    ask(r, (n) => notes.push(n));
    return { notes, cost: r.units, stamp: 0 };
  }

  /** The object answer of `plan`, made on first use. */
  private objectAnswer(plan: NodePlan): ObjectAnswer {
    if (plan.object !== undefined) return plan.object;
    const node = plan.node;
    // Asked first: the engine's answer it keeps is what the scope is planned from.
    const measured = this.measure((r, n) => r.objectScope(node, NO_MEMBERS, n));
    const empty = emptyContainer(node);
    const info = empty ? undefined : sharedAnswer<ObjectInfo>(node, "o");
    const scope = empty
      ? SCOPE_EMPTY
      : info === undefined
        ? SCOPE_ENGINE
        : info.dynamic.length > 0
          ? SCOPE_VIEWS
          : SCOPE_STATIC;
    plan.object = {
      ...measured,
      scope,
      named: info?.named,
      keys: info?.keys ?? [],
      valued: info?.valued ?? [],
      members: new Map(),
      unnamed: undefined,
      views: new Map(),
    };
    return plan.object;
  }

  /** The plan of member `key` of an object whose members `table` answers (`probe`: the object's content). */
  member(table: MemberTable, node: SchemaNode, probe: ObjectProbe, key: string): NodePlan {
    const shared = table.named !== undefined && !table.named.has(key);
    let m = shared ? table.unnamed : table.members.get(key);
    if (m === undefined) {
      m = this.measureChild(
        (r) => r.objectScope(node, probe, noNote),
        key,
        shared ? undefined : `${jsonString(key)}:`,
      );
      if (shared) table.unnamed = m;
      else if (table.members.size < MAX_PLAN_MEMBERS) table.members.set(key, m);
    }
    this.use(m, undefined);
    this.keyText = m.keyText;
    return m.plan;
  }

  /** The pre-escaped key of the member last planned (once), or undefined. */
  takeKeyText(): string | undefined {
    const k = this.keyText;
    this.keyText = undefined;
    return k;
  }

  private arrayAnswer(plan: NodePlan, length: number): ArrayAnswer {
    let a = plan.array;
    if (a === undefined) {
      const measured = this.measure((r, n) => r.arrayScope(plan.node, length, n));
      const empty = emptyContainer(plan.node);
      const info = empty ? undefined : sharedAnswer<ArrayInfo>(plan.node, "a");
      a = plan.array = {
        ...measured,
        // Not empty and no answer kept (too complex, or the node's answers are full): the engine decides.
        scope: empty ? SCOPE_EMPTY : info === undefined ? SCOPE_ENGINE : SCOPE_STATIC,
        tail: info?.tail ?? 0,
        elements: [],
      };
    }
    return a;
  }

  /**
   * For a compiled writer (./writer-program.ts): the member table of `plan`
   * when an object's members there do not depend on its content, charged and
   * its notes replayed as a call's walk would; undefined (nothing charged)
   * when they do, or when every key is its own question.
   */
  staticObject(plan: NodePlan, note: NoteSink): StaticMembers | undefined {
    const a = this.objectAnswer(plan);
    if (a.scope === SCOPE_EMPTY) {
      this.use(a, note);
      return { table: a, named: EMPTY_NAMES, empty: true };
    }
    if (a.scope !== SCOPE_STATIC || a.named === undefined) return undefined;
    this.use(a, note);
    return { table: a, named: a.named, empty: false };
  }

  /** For a compiled writer: the element answers of `plan` unless the engine decides them per call (as staticObject). */
  staticArray(plan: NodePlan, note: NoteSink): StaticElements | undefined {
    const a = this.arrayAnswer(plan, 0);
    if (a.scope === SCOPE_ENGINE) return undefined;
    this.use(a, note);
    return { answer: a, empty: a.scope === SCOPE_EMPTY, tail: a.tail };
  }

  arrayScope(at: SchemaNode, length: number, note: NoteSink): ArrayScope {
    const plan = at as NodePlan;
    const a = this.arrayAnswer(plan, length);
    if (a.scope === SCOPE_ENGINE) {
      const scope = this.own().arrayScope(plan.node, length, note);
      this.check();
      return new DynamicScope<number>(this, scope);
    }
    this.use(a, note);
    return a.scope === SCOPE_EMPTY ? EMPTY_PLAN_SCOPE : new ElementPlanScope(this, plan.node, a);
  }

  /**
   * A child's answer, measured on a fresh reader: the units its question costs
   * a call the first time, past those of the scope `open` asks for.
   */
  private measureChild<K extends string | number>(
    open: (r: SchemaReader) => { child(at: K): SchemaNode },
    at: K,
    keyText: string | undefined,
  ): ChildAnswer {
    const r = this.fresh();
    const scope = open(r);
    const before = r.units;
    const child = scope.child(at);
    return {
      plan: planOf(child, this.patterns),
      notes: [],
      cost: r.units - before,
      stamp: 0,
      keyText,
    };
  }

  /** The plan of element `index` of an array scope. */
  element(a: ArrayAnswer, node: SchemaNode, index: number): NodePlan {
    const i = Math.min(index, a.tail);
    let e = a.elements[i];
    if (e === undefined) {
      e = this.measureChild((r) => r.arrayScope(node, i + 1, noNote), i, undefined);
      a.elements[i] = e;
    }
    this.use(e, undefined);
    return e.plan;
  }

  /** A member or element node the call's own reader found (value-dependent unions). */
  wrap(node: SchemaNode): NodePlan {
    this.check();
    return planOf(node, this.patterns);
  }
}

const EMPTY_NAMES: ReadonlySet<string> = new Set();

/** What the first object of one content at a value-dependent node costs a call (see {@link viewQuestion}). */
export interface ViewQuestion {
  /** The units the engine charges a call the first time it scopes an object with this content there. */
  readonly cost: number;
  /** Whether that scope has notes. */
  readonly notes: boolean;
  /**
   * Names the branches the content selects: contents with the same selection
   * have the same members (the engine shares their answers too).
   */
  readonly selection: string;
}

/**
 * For a compiled writer: the view question of an object whose content
 * `probe` shows (`signature`: its probeSignature) at `plan`, measured on a
 * fresh reader as {@link PlanReader.objectScope} measures a view.
 */
export function viewQuestion(
  plan: NodePlan,
  probe: ObjectProbe,
  signature: string,
  patterns: PatternEngine | undefined,
): ViewQuestion {
  const r = new SchemaReader({ patterns });
  let notes = false;
  r.objectScope(plan.node, probe, () => {
    notes = true;
  });
  // The engine's selection for this content, when it kept it; else the content names its own.
  const selected = sharedAnswer<{ key: string }>(plan.node, `s${signature}`);
  return {
    cost: r.units,
    notes,
    selection: selected === undefined ? `#${signature}` : `=${selected.key}`,
  };
}

/** An object plan's members for a compiled writer: `named` keys each their own child, every other key one shared child. */
export interface StaticMembers {
  readonly table: MemberTable;
  readonly named: ReadonlySet<string>;
  /** Nothing is known below: every member is unknown. */
  readonly empty: boolean;
}

/** An array plan's elements for a compiled writer: `empty` → every element unknown; else elements at or past `tail` share one. */
export interface StaticElements {
  readonly answer: ArrayAnswer;
  readonly empty: boolean;
  readonly tail: number;
}

/** The plan every position below an unknown one has. */
const UNKNOWN_PLAN = new NodePlan(UNKNOWN_NODE);
const EMPTY_PLAN_SCOPE: ObjectScope & ArrayScope = { child: () => UNKNOWN_PLAN };

class TableScope implements ObjectScope {
  constructor(
    private readonly reader: PlanReader,
    private readonly node: SchemaNode,
    private readonly probe: ObjectProbe,
    private readonly table: MemberTable,
  ) {}
  child(key: string): SchemaNode {
    return this.reader.member(this.table, this.node, this.probe, key);
  }
}

/** A scope the call's own reader found: its children get plans, its costs count in the call's total. */
class DynamicScope<K extends string | number> {
  constructor(
    private readonly reader: PlanReader,
    private readonly scope: { child(at: K): SchemaNode },
  ) {}
  child(at: K): SchemaNode {
    return this.reader.wrap(this.scope.child(at));
  }
}

class ElementPlanScope implements ArrayScope {
  constructor(
    private readonly reader: PlanReader,
    private readonly node: SchemaNode,
    private readonly answer: ArrayAnswer,
  ) {}
  child(index: number): SchemaNode {
    return this.reader.element(this.answer, this.node, index);
  }
}
