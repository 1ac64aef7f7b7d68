// The writer's test corpus through every way it can write a call (issue 16):
// (a) the compiled writer as generated code, (b) the same program
// interpreted (runtimes that refuse `new Function`), (c) the walk through
// plans, and (d) the engine alone. Each existing test file is loaded afresh
// under each mode, so its own exact expectations (text, diagnostics, paths,
// errors) must hold through every one.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { WRITER_CORPUS } from "./writer-corpus.js";

type Mode = "generated" | "interpreted" | "walk" | "engine";
const MODES: readonly Mode[] = ["generated", "interpreted", "walk", "engine"];

const CORPUS = WRITER_CORPUS;

for (const mode of MODES) {
  describe(`writer mode: ${mode}`, async () => {
    vi.resetModules();
    const { writerPlans } = await import("../src/struct/writer-plan.js");
    const before = { generated: 0, interpreted: 0 };
    beforeAll(() => {
      Object.assign(before, writerPlans.written);
      writerPlans.enabled = mode !== "engine";
      writerPlans.compiled = mode === "walk" ? "off" : mode === "engine" ? "auto" : mode;
    });
    afterAll(() => {
      writerPlans.enabled = true;
      writerPlans.compiled = "auto";
    });
    for (const file of CORPUS) {
      describe(file, async () => {
        await import(file);
      });
    }
    test("the mode was the one that wrote", () => {
      const generated = writerPlans.written.generated - before.generated;
      const interpreted = writerPlans.written.interpreted - before.interpreted;
      // (A program too large for code is interpreted in every compiled mode.)
      expect({
        generated: generated > 0,
        interpreted: interpreted > 0 || mode === "generated",
      }).toEqual({
        generated: mode === "generated",
        interpreted: mode === "generated" || mode === "interpreted",
      });
    });
  });
}
