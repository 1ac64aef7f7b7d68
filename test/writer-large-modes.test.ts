// The writer's test corpus through the compiled writer's value form (issue
// 16: a plain value built by ./src/struct/writer-code-value.ts), forced for
// every call whatever its size: written by the native JSON.stringify with the
// runtime's JSON.rawJSON where it has one, and by the package's own writer
// (./src/struct/json-text-writer.ts) with JSON.rawJSON hidden while the
// package is loaded. Each test file is loaded
// afresh, so its own exact expectations (text, diagnostics, paths, errors)
// must hold through the value form too.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { WRITER_CORPUS } from "./writer-corpus.js";

const CORPUS = [...WRITER_CORPUS, "./writer-compiled.test.js"] as const;

type RawJson = { rawJSON?: unknown; isRawJSON?: unknown };
const json = JSON as unknown as RawJson;
const runtimeHasRawJson = typeof json.rawJSON === "function";

for (const texts of ["runtime", "package writer"] as const) {
  describe(`value form, exact texts: ${texts}`, async () => {
    vi.resetModules();
    const saved = { rawJSON: json.rawJSON, isRawJSON: json.isRawJSON };
    // The package looks JSON.rawJSON up once, when loaded: hide it only meanwhile.
    if (texts === "package writer") {
      delete json.rawJSON;
      delete json.isRawJSON;
    }
    let nativeJsonText: unknown;
    try {
      ({ nativeJsonText } = await import("../src/struct/native-json-text.js"));
    } finally {
      if (saved.rawJSON !== undefined) json.rawJSON = saved.rawJSON;
      if (saved.isRawJSON !== undefined) json.isRawJSON = saved.isRawJSON;
    }
    const { compiledOutput } = await import("../src/struct/large-output.js");
    let before = 0;
    beforeAll(() => {
      before = compiledOutput.values;
      compiledOutput.form = "value";
    });
    afterAll(() => {
      compiledOutput.form = "auto";
    });
    for (const file of CORPUS) {
      describe(file, async () => {
        await import(file);
      });
    }
    test("the value form wrote, with the exact texts asked for", () => {
      expect(compiledOutput.values).toBeGreaterThan(before);
      expect(nativeJsonText !== undefined).toBe(texts === "runtime" && runtimeHasRawJson);
    });
  });
}
