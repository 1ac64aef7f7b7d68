import { resetCodeDetection, runtimeAllowsCode } from "../code-generation.js";
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
 * schema object (looked up by identity first) and, for plain JSON data, by
 * content; read lazily, position by position, as values need it. Throws
 * `schema-invalid` for anything else.
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
    if (s === lastFound) {
      // Found by content twice: the caller keeps this object, so it joins the identity cache.
      c = lastFoundCompiled!;
    } else {
      const found = findByContent(s);
      if (found instanceof Compiled) {
        // A schema deserialised per call is never seen again: entering it in
        // the identity cache would cost more than finding it did. Only the
        // last object found is remembered, in case it comes back.
        lastFound = s;
        lastFoundCompiled = found;
        return found as unknown as CompiledSchema;
      }
      c = (found === undefined ? undefined : keepByContent(s, found)) ?? compileDoc(s);
    }
    cache.set(s, c);
  }
  return c as unknown as CompiledSchema;
}

/**
 * The last object found by content (not entered in the identity cache), and
 * its compiled schema: one object, so at most one of the caller's schemas is
 * kept alive by it.
 */
let lastFound: object | undefined;
let lastFoundCompiled: Compiled | undefined;

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
// that throws, a class instance, a hidden member of a `properties` map, a
// cycle, a function) is compiled per object as before (a member is read as a
// value, so a getter that returns plain data counts as that data). A new
// object is compared first with the schema used last, then with the
// candidates its fingerprint (a number hashed from its top-level keys, title
// and property names, no text built) finds, each in one walk of both in step:
// it stops at the first difference, so it reads no more values than the
// smaller of the two holds. It reads what the schema engine reads (own
// enumerable members, keywords.ts hasMember, each once; arrays through the
// built-in iterator) plus each object's prototype, and allocates nothing but
// the own names of `properties` maps (where the engine looks members up by
// Object.hasOwn). An object found by content is not entered in the identity
// cache (a schema deserialised per call is never seen again) unless it comes
// back as the next object looked up. From an entry's first hit on, where the
// runtime compiles code (not under a Content-Security-Policy without
// 'unsafe-eval'), the same checks run as code generated for that copy
// (GENERATED_MAX_VALUES at most; the walk serves larger ones). At most
// CONTENT_CACHE_ENTRIES schemas and CONTENT_CACHE_CHARS characters of their
// JSON text are kept, least recently used first out, and at most
// CONTENT_CANDIDATES share a fingerprint, so hostile schemas cannot grow it
// past a few MiB of copies plus the compiled schemas' own answers (bounded
// per node, see MAX_ANSWERS), nor make a lookup compare more than
// CONTENT_CANDIDATES + 1 copies. (The engine's own listing of an object's
// keys, for for…in and the own names, is linear in that object's key count.)

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

/**
 * A container of a kept copy: an object's own keys in order and their values,
 * or (keys null) an array's items. One class for both keeps the walk's reads
 * of it monomorphic.
 */
class Kept {
  constructor(
    readonly keys: readonly string[] | null,
    readonly values: readonly KeptValue[],
    /** A `properties` map: compared by its own names too (see {@link walkInStep}). */
    readonly names: boolean,
  ) {}
}

/** A value of a kept copy: containers as the walk reads them, primitives as themselves. */
type KeptValue = Kept | string | number | boolean | null;

/** One schema kept by content. */
class ContentEntry {
  /** Generated at the first hit (see generateComparator); null where the walk serves. */
  compare: Comparator | null | undefined;
  constructor(
    readonly print: number,
    /** The private copy, as the in-step walk reads it. */
    readonly kept: Kept,
    readonly chars: number,
    readonly compiled: Compiled,
  ) {}
}

/** Entries by fingerprint, each list at most CONTENT_CANDIDATES long, least recently used first. */
const contentIndex = new Map<number, ContentEntry[]>();
/** All entries, least recently used first (a Set keeps insertion order), and the last one used. */
const recent = new Set<ContentEntry>();
let newest: ContentEntry | undefined;
let contentChars = 0;

/**
 * The compiled schema of a kept schema equal to `s`; else `s`'s fingerprint
 * when `s` is to be kept (see {@link keepByContent}), or undefined.
 */
function findByContent(s: JsonSchemaObject): Compiled | number | undefined {
  // An enumerable member of Object.prototype would look like a member of
  // every plain object to the comparison's for…in: no sharing in such a realm.
  for (const _ in PLAIN) return undefined;
  try {
    // The schema used last first, without a fingerprint: a tool called again
    // and again is found by one comparison, and any other schema differs from
    // it within a few values.
    const guess = newest;
    if (guess !== undefined && matches(guess, s)) return guess.compiled;
    const print = fingerprint(s);
    const list = contentIndex.get(print);
    if (list === undefined) {
      // The first schema of its fingerprint is compiled per object, lazily as
      // before: reading it whole could cost more than compiling it does.
      if (!seenBefore(print)) return undefined;
    } else {
      // Most recently used first. A getter may shorten the list while we compare.
      for (let i = list.length - 1; i >= 0; i--) {
        const e = list[i];
        if (e === undefined || e === guess) continue;
        if (matches(e, s)) return e.compiled;
      }
    }
    return print;
  } catch {
    // A getter threw, a proxy's trap threw, a stack overflow: not plain data.
    return undefined;
  }
}

/** The compiled schema of a new entry kept for `s`, or undefined when `s` is not plain data. */
function keepByContent(s: JsonSchemaObject, print: number): Compiled | undefined {
  try {
    if (!isPlainData(s)) return undefined;
    const text = JSON.stringify(s);
    if (text.length > CONTENT_MAX_CHARS) return undefined;
    // Compiled from a private copy: a later change to the caller's object cannot reach other callers.
    const copy = JSON.parse(text) as JsonSchemaObject;
    const entry = new ContentEntry(print, keep(copy), text.length, compileDoc(copy));
    remember(entry);
    return entry.compiled;
  } catch {
    // A getter threw, a cycle, a stack overflow in JSON.stringify: not plain data.
    return undefined;
  }
}

/** True when `s` equals the kept copy of `e`, which is then marked as just used. */
function matches(e: ContentEntry, s: JsonSchemaObject): boolean {
  if (!(e.compare ? e.compare(s) : sameContent(s, e.kept))) return false;
  used(e);
  // Reused, so worth code of its own (where the runtime allows it).
  if (e.compare === undefined) e.compare = generateComparator(e.kept);
  return true;
}

/** An empty plain object, to see whether Object.prototype has enumerable members. */
const PLAIN = {};

/** Fingerprints met once, oldest first (at most CONTENT_CACHE_ENTRIES × 4). */
const seenPrints = new Set<number>();

/** True when a schema with this fingerprint was met before; remembers it otherwise. */
function seenBefore(print: number): boolean {
  if (seenPrints.has(print)) return true;
  seenPrints.add(print);
  if (seenPrints.size > CONTENT_CACHE_ENTRIES * 4) {
    seenPrints.delete(seenPrints.values().next().value as number);
  }
  return false;
}

// A getter read during a comparison or a copy may compile other schemas
// meanwhile, so each step below looks its list up again rather than trusting
// one read before.

/** Marks `e` as just used: last in its fingerprint's list and in the least-recently-used list. */
function used(e: ContentEntry): void {
  // The newest entry is always last in its list already.
  if (e === newest) return;
  const list = contentIndex.get(e.print);
  const at = list === undefined ? -1 : list.indexOf(e);
  if (at < 0) return; // evicted meanwhile
  list!.splice(at, 1);
  list!.push(e);
  recent.delete(e);
  recent.add(e);
  newest = e;
}

/** Adds `e` to its fingerprint's list and to the cache, then evicts down to the bounds. */
function remember(e: ContentEntry): void {
  const list = contentIndex.get(e.print);
  if (list === undefined) contentIndex.set(e.print, [e]);
  else {
    if (list.length >= CONTENT_CANDIDATES) forget(list[0]!);
    list.push(e);
  }
  recent.add(e);
  newest = e;
  contentChars += e.chars;
  // The new entry is never evicted: one schema is at most CONTENT_MAX_CHARS, far below the bound.
  for (
    let oldest = recent.values().next().value!;
    (recent.size > CONTENT_CACHE_ENTRIES || contentChars > CONTENT_CACHE_CHARS) && oldest !== e;
    oldest = recent.values().next().value!
  ) {
    forget(oldest);
  }
}

/** Drops `e` from its fingerprint's list, the least-recently-used list and the counts. */
function forget(e: ContentEntry): void {
  const list = contentIndex.get(e.print)!;
  list.splice(list.indexOf(e), 1);
  if (list.length === 0) contentIndex.delete(e.print);
  // Never the newest entry: it is last in its list and in `recent`, and remember() stops before it.
  recent.delete(e);
  contentChars -= e.chars;
}

/** Most keys of one object a fingerprint reads. */
const FINGERPRINT_KEYS = 64;
/** Most characters of one name or title a fingerprint reads. */
const FINGERPRINT_CHARS = 200;

/**
 * A number from the top-level keys, title and property names (FNV-1a over
 * their lengths and characters): tells most tools' schemas apart without
 * reading them whole. Two schemas that share a fingerprint are told apart by
 * the comparison.
 */
function fingerprint(s: JsonSchemaObject): number {
  let h = keysPrint(0x811c9dc5, s);
  const title = s.title;
  if (typeof title === "string") h = namePrint(mix(h, 1), title);
  const properties = s.properties;
  if (isRecord(properties)) h = keysPrint(mix(h, 2), properties);
  return h;
}

function keysPrint(h: number, o: object): number {
  let n = 0;
  for (const k in o) {
    if (n++ === FINGERPRINT_KEYS) break;
    h = namePrint(h, k);
  }
  return mix(h, n);
}

function namePrint(h: number, name: string): number {
  // Every character up to a bound: a fingerprint met before makes a new
  // schema's first object kept at once, so near names must not collide.
  const n = Math.min(name.length, FINGERPRINT_CHARS);
  h = mix(h, name.length);
  for (let i = 0; i < n; i++) h = mix(h, name.charCodeAt(i));
  return h;
}

/** One FNV-1a step. */
function mix(h: number, x: number): number {
  return Math.imul(h ^ x, 0x01000193);
}

/** The kept form of a plain-data copy (made by JSON.parse, so no cycles and no getters). */
function keep(copy: JsonSchemaObject): Kept {
  // Children are filled in after their parent exists: a work list, not recursion (deep schemas).
  const work: { readonly from: unknown[] | Record<string, unknown>; readonly into: KeptValue[] }[] =
    [];
  const container = (v: unknown, key: string | undefined): KeptValue => {
    if (typeof v !== "object" || v === null) return v as KeptValue;
    const into: KeptValue[] = [];
    work.push({ from: v as unknown[] | Record<string, unknown>, into });
    return Array.isArray(v)
      ? new Kept(null, into, false)
      : new Kept(Object.keys(v), into, key === "properties");
  };
  const root = container(copy, undefined) as Kept;
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { from, into } = item;
    if (Array.isArray(from)) for (const v of from) into.push(container(v, undefined));
    else for (const k of Object.keys(from)) into.push(container(from[k], k));
  }
  return root;
}

/**
 * The walk's stack of pending pairs (the caller's container, then its kept
 * one), reused from call to call. Taken while in use: a getter may compile a
 * schema meanwhile, and that walk gets a stack of its own.
 */
let spareStack: unknown[] | undefined = [];

/** Longest stack kept for the next walk; a longer one (a deep schema's) is dropped. */
const SPARE_STACK_LENGTH = 256;

/**
 * True when `a` reads as the kept copy to the schema engine, which reads a
 * schema as JSON would (keywords/keywords.ts): same types, same members (own
 * enumerable string-keyed properties, each read once) in the same order, and
 * arrays read through the built-in iterator. Beyond that, so that the cache
 * shares only plain data: plain prototypes, and no hidden (non-enumerable)
 * member in a `properties` map, where the engine looks members up by
 * Object.hasOwn. Bounded by the smaller of the two: the walk stops at the
 * first difference.
 */
function sameContent(a: object, kept: Kept): boolean {
  const stack = spareStack ?? [];
  spareStack = undefined;
  try {
    return walkInStep(a, kept, stack);
  } finally {
    // Pairs left behind would keep the caller's objects alive.
    if (stack.length <= SPARE_STACK_LENGTH) {
      stack.fill(undefined);
      spareStack = stack;
    }
  }
}

/** The iterator every array of a schema is read through (see {@link sameContent}). */
const ARRAY_ITERATOR = Array.prototype[Symbol.iterator];

function walkInStep(a: object, kept: Kept, stack: unknown[]): boolean {
  let x: object = a;
  let y: Kept = kept;
  let top = 0;
  for (;;) {
    const keys = y.keys;
    const values = y.values;
    const n = values.length;
    if (keys !== null) {
      if (Array.isArray(x)) return false;
      const proto: unknown = Object.getPrototypeOf(x);
      if (proto !== Object.prototype && proto !== null) return false;
      // for…in lists the own enumerable keys, then inherited ones (none: the
      // prototype is plain and findByContent refuses a polluted one).
      let i = 0;
      for (const k in x) {
        if (i === n || k !== keys[i]) return false;
        top = step((x as Record<string, unknown>)[k], values[i++]!, stack, top);
        if (top < 0) return false;
      }
      if (i !== n) return false;
      if (y.names && !sameNames(x, keys)) return false;
    } else {
      if (!Array.isArray(x) || Object.getPrototypeOf(x) !== Array.prototype) return false;
      if ((x as unknown[])[Symbol.iterator] !== ARRAY_ITERATOR || x.length !== n) return false;
      for (let i = 0; i < n; i++) {
        // A hole reads as undefined (or what Array.prototype holds there), never a kept value.
        top = step(x[i], values[i]!, stack, top);
        if (top < 0) return false;
      }
    }
    if (top === 0) return true;
    y = stack[--top] as Kept;
    x = stack[--top] as object;
  }
}

/** True when the own names of `x` (non-enumerable ones too) are exactly `keys`. */
function sameNames(x: object, keys: readonly string[]): boolean {
  const names = Object.getOwnPropertyNames(x);
  if (names.length !== keys.length) return false;
  for (let j = 0; j < keys.length; j++) if (names[j] !== keys[j]) return false;
  return true;
}

/** Compares primitives now, or queues a pair of containers: the stack's new top, or -1 at a difference. */
function step(v: unknown, w: KeptValue, stack: unknown[], top: number): number {
  if (typeof v === "object" && v !== null) {
    // The only objects in a kept copy are Kept containers.
    if (typeof w !== "object" || w === null) return -1;
    stack[top] = v;
    stack[top + 1] = w;
    return top + 2;
  }
  // A kept copy holds no -0 (not plain data) and no NaN (JSON has none).
  return v === w && (v !== 0 || 1 / v > 0) ? top : -1;
}

/** A generated {@link sameContent} for one kept copy. */
type Comparator = (a: object) => boolean;

/**
 * Most values of a kept copy compared by generated code: a bigger function
 * would not be optimised by the engine, and the walk serves it better.
 */
const GENERATED_MAX_VALUES = 500;

/** False when the tests turned generated comparators off (see ../code-generation.ts for the runtime's answer). */
let generating = true;

/**
 * Turns generated comparators on (where the runtime allows them, the
 * default) or off; the tests run their cases both ways. Entries keep the
 * comparator they have.
 */
export function useGeneratedComparators(on: boolean): void {
  generating = on;
  if (on) {
    // Turning them on asks the runtime again (tests replace `Function`).
    resetCodeDetection();
    runtimeAllowsCode();
  }
}

/**
 * The kept copy as straight-line code: each check of {@link walkInStep} with
 * the copy's keys and values written in, so that the engine sees one shape
 * per read (its caches stay monomorphic) and no walk state. Strings and keys
 * go in as JSON string literals, numbers as their shortest text; nothing
 * else of the copy reaches the code. Null when the copy is too big or the
 * runtime compiles no code.
 */
function generateComparator(kept: Kept): Comparator | null {
  if (!generating || !runtimeAllowsCode()) return null;
  const keyLists: (readonly string[])[] = [];
  const code: string[] = [];
  let values = 0;
  let names = 0;
  // Recursion: at most GENERATED_MAX_VALUES deep.
  const emit = (x: string, v: KeptValue): boolean => {
    if (++values > GENERATED_MAX_VALUES) return false;
    if (typeof v !== "object" || v === null) {
      code.push(
        v === 0
          ? `if(${x}!==0||1/${x}<0)return false;`
          : `if(${x}!==${typeof v === "string" ? JSON.stringify(v) : String(v)})return false;`,
      );
      return true;
    }
    code.push(`if(typeof ${x}!=="object"||${x}===null)return false;`);
    const n = v.values.length;
    let post: string[] = [];
    // The built-ins by their global names: the engine inlines them, as it
    // cannot when they come in as arguments. A container's prototype and
    // keys are checked after its members are read: by then the engine knows
    // its shape from those reads, and the prototype is a constant to it.
    if (v.keys === null) {
      code.push(`if(!Array.isArray(${x})||${x}.length!==${n})return false;`);
      post = [
        `if(Object.getPrototypeOf(${x})!==ARRAY||${x}[Symbol.iterator]!==ITERATOR)return false;`,
      ];
    } else {
      const keys = `K[${keyLists.push(v.keys) - 1}]`;
      // Each key position compared with its name written in: no list read per key.
      const cases = v.keys.map(
        (k, j) => `case ${j}:if(k!==${JSON.stringify(k)})return false;continue;`,
      );
      code.push(`if(Array.isArray(${x}))return false;`);
      post = [
        `{const p=Object.getPrototypeOf(${x});if(p!==OBJECT&&p!==null)return false}`,
        `{let i=0;for(const k in ${x}){switch(i++){${cases.join("")}}return false}`,
        `if(i!==${n})return false}`,
      ];
      if (v.names) post.push(`if(!sameNames(${x},${keys}))return false;`);
    }
    for (let i = 0; i < n; i++) {
      const y = `v${++names}`;
      const key = v.keys === null ? String(i) : JSON.stringify(v.keys[i]);
      code.push(`{const ${y}=${x}[${key}];`);
      if (!emit(y, v.values[i]!)) return false;
      code.push("}");
    }
    code.push(...post);
    return true;
  };
  if (!emit("v0", kept)) return null;
  try {
    const make = new Function(
      "K",
      "sameNames",
      "OBJECT",
      "ARRAY",
      "ITERATOR",
      `"use strict";return function sameContent(v0){${code.join("")}return true}`,
    ) as (...args: unknown[]) => Comparator;
    return make(keyLists, sameNames, Object.prototype, Array.prototype, ARRAY_ITERATOR);
  } catch {
    return null;
  }
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
          // The engine reads a list through its iterator, the copy (JSON) by index.
          if (proto !== Array.prototype || v[Symbol.iterator] !== ARRAY_ITERATOR) return false;
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
