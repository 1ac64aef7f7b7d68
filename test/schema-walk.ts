// Test helper for the schema reader: walks a plain JSON value the way the
// Struct → JSON writer does and records each number's reading and every note.
import { pointerAppend } from "../src/json-pointer.js";
import type { JsonSchema } from "../src/json-schema.js";
import {
  arrayScope,
  type CompiledSchema,
  type NumberReading,
  numberReading,
  objectScope,
  rootNode,
  type SchemaNode,
} from "../src/schema/index.js";

/** Readings by JSON Pointer, and notes as "code at /path". */
export interface Walked {
  readings: Record<string, NumberReading>;
  notes: string[];
}

/** Walks `value` (parsed JSON) under `schema`. */
export function walk(
  schema: JsonSchema | CompiledSchema | null | undefined,
  value: unknown,
): Walked {
  const out: Walked = { readings: {}, notes: [] };
  visit(rootNode(schema), value, "", out);
  return out;
}

function visit(node: SchemaNode, v: unknown, path: string, out: Walked): void {
  const note = (code: string) => out.notes.push(`${code} at ${path}`);
  if (typeof v === "number") {
    out.readings[path] = numberReading(node, v, note);
  } else if (Array.isArray(v)) {
    const scope = arrayScope(node, v.length, note);
    for (let i = 0; i < v.length; i++) visit(scope.child(i), v[i], pointerAppend(path, i), out);
  } else if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    const scope = objectScope(
      node,
      {
        has: (k) => Object.hasOwn(o, k),
        primitive: (k) => {
          if (!Object.hasOwn(o, k)) return undefined;
          const m = o[k];
          return m === null || typeof m !== "object"
            ? (m as string | number | boolean | null)
            : undefined;
        },
      },
      note,
    );
    for (const k of Object.keys(o)) visit(scope.child(k), o[k], pointerAppend(path, k), out);
  }
}

/** `walk` with schema and value given as JSON text (so `__proto__` keys are ordinary own keys). */
export function walkJson(schemaText: string, valueText: string): Walked {
  return walk(JSON.parse(schemaText) as JsonSchema, JSON.parse(valueText));
}
