// Shared by the schema cache's tests (test/schema-cache*.test.ts).
import { expect } from "vitest";
import { type CompiledSchema, compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";

/**
 * Compiles `make()` twice, so that its content is kept (the first schema of a
 * fingerprint is compiled per object, lazily), and returns the kept compiled schema.
 */
export function kept(make: () => Record<string, unknown>): CompiledSchema {
  compileSchema(make() as JsonSchema);
  const c = compileSchema(make() as JsonSchema);
  expect(compileSchema(make() as JsonSchema)).toBe(c);
  return c;
}
