import { StructJsonError } from "../errors.js";
import type { JsonSchema } from "./json-schema.js";
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
    const doc = new Doc(s, rootBase(s));
    c = new Compiled(doc.nodeAt(s, doc.rootBase));
    cache.set(s, c);
  }
  return c as unknown as CompiledSchema;
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
