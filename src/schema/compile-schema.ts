import { StructJsonError } from "../errors.js";
import type { JsonSchema, JsonSchemaObject } from "./json-schema.js";
import { isRecord } from "./keywords.js";
import { Doc, FALSE_NODE, type NodeBase, UNKNOWN_NODE_IMPL } from "./nodes.js";
import { rootBase } from "./resolve-ref.js";
import type { SchemaNode } from "./types.js";

declare const compiledSchemaBrand: unique symbol;

/** A tool's JSON Schema prepared for repeated use; opaque. Get one from {@link compileSchema}. */
export interface CompiledSchema {
  readonly [compiledSchemaBrand]: true;
}

class Compiled {
  constructor(readonly root: NodeBase) {}
}

const COMPILED_TRUE = new Compiled(UNKNOWN_NODE_IMPL);
const COMPILED_FALSE = new Compiled(FALSE_NODE);
const cache = new WeakMap<object, Compiled>();

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  return `a ${typeof x}`;
}

/**
 * Prepares a JSON Schema (an object or a boolean) for reading; cached per
 * schema object, and read lazily, position by position, as values need it.
 * Throws `schema-invalid` for anything else.
 */
export function compileSchema(schema: JsonSchema): CompiledSchema {
  const s: unknown = schema;
  if (s instanceof Compiled) return s as unknown as CompiledSchema;
  if (s === true) return COMPILED_TRUE as unknown as CompiledSchema;
  if (s === false) return COMPILED_FALSE as unknown as CompiledSchema;
  if (!isRecord(s)) {
    throw new StructJsonError(
      "schema-invalid",
      "",
      `a JSON Schema is an object or a boolean, not ${describe(s)}`,
    );
  }
  let c = cache.get(s);
  if (c === undefined) {
    c = byContent(s) ?? compileDoc(s);
    cache.set(s, c);
  }
  return c as unknown as CompiledSchema;
}

function compileDoc(s: JsonSchemaObject): Compiled {
  const doc = new Doc(s, rootBase(s));
  return new Compiled(doc.nodeAt(s, doc.rootBase));
}

// Reuse by content: a schema deserialised per call is a new object each time,
// equal to the last. A schema that is plain JSON data (plain objects and
// arrays, strings, finite numbers other than -0, booleans, null; at most
// CONTENT_MAX_VALUES values and CONTENT_MAX_CHARS characters of JSON text) is
// compiled from a private copy and kept by content (from the second schema
// with its fingerprint on: the first is compiled lazily, as every schema was
// before, so a one-off huge schema costs nothing more); anything else (a getter
// that throws, a class instance, a non-enumerable member, a cycle, a function)
// is compiled per object as before. A new object finds its entry by a
// fingerprint (its top-level keys, title and property names) and is then
// compared value by value with the kept copy: one walk, bounded by the copy's
// size, and no text built on a hit. At most CONTENT_CACHE_ENTRIES schemas and
// CONTENT_CACHE_CHARS characters of their JSON text are kept, least recently
// used first out, and at most CONTENT_CANDIDATES share a fingerprint, so
// hostile schemas cannot grow it past a few MiB of copies plus the compiled
// schemas' own answers (bounded per node, see MAX_ANSWERS).

/** Most values (objects, arrays and primitives) of a schema kept by content. */
export const CONTENT_MAX_VALUES = 20_000;
/** Longest JSON text of a schema kept by content. */
export const CONTENT_MAX_CHARS = 256 * 1024;
/** Most compiled schemas kept by content. */
export const CONTENT_CACHE_ENTRIES = 64;
/** Most characters of JSON text kept by content, all entries together. */
export const CONTENT_CACHE_CHARS = 4 * 1024 * 1024;
/** Most kept schemas sharing one fingerprint. */
export const CONTENT_CANDIDATES = 8;

interface ContentEntry {
  /** The private copy, flattened for comparison. */
  readonly flat: readonly unknown[];
  readonly chars: number;
  readonly compiled: Compiled;
}

/** Entries by fingerprint, least recently used fingerprint first. */
const contentIndex = new Map<string, ContentEntry[]>();
let contentEntries = 0;
let contentChars = 0;

/** The compiled schema of a schema equal to `s` (found or made), or undefined when `s` is not plain data. */
function byContent(s: JsonSchemaObject): Compiled | undefined {
  try {
    const print = fingerprint(s);
    const list = contentIndex.get(print);
    if (list === undefined && !seenBefore(print)) {
      // The first schema of its fingerprint is compiled per object, lazily as
      // before: reading it whole could cost more than compiling it does.
      return undefined;
    }
    if (list !== undefined) {
      for (const e of list) {
        if (sameData(s, e.flat)) {
          contentIndex.delete(print);
          contentIndex.set(print, list);
          return e.compiled;
        }
      }
    }
    if (!isPlainData(s)) return undefined;
    const text = JSON.stringify(s);
    if (text.length > CONTENT_MAX_CHARS) return undefined;
    // Compiled from a private copy: a later change to the caller's object cannot reach other callers.
    const copy = JSON.parse(text) as JsonSchemaObject;
    const entry: ContentEntry = {
      flat: flatten(copy),
      chars: text.length,
      compiled: compileDoc(copy),
    };
    remember(print, list, entry);
    return entry.compiled;
  } catch {
    // A getter threw, a cycle, a stack overflow in JSON.stringify: not plain data.
    return undefined;
  }
}

/** Fingerprints met once, most recent last (at most CONTENT_CACHE_ENTRIES × 4). */
const seenPrints = new Set<string>();

/** True when a schema with this fingerprint was met before; remembers it otherwise. */
function seenBefore(print: string): boolean {
  if (seenPrints.has(print)) return true;
  seenPrints.add(print);
  if (seenPrints.size > CONTENT_CACHE_ENTRIES * 4) {
    seenPrints.delete(seenPrints.values().next().value as string);
  }
  return false;
}

function remember(print: string, list: ContentEntry[] | undefined, entry: ContentEntry): void {
  const l = list ?? [];
  if (l.length >= CONTENT_CANDIDATES) forget(l.shift()!);
  l.push(entry);
  contentIndex.delete(print);
  contentIndex.set(print, l);
  contentEntries++;
  contentChars += entry.chars;
  for (const [oldPrint, oldList] of contentIndex) {
    if (contentEntries <= CONTENT_CACHE_ENTRIES && contentChars <= CONTENT_CACHE_CHARS) break;
    if (oldList === l && l.length === 1) break;
    forget(oldList.shift()!);
    if (oldList.length === 0) contentIndex.delete(oldPrint);
  }
}

function forget(e: ContentEntry): void {
  contentEntries--;
  contentChars -= e.chars;
}

/** Top-level keys, title and property names: tells most tools' schemas apart without reading them whole. */
function fingerprint(s: JsonSchemaObject): string {
  let out = (keysUpTo(s, FINGERPRINT_KEYS) ?? []).join("\u0000");
  const title = s.title;
  if (typeof title === "string") out += `\u0001${title.slice(0, 200)}`;
  const properties = s.properties;
  if (isRecord(properties)) {
    out += `\u0001${(keysUpTo(properties, FINGERPRINT_KEYS) ?? []).join("\u0000")}`;
  }
  return out;
}

/** Most keys of one object a fingerprint reads. */
const FINGERPRINT_KEYS = 64;

/** An object in a {@link flatten}ed copy: its keys in order. */
class ObjectShape {
  constructor(readonly keys: readonly string[]) {}
}

/** An array in a {@link flatten}ed copy: its length. */
class ArrayShape {
  constructor(readonly length: number) {}
}

/** A plain-data copy as a list in walk order: shapes for containers, primitives as themselves. */
function flatten(copy: unknown): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) out.push(v);
    else if (Array.isArray(v)) {
      out.push(new ArrayShape(v.length));
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else {
      const keys = Object.keys(v);
      out.push(new ObjectShape(keys));
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push((v as Record<string, unknown>)[keys[i]!]);
    }
  }
  return out;
}

/**
 * True when `a` equals the flattened plain-data copy value for value: same
 * types, same keys in the same order, plain prototypes, no other own
 * properties. Bounded by the copy's size (the walk stops at its end).
 */
function sameData(a: unknown, flat: readonly unknown[]): boolean {
  const stack: unknown[] = [a];
  let at = 0;
  while (stack.length > 0) {
    if (at === flat.length) return false;
    const x = stack.pop();
    const y = flat[at++];
    if (y instanceof ObjectShape) {
      if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
      const proto = Object.getPrototypeOf(x);
      if (proto !== Object.prototype && proto !== null) return false;
      const ky = y.keys;
      const n = ky.length;
      const kx = keysUpTo(x, n);
      if (kx === undefined || kx.length !== n || Object.getOwnPropertyNames(x).length !== n)
        return false;
      for (let i = n - 1; i >= 0; i--) {
        const k = kx[i]!;
        if (k !== ky[i]) return false;
        stack.push((x as Record<string, unknown>)[k]);
      }
    } else if (y instanceof ArrayShape) {
      if (!Array.isArray(x) || Object.getPrototypeOf(x) !== Array.prototype) return false;
      const n = y.length;
      if (x.length !== n) return false;
      for (let i = n - 1; i >= 0; i--) stack.push(x[i]);
    } else if (!Object.is(x, y)) {
      return false;
    }
  }
  return at === flat.length;
}

/**
 * The own enumerable keys of a plain object, in order, or undefined when it
 * has more than `max` or an enumerable inherited one. Stops early: a huge
 * object costs no more than `max` keys (compiling stays lazy).
 */
function keysUpTo(o: object, max: number): string[] | undefined {
  const keys: string[] = [];
  for (const k in o) {
    if (keys.length === max || !Object.hasOwn(o, k)) return undefined;
    keys.push(k);
  }
  return keys;
}

/** True when `root` is plain JSON data, read member by member with a bounded count (no recursion). */
function isPlainData(root: object): boolean {
  const stack: unknown[] = [root];
  // Values counted as they are found, so no object is read past the bound.
  let count = 1;
  while (stack.length > 0) {
    const v = stack.pop();
    switch (typeof v) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(v) || Object.is(v, -0)) return false;
        continue;
      case "object": {
        if (v === null) continue;
        const proto = Object.getPrototypeOf(v);
        if (Array.isArray(v)) {
          if (proto !== Array.prototype) return false;
          // A hole reads as undefined below and refuses the schema.
          if (v.length > CONTENT_MAX_VALUES - count) return false;
          count += v.length;
          for (let i = 0; i < v.length; i++) stack.push(v[i]);
          continue;
        }
        if (proto !== Object.prototype && proto !== null) return false;
        const keys = keysUpTo(v, CONTENT_MAX_VALUES - count);
        if (keys === undefined || Object.getOwnPropertyNames(v).length !== keys.length)
          return false;
        count += keys.length;
        for (const k of keys) stack.push((v as Record<string, unknown>)[k]);
        continue;
      }
      default:
        return false;
    }
  }
  return true;
}

/** True when `x` came from {@link compileSchema}. */
export function isCompiledSchema(x: unknown): x is CompiledSchema {
  return x instanceof Compiled;
}

/** The node of the whole value: null/undefined → unknown; a raw schema is compiled (and cached) first. */
export function rootNode(schema: JsonSchema | CompiledSchema | null | undefined): SchemaNode {
  if (schema === null || schema === undefined) return UNKNOWN_NODE_IMPL;
  const c: unknown = isCompiledSchema(schema) ? schema : compileSchema(schema);
  return (c as Compiled).root;
}
