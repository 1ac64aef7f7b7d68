// The one walk that pairs a plain JSON value with its schema: every number
// with its reading, every note of the reader at its position, within one
// budget (one SchemaReader). Raw-text verification uses it; repair's
// integer-literal rule can (src/repair/integer-literal.ts); the Struct → JSON
// writer (src/struct/to-json.ts) walks Struct messages while building its output and
// asks the same reader the same questions in the same order.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { PatternEngine } from "../patterns/engine.js";
import { PlainProbe } from "../struct/object-probes.js";
import { type CompiledSchema, rootNode } from "./compile-schema.js";
import type { JsonSchema } from "./json-schema.js";
import { SchemaReader } from "./reader.js";
import type { NumberReading, SchemaNode, SchemaNote } from "./types.js";

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
  /** Walk only along these paths (each a list of keys and indices from the root). Default: everywhere. */
  only: readonly (readonly (string | number)[])[] | undefined;
}

/** Paths as a tree: a member is walked when it has an entry. */
type PathTree = Map<string | number, PathTree>;

function pathTree(paths: readonly (readonly (string | number)[])[]): PathTree {
  const root: PathTree = new Map();
  for (const p of paths) {
    let t = root;
    for (const token of p) {
      let next = t.get(token);
      if (next === undefined) {
        next = new Map();
        t.set(token, next);
      }
      t = next;
    }
  }
  return root;
}

/**
 * Walks `value` under `schema`, calling `visit` for every number with the
 * reading the schema gives its position. One budget for the whole walk;
 * returns the units it was charged.
 */
export function walkNumbers(
  value: JsonValue,
  schema: JsonSchema | CompiledSchema | null | undefined,
  visit: NumberVisitor,
  options?: Partial<WalkNumbersOptions>,
): number {
  const reader = new SchemaReader({ patterns: options?.patterns });
  const onNote = options?.onNote;
  const limit = options?.recursionLimit ?? 100;
  const path: (string | number)[] = [];
  const note = onNote === undefined ? () => {} : (code: SchemaNote) => onNote(code, path);
  // Its own stack of containers being walked (no recursion over the value's
  // depth), visiting in the same order as a depth-first walk: each container's
  // scope is asked before its children, children in their order.
  interface Frame {
    readonly list: readonly JsonValue[] | undefined;
    readonly object: JsonObject | undefined;
    readonly keys: readonly string[];
    readonly node: SchemaNode;
    readonly scope: { child(key: string | number): SchemaNode } | undefined;
    readonly depth: number;
    readonly only: PathTree | undefined;
    next: number;
  }
  const frames: Frame[] = [];
  /** Visits a number, or opens a container (its scope asked now); anything else is passed over. */
  const enter = (v: JsonValue, node: SchemaNode, depth: number, only: PathTree | undefined) => {
    if (typeof v === "number") {
      visit(path, v, node.isUnknown ? "unknown" : reader.numberReading(node, v, note));
      return;
    }
    if (typeof v !== "object" || v === null || depth > limit) return;
    if (Array.isArray(v)) {
      const list = v as readonly JsonValue[];
      const scope = node.isUnknown ? undefined : reader.arrayScope(node, list.length, note);
      frames.push({ list, object: undefined, keys: [], node, scope, depth, only, next: 0 });
      return;
    }
    const object = v as JsonObject;
    const scope = node.isUnknown
      ? undefined
      : reader.objectScope(node, new PlainProbe(object), note);
    const keys = Object.keys(object);
    frames.push({ list: undefined, object, keys, node, scope, depth, only, next: 0 });
  };
  const only = options?.only;
  enter(value, rootNode(schema), 1, only === undefined ? undefined : pathTree(only));
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const size = frame.list !== undefined ? frame.list.length : frame.keys.length;
    // Skip children the `only` paths leave out.
    while (frame.next < size && frame.only !== undefined) {
      const token = frame.list !== undefined ? frame.next : frame.keys[frame.next]!;
      if (frame.only.get(token) !== undefined) break;
      frame.next++;
    }
    if (frame.next >= size) {
      frames.pop();
      if (frames.length > 0) path.pop(); // the token it was entered under (the root has none)
      continue;
    }
    const i = frame.next++;
    const token = frame.list !== undefined ? i : frame.keys[i]!;
    const child =
      frame.list !== undefined ? frame.list[i]! : (frame.object as JsonObject)[token as string]!;
    const below = frame.only?.get(token);
    const node = frame.scope === undefined ? frame.node : frame.scope.child(token);
    path.push(token);
    const before = frames.length;
    enter(child, node, frame.depth + 1, below);
    if (frames.length === before) path.pop(); // not a container: its token is done
  }
  return reader.units;
}
