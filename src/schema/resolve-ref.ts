// `$ref` resolution inside one schema document. Nothing is ever fetched: a ref
// that does not land in the document (remote, or pointing nowhere) is
// unresolved. URL exists in browsers and Node alike.

import { parsePointer } from "../json-pointer.js";
import type { JsonSchemaObject } from "./json-schema.js";
import { hasMember, isRecord, isSchema, ownKeyword } from "./keywords.js";
import {
  LIST_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
} from "./vocabulary.js";

/** Base URI of a root schema without `$id`; never fetched (the `.invalid` TLD cannot resolve). */
export const DEFAULT_BASE = "https://schema.invalid/root";

/** A resolved schema and the base URI refs inside it resolve against. */
export interface RefTarget {
  readonly raw: boolean | JsonSchemaObject;
  readonly base: string;
}

/** Resources, anchors and base URIs of one document, found by walking it once. */
export interface SchemaIndex {
  /** Base URI (no fragment) → resource root. */
  readonly resources: ReadonlyMap<string, RefTarget>;
  /** "base#name" → schema with that `$anchor`, `$dynamicAnchor` or draft-07 `$id: "#name"`. */
  readonly anchors: ReadonlyMap<string, RefTarget>;
  /** "base#name" → schema with that `$dynamicAnchor`. */
  readonly dynamicAnchors: ReadonlyMap<string, RefTarget>;
  /** Base URI of each schema object the walk reached. */
  readonly baseOf: WeakMap<object, string>;
}

function parseUrl(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

function stripFragment(href: string): string {
  const i = href.indexOf("#");
  return i < 0 ? href : href.slice(0, i);
}

/** The base URI of a schema object: its `$id` resolved against the parent's base, else the parent's base. */
export function ownBase(schema: JsonSchemaObject, parentBase: string): string {
  const id = ownKeyword(schema, "$id");
  if (typeof id !== "string" || id === "" || id[0] === "#") return parentBase;
  const u = parseUrl(id, parentBase);
  return u === undefined ? parentBase : stripFragment(u.href);
}

/** The base URI of a root schema. */
export function rootBase(schema: JsonSchemaObject): string {
  return ownBase(schema, DEFAULT_BASE);
}

const SINGLE = SINGLE_SUBSCHEMA_KEYWORDS;
const LISTS = LIST_SUBSCHEMA_KEYWORDS;
const MAPS = MAP_SUBSCHEMA_KEYWORDS;

/** Walks every subschema once (iteratively: no stack overflow) and records resources and anchors; first one wins. */
export function buildIndex(root: JsonSchemaObject, base: string): SchemaIndex {
  const resources = new Map<string, RefTarget>();
  const anchors = new Map<string, RefTarget>();
  const dynamicAnchors = new Map<string, RefTarget>();
  const baseOf = new WeakMap<object, string>();
  setOnce(resources, base, root, base);
  const seen = new Set<object>();
  const todo: [JsonSchemaObject, string][] = [[root, base]];
  const add = (x: unknown, b: string) => {
    if (isRecord(x)) todo.push([x, b]);
  };
  while (todo.length > 0) {
    const [s, parentBase] = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    // A new base is a resource (the first one wins); the parent's is one already.
    const b = ownBase(s, parentBase);
    setOnce(resources, b, s, b);
    const id = ownKeyword(s, "$id");
    const frag = typeof id === "string" ? fragmentOf(id) : undefined;
    if (frag && frag[0] !== "/" && parseUrl(id as string, parentBase) !== undefined)
      setOnce(anchors, `${b}#${frag}`, s, b);
    if (!baseOf.has(s)) baseOf.set(s, b);
    const anchor = ownKeyword(s, "$anchor");
    if (typeof anchor === "string") setOnce(anchors, `${b}#${anchor}`, s, b);
    const dyn = ownKeyword(s, "$dynamicAnchor");
    if (typeof dyn === "string") {
      setOnce(anchors, `${b}#${dyn}`, s, b);
      setOnce(dynamicAnchors, `${b}#${dyn}`, s, b);
    }
    for (const k of SINGLE) add(ownKeyword(s, k), b);
    for (const k of LISTS) {
      const v = ownKeyword(s, k);
      if (Array.isArray(v)) for (const x of v) add(x, b);
    }
    for (const k of MAPS) {
      const v = ownKeyword(s, k);
      if (isRecord(v)) for (const key of Object.keys(v)) add(v[key], b);
    }
  }
  return { resources, anchors, dynamicAnchors, baseOf };
}

function setOnce(
  m: Map<string, RefTarget>,
  key: string,
  raw: JsonSchemaObject,
  base: string,
): void {
  if (!m.has(key)) m.set(key, { raw, base });
}

/**
 * The fragment of a ref or `$id` as written, percent-decoded ("" when there is
 * none). Not the URL's: its parser drops tabs and newlines, and trailing spaces,
 * and turns lone surrogates into U+FFFD, so `r.json#/$defs/a ` would reach
 * `$defs.a` where `#/$defs/a ` reaches `$defs["a "]`; a fragment is read alike
 * however the ref's resource is written.
 */
function fragmentOf(ref: string): string | undefined {
  const i = ref.indexOf("#");
  return i < 0 ? "" : decodeFragment(ref.slice(i));
}

/** The fragment without "#", percent-decoded; undefined when the escapes are malformed. */
function decodeFragment(hash: string): string | undefined {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return undefined;
  }
}

/** The document's index, built on first need. */
export type IndexSource = () => SchemaIndex;

/** Resolves a `$ref` against `base`: a resource, a JSON Pointer into one, or an anchor. */
function resolveRef(
  root: RefTarget,
  index: IndexSource,
  ref: string,
  base: string,
): RefTarget | undefined {
  // Fast path, without URL parsing or the index: "#" or "#/..." against the root's base.
  if (ref[0] === "#" && base === root.base && (ref.length === 1 || ref[1] === "/")) {
    const frag = decodeFragment(ref);
    if (frag === undefined) return undefined;
    return frag === "" ? root : walkPointer(root, frag, undefined);
  }
  const u = parseUrl(ref, base);
  if (u === undefined) return undefined;
  const idx = index();
  const resource = idx.resources.get(stripFragment(u.href));
  if (resource === undefined) return undefined;
  const frag = fragmentOf(ref);
  if (frag === undefined) return undefined;
  if (frag === "") return resource;
  if (frag[0] !== "/") return idx.anchors.get(`${resource.base}#${frag}`);
  return walkPointer(resource, frag, idx);
}

/** Follows a JSON Pointer from a resource; the base URI follows any `$id` met on the way. */
function walkPointer(
  resource: RefTarget,
  frag: string,
  index: SchemaIndex | undefined,
): RefTarget | undefined {
  const tokens = parsePointer(frag);
  if (tokens === undefined) return undefined;
  let cur: unknown = resource.raw;
  let curBase = resource.base;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= cur.length) return undefined;
      cur = cur[Number(t)];
    } else if (isRecord(cur) && hasMember(cur, t)) {
      cur = cur[t];
    } else {
      return undefined;
    }
    if (isRecord(cur)) curBase = index?.baseOf.get(cur) ?? ownBase(cur, curBase);
  }
  return isSchema(cur) ? { raw: cur, base: curBase } : undefined;
}

/**
 * Resolves a `$ref`, `$dynamicRef` or `$recursiveRef` (`keyword`) against
 * `base`. `$dynamicRef`: resolved like `$ref`; when the target carries the
 * matching `$dynamicAnchor`, the outermost dynamic scope wins. The reader
 * does not track the dynamic path, so "outermost" is the root resource when
 * it declares that anchor, else the statically resolved target.
 * `$recursiveRef` (2019-09): like `$ref`, but goes to the root when both
 * target and root set `$recursiveAnchor: true`.
 */
export function resolveReference(
  keyword: string,
  root: RefTarget,
  index: IndexSource,
  ref: string,
  base: string,
): RefTarget | undefined {
  const t = resolveRef(root, index, ref, base);
  if (keyword === "$ref" || t === undefined || !isRecord(t.raw)) return t;
  if (keyword === "$dynamicRef") {
    const name = fragmentOf(ref);
    if (name === undefined || name === "" || name[0] === "/") return t;
    if (ownKeyword(t.raw, "$dynamicAnchor") !== name) return t;
    return index().dynamicAnchors.get(`${root.base}#${name}`) ?? t;
  }
  if (ownKeyword(t.raw, "$recursiveAnchor") !== true) return t;
  return isRecord(root.raw) && ownKeyword(root.raw, "$recursiveAnchor") === true ? root : t;
}
