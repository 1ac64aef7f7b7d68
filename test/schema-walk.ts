// Test helper for the schema reader: walks a plain JSON value the way the
// Struct → JSON writer does and records each number's reading and every note.
import type { JsonValue } from "@bufbuild/protobuf";
import { pointerFrom } from "../src/json-pointer.js";
import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/re2.js";
import { type CompiledSchema, type NumberReading, walkNumbers } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";

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
  const units = walkNumbers(
    value as JsonValue,
    schema,
    (path, _value, reading) => {
      out.readings[pointerFrom(path)] = reading;
    },
    {
      patterns: patterns ?? undefined,
      onNote: (code, path) => out.notes.push(`${code} at ${pointerFrom(path)}`),
      recursionLimit: Number.POSITIVE_INFINITY,
    },
  );
  return { ...out, units };
}

/** `walk` with schema and value given as JSON text (so `__proto__` keys are ordinary own keys); no budget figure. */
export function walkJson(
  schemaText: string,
  valueText: string,
  patterns: PatternEngine | null = re2Patterns,
): Walked {
  return walk(JSON.parse(schemaText) as JsonSchema, JSON.parse(valueText), patterns);
}
