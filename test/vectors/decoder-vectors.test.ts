// The shared decoder vectors in Node. test/browser/vectors.test.ts runs the
// same file in Chromium and requires the same outcomes.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { type DecoderVectorFile, runDecoderVector } from "./run-decoder-vectors.js";

// Read as text, not imported: a module transform could turn a "__proto__" key into a prototype.
const file = JSON.parse(
  readFileSync(new URL("./decoder-vectors.json", import.meta.url), "utf8"),
) as DecoderVectorFile;

describe("decoder vectors (Node)", () => {
  test("names are unique", () => {
    const names = file.vectors.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test.each(file.vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    expect(runDecoderVector(v)).toEqual(v.expect);
  });
});
