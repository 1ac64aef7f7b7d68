// Test helper for the schema reader: walks a plain JSON value the way the
// Struct → JSON writer does and records each number's reading and every note.
import { pointerAppend } from "../src/json-pointer.js";
import type { JsonSchema } from "../src/json-schema.js";
import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/re2.js";
import {
  type CompiledSchema,
  type NumberReading,
  rootNode,
  type SchemaNode,
  SchemaReader,
} from "../src/schema/index.js";

/** Readings by JSON Pointer, and notes as "code at /path". */
export interface Walked {
  readings: Record<string, NumberReading>;
  notes: string[];
}

/**
 * Walks `value` (parsed JSON) under `schema` with one reader (one budget), as
 * the writer does. Patterns are evaluated by re2js unless `patterns` says
 * otherwise (null: no engine).
 */
export function walk(
  schema: JsonSchema | CompiledSchema | null | undefined,
  value: unknown,
  patterns: PatternEngine | null = re2Patterns,
): Walked {
  const { readings, notes } = walkCounted(schema, value, patterns);
  return { readings, notes };
}

/** `walk`, also giving the budget units the call was charged. */
export function walkCounted(
  schema: JsonSchema | CompiledSchema | null | undefined,
  value: unknown,
  patterns: PatternEngine | null = re2Patterns,
): Walked & { units: number } {
  const out: Walked = { readings: {}, notes: [] };
  const reader = new SchemaReader({ patterns: patterns ?? undefined });
  visit(reader, rootNode(schema), value, "", out);
  return { ...out, units: reader.units };
}

function visit(
  reader: SchemaReader,
  node: SchemaNode,
  v: unknown,
  path: string,
  out: Walked,
): void {
  const note = (code: string) => out.notes.push(`${code} at ${path}`);
  if (typeof v === "number") {
    out.readings[path] = reader.numberReading(node, v, note);
  } else if (Array.isArray(v)) {
    const scope = reader.arrayScope(node, v.length, note);
    for (let i = 0; i < v.length; i++)
      visit(reader, scope.child(i), v[i], pointerAppend(path, i), out);
  } else if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    const scope = reader.objectScope(
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
    for (const k of Object.keys(o))
      visit(reader, scope.child(k), o[k], pointerAppend(path, k), out);
  }
}

/** `walk` with schema and value given as JSON text (so `__proto__` keys are ordinary own keys); no budget figure. */
export function walkJson(
  schemaText: string,
  valueText: string,
  patterns: PatternEngine | null = re2Patterns,
): Walked {
  return walk(JSON.parse(schemaText) as JsonSchema, JSON.parse(valueText), patterns);
}
