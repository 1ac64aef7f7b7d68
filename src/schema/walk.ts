// The one walk that pairs a value with its schema: every container with its
// scope, every member and element with its node, every number with its
// reading, every note of the schema at its position, for both forms of a
// Struct (a plain JSON value, and the message form: `google.protobuf.Value`s
// below the root), through any SchemaSource (a SchemaReader: one budget per
// call; or the writer's plans, ../struct/writer-plan.ts). It keeps its own
// stack (no recursion over the value's depth) and reports what it meets to a
// visitor, in document order, with the path kept current.
//
// Its consumers:
// - the Struct → JSON writer's walk (../struct/to-json.ts, class Writer): text,
//   value and canonical output, held diagnostics, restarts;
// - inspectNumbers (../struct/inspect-numbers.ts): each number with its text
//   and codes;
// - walkNumbers (below): each number with its reading, for raw-text
//   verification (../tool/raw-json.ts) and repair's integer-literal rule
//   (../repair/integer-literal.ts).
// The compiled writer (../struct/writer-program.ts, ../struct/writer-code.ts)
// is this walk specialised to one schema: the same plans resolved ahead of
// the call into a program, which writes exactly what the walk's writer writes
// or gives the call back to it.

import type { JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import type { DiagnosticCode } from "../diagnostics.js";
import { StructJsonError } from "../errors.js";
import { pointerFrom } from "../json-pointer.js";
import { entry, newMap } from "../map-entry.js";
import type { PatternEngine } from "../patterns/engine.js";
import { isDataObject, isObjectData } from "../struct/object-data.js";
import { MemberProbe } from "../struct/object-probes.js";
import { type CompiledSchema, rootNode } from "./compile-schema.js";
import type { JsonSchema } from "./json-schema.js";
import { SchemaReader } from "./reader.js";
import type {
  ArrayScope,
  NoteSink,
  NumberReading,
  ObjectProbe,
  ObjectScope,
  SchemaNode,
  SchemaNote,
} from "./types.js";

/** What a walk asks of the schema at each position: a SchemaReader, or the writer's PlanReader. */
export interface SchemaSource {
  numberReading(node: SchemaNode, value: number, note: NoteSink): NumberReading;
  objectScope(node: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope;
  arrayScope(node: SchemaNode, length: number, note: NoteSink): ArrayScope;
}

/**
 * Receives what {@link walkValue} meets, in document order; the walk's `path`
 * (see {@link WalkOptions.path}) is the position of each event. A child's
 * events: `member` or `element` (its node already asked of the parent's
 * scope), then the notes of its reading, then `number` or `primitive`; or,
 * for a container, `enterObject`/`enterArray`, the notes of its scope, its
 * children, `leave`.
 */
export interface WalkVisitor {
  /** A note of the schema, or `value-unset` (unsetValue "null"), at the current path. */
  readonly note: (code: DiagnosticCode) => void;
  /** Next comes the member `key`, the `index`th of its object. */
  member(key: string, index: number): void;
  /** Next comes element `index` of its array. */
  element(index: number): void;
  /** An object with these own keys opens, `depth` levels deep (the top level is 1). */
  enterObject(keys: readonly string[], depth: number): void;
  /** An array of `length` elements opens. */
  enterArray(length: number, depth: number): void;
  /**
   * A number and its reading ("unknown" where the schema says nothing, and
   * for a value that is not a finite number, which the schema is not asked
   * about: NaN and ±Infinity from binary protobuf, a forged message's content).
   */
  number(value: number, reading: NumberReading): void;
  /** A string, boolean or null (in a forged message: whatever its `kind.value` holds). */
  primitive(value: unknown): void;
  /** The innermost open object or array (`array`) is done. */
  leave(array: boolean): void;
}

/** Paths as a tree: a member is walked when it has an entry. */
export type PathTree = Map<string | number, PathTree>;

/** Options of {@link walkValue}. */
export interface WalkOptions {
  /** True: the value's members and elements are `google.protobuf.Value` messages (the root is an object's fields or an array's values). */
  readonly message: boolean;
  /** Deepest nesting walked (the top level is 1). */
  readonly recursionLimit: number;
  /** A deeper container: "error" throws `recursion-limit` at it; "skip" passes over it. */
  readonly deeper: "error" | "skip";
  /** A value with no kind (or no JSON type): "error" throws `value-unset`; "null" notes `value-unset` and visits null; "skip" passes over it. */
  readonly unsetValue: "error" | "null" | "skip";
  /** Walk only the members and elements with an entry here (see {@link pathTree}); undefined: all. */
  readonly only: PathTree | undefined;
  /**
   * The keys and indices from the root to the current position, kept by the
   * walk for the visitor to read (empty at the start; the walk leaves it as
   * it found it, unless it throws). Errors carry it as a JSON Pointer.
   */
  readonly path: (string | number)[];
}

/** The tree of `paths` (each a list of keys and indices from the root), for {@link WalkOptions.only}. */
export function pathTree(paths: readonly (readonly (string | number)[])[]): PathTree {
  const root: PathTree = new Map();
  for (const p of paths) {
    if (p.length === 0) continue;
    const branch = pathTreeBranch(root, p);
    const last = p[p.length - 1]!;
    if (!branch.has(last)) branch.set(last, new Map());
  }
  return root;
}

/**
 * The branch of `tree` that holds the last of `tokens` (a non-empty path),
 * made as needed: the caller sets that leaf (a marker of its own, say).
 */
export function pathTreeBranch(tree: PathTree, tokens: readonly (string | number)[]): PathTree {
  let t = tree;
  for (let k = 0; k < tokens.length - 1; k++) t = entry(t, tokens[k]!, newMap);
  return t;
}

/** An object or array being walked. */
interface Frame {
  /** The object's members or the array's elements (message form: `Value`s). */
  readonly source: Record<string, unknown> | readonly unknown[];
  /** The object's keys; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  /** The container's node: every child's node when the schema says nothing here. */
  readonly node: SchemaNode;
  /** Undefined when the node is unknown. */
  readonly scope: ObjectScope | ArrayScope | undefined;
  readonly depth: number;
  readonly only: PathTree | undefined;
  /** The next child to walk. */
  next: number;
}

/**
 * Walks `value` (read as a plain JSON value at the top; below it, as
 * `google.protobuf.Value` messages when `options.message`) at schema node
 * `node`, `depth` levels deep, asking `source` at every position and
 * telling `visitor` what it meets. Throws `message-invalid`, `value-unset`
 * and `recursion-limit` (as options say) at the offending path; whatever the
 * source or the visitor throws goes through.
 */
export function walkValue(
  value: unknown,
  node: SchemaNode,
  source: SchemaSource,
  visitor: WalkVisitor,
  options: WalkOptions,
  depth = 1,
): void {
  new Walk(source, visitor, options).run(value, node, depth);
}

/** Why a JsonObject member that is no JSON value is refused: a Date or a Map (../struct/object-data.ts) too. */
const NOT_A_VALUE = "a value is neither null, boolean, number, string, list nor struct";

/** The depth of the first look for a container open twice (a value that contains itself). */
const CYCLE_CHECK_DEPTH = 4096;

/** The JavaScript type of the value each scalar case of a `google.protobuf.Value` holds. */
export const PRIMITIVE_KINDS = {
  numberValue: "number",
  stringValue: "string",
  boolValue: "boolean",
};

/** One walk's state: its own stack of open containers (no recursion over the value's depth). */
class Walk {
  private readonly frames: Frame[] = [];
  /** The depth at which the open containers are next looked over for one met twice. */
  private cycleCheck = CYCLE_CHECK_DEPTH;
  private readonly path: (string | number)[];
  private readonly note: (code: DiagnosticCode) => void;

  constructor(
    private readonly source: SchemaSource,
    private readonly visitor: WalkVisitor,
    private readonly options: WalkOptions,
  ) {
    this.path = options.path;
    this.note = visitor.note;
  }

  run(value: unknown, node: SchemaNode, depth: number): void {
    const { frames, path, visitor } = this;
    const message = this.options.message;
    this.plain(value, node, depth, this.options.only);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const keys = frame.keys;
      const only = frame.only;
      if (only !== undefined) {
        // Pass over the children the `only` paths leave out.
        while (frame.next < frame.length) {
          const token = keys === undefined ? frame.next : keys[frame.next]!;
          if (only.get(token) !== undefined) break;
          frame.next++;
        }
      }
      if (frame.next === frame.length) {
        frames.pop();
        path.pop();
        visitor.leave(keys === undefined);
        continue;
      }
      const i = frame.next++;
      let child: unknown;
      let at: SchemaNode;
      let below: PathTree | undefined;
      if (keys === undefined) {
        path[path.length - 1] = i;
        at = frame.scope === undefined ? frame.node : (frame.scope as ArrayScope).child(i);
        visitor.element(i);
        child = (frame.source as readonly unknown[])[i];
        below = only?.get(i);
      } else {
        const key = keys[i]!;
        path[path.length - 1] = key;
        at = frame.scope === undefined ? frame.node : (frame.scope as ObjectScope).child(key);
        visitor.member(key, i);
        child = (frame.source as Record<string, unknown>)[key];
        below = only?.get(key);
      }
      if (message) this.valueMessage(child, at, frame.depth + 1, below);
      else this.plain(child, at, frame.depth + 1, below);
    }
  }

  private fail(code: "message-invalid" | "value-unset" | "recursion-limit", rule: string): never {
    throw new StructJsonError(code, pointerFrom(this.path), rule);
  }

  /** Pushes the frame of an object or array: depth checked, its scope asked. */
  private open(
    container: Record<string, unknown> | readonly unknown[],
    array: boolean,
    at: SchemaNode,
    level: number,
    only: PathTree | undefined,
  ): void {
    const limit = this.options.recursionLimit;
    let deep = level > limit ? `nesting deeper than recursionLimit ${limit}` : undefined;
    if (level === this.cycleCheck) {
      // A value built in JS may contain itself: it nests without end, and with
      // a recursionLimit in the millions its frames would fill the heap first.
      // Looked for at each doubling of the depth: linear time in all.
      this.cycleCheck *= 2;
      const open = new Set(this.frames.map((f) => f.source));
      if (open.size < this.frames.length || open.has(container))
        deep = "a value contains itself: its nesting has no end";
    }
    if (deep !== undefined) {
      if (this.options.deeper === "skip") return;
      this.fail("recursion-limit", deep);
    }
    let keys: string[] | undefined;
    let scope: ObjectScope | ArrayScope | undefined;
    if (array) {
      const n = (container as readonly unknown[]).length;
      this.visitor.enterArray(n, level);
      // Before the index is pushed: the scope's notes are about the array itself.
      scope = at.isUnknown ? undefined : this.source.arrayScope(at, n, this.note);
    } else {
      keys = Object.keys(container);
      this.visitor.enterObject(keys, level);
      scope = at.isUnknown
        ? undefined
        : this.source.objectScope(
            at,
            new MemberProbe(container as Record<string, unknown>, this.options.message),
            this.note,
          );
    }
    this.frames.push({
      source: container,
      keys,
      length: (keys ?? (container as readonly unknown[])).length,
      node: at,
      scope,
      depth: level,
      only,
      next: 0,
    });
    this.path.push(0);
  }

  private number(v: number, at: SchemaNode): void {
    // v - v is 0 for finite numbers only (NaN, ±Infinity and non-numbers give NaN).
    this.visitor.number(
      v,
      typeof v === "number" && v - v === 0 && !at.isUnknown
        ? this.source.numberReading(at, v, this.note)
        : "unknown",
    );
  }

  private unset(rule: string): void {
    switch (this.options.unsetValue) {
      case "null":
        this.note("value-unset");
        this.visitor.primitive(null);
        return;
      case "skip":
        return;
      default:
        this.fail("value-unset", rule);
    }
  }

  /** A plain JSON value: visited, or its frame pushed. */
  private plain(v: unknown, at: SchemaNode, level: number, only: PathTree | undefined): void {
    switch (typeof v) {
      case "number":
        this.number(v, at);
        return;
      case "string":
      case "boolean":
        this.visitor.primitive(v);
        return;
      case "object":
        if (v === null) this.visitor.primitive(null);
        else if (Array.isArray(v)) this.open(v, true, at, level, only);
        else if (isObjectData(v)) this.open(v as Record<string, unknown>, false, at, level, only);
        else this.unset(NOT_A_VALUE);
        return;
      default:
        this.unset(NOT_A_VALUE);
    }
  }

  /** A `google.protobuf.Value` message: visited, or its frame pushed. */
  private valueMessage(
    v: unknown,
    at: SchemaNode,
    level: number,
    only: PathTree | undefined,
  ): void {
    const kind = (v as Value | undefined)?.kind;
    switch (kind?.case) {
      case "numberValue":
      case "stringValue":
      case "boolValue": {
        // A hand-built message may hold any value under any case: written as
        // it is, `stringValue: 12345` would change the member's JSON type.
        const type = PRIMITIVE_KINDS[kind.case];
        if (typeof kind.value !== type)
          this.fail("message-invalid", `a ${kind.case.replace("V", "_v")} is not a ${type}`);
        if (type === "number") this.number(kind.value as number, at);
        else this.visitor.primitive(kind.value);
        return;
      }
      case "nullValue":
        this.visitor.primitive(null);
        return;
      case "structValue": {
        const fields = (kind.value as Partial<Struct> | undefined)?.fields;
        if (!isDataObject(fields)) {
          this.fail("message-invalid", "a struct_value is not a google.protobuf.Struct");
        }
        this.open(fields, false, at, level, only);
        return;
      }
      case "listValue": {
        const values = (kind.value as Partial<ListValue> | undefined)?.values;
        if (!Array.isArray(values)) {
          this.fail("message-invalid", "a list_value is not a google.protobuf.ListValue");
        }
        this.open(values, true, at, level, only);
        return;
      }
      default:
        this.unset("a google.protobuf.Value has no kind set");
    }
  }
}

/** Receives each number: its path (keys and indices from the root; valid only during the call), value and reading. */
export type NumberVisitor = (
  path: readonly (string | number)[],
  value: number,
  reading: NumberReading,
) => void;

/** Options of {@link walkNumbers}. */
export interface WalkNumbersOptions {
  /** The engine for `patternProperties` (see StructToJsonOptions.patterns). Default: none. */
  patterns: PatternEngine | undefined;
  /** Receives the reader's notes with the path they belong to. Default: ignored. */
  onNote: ((code: SchemaNote, path: readonly (string | number)[]) => void) | undefined;
  /** Deepest nesting walked (the top level is 1); deeper values are not visited. Default 100. */
  recursionLimit: number;
  /** Walk only along these paths (each a list of keys and indices from the root, or their {@link pathTree}). Default: everywhere. */
  only: readonly (readonly (string | number)[])[] | PathTree | undefined;
}

/**
 * Walks the plain JSON `value` under `schema`, calling `visit` for every
 * number with the reading the schema gives its position. One budget for the
 * whole walk; returns the units it was charged.
 */
export function walkNumbers(
  value: JsonValue,
  schema: JsonSchema | CompiledSchema | null | undefined,
  visit: NumberVisitor,
  options?: Partial<WalkNumbersOptions>,
): number {
  const reader = new SchemaReader({ patterns: options?.patterns });
  const path: (string | number)[] = [];
  const only = options?.only;
  const onNote = options?.onNote;
  const ignore = () => {};
  // Numbers and notes only. Only schema notes reach it: unset values are skipped, not noted.
  const visitor: WalkVisitor = {
    note: onNote === undefined ? ignore : (code) => onNote(code as SchemaNote, path),
    member: ignore,
    element: ignore,
    enterObject: ignore,
    enterArray: ignore,
    number: (v, reading) => visit(path, v, reading),
    primitive: ignore,
    leave: ignore,
  };
  walkValue(value, rootNode(schema), reader, visitor, {
    message: false,
    recursionLimit: options?.recursionLimit ?? 100,
    deeper: "skip",
    unsetValue: "skip",
    only: only === undefined ? undefined : only instanceof Map ? only : pathTree(only),
    path,
  });
  return reader.units;
}
