// The shared decoder vectors in Chromium: the package bundled for the browser
// (esbuild, platform=browser) must give exactly what Node gives. Chromium has
// JSON.rawJSON and Node 20 has not, so this also compares the two ways the
// decoder writes exact number text.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type DecoderVectorFile, runDecoderVectors } from "../vectors/run-decoder-vectors.js";
import { launchChromium, type TestBrowser } from "./chromium.js";

// Read as text, not imported: a module transform could turn a "__proto__" key into a prototype.
const file = JSON.parse(
  readFileSync(new URL("../vectors/decoder-vectors.json", import.meta.url), "utf8"),
) as DecoderVectorFile;
const RUNNER = fileURLToPath(new URL("../vectors/run-decoder-vectors.ts", import.meta.url));

type Results = ReturnType<typeof runDecoderVectors>;

let browser: TestBrowser;
let browserResults: Results;

beforeAll(async () => {
  const bundle = await esbuild.build({
    entryPoints: [RUNNER],
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "decoderVectors",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.goto("about:blank");
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  // Text in and out: structured cloning would drop a "__proto__" key.
  const out = await page.evaluate((json: string) => {
    const g = globalThis as unknown as {
      decoderVectors: { runDecoderVectors: (f: unknown) => unknown };
    };
    return JSON.stringify(g.decoderVectors.runDecoderVectors(JSON.parse(json)));
  }, JSON.stringify(file));
  browserResults = JSON.parse(out) as Results;
});

afterAll(async () => {
  await browser?.close();
});

describe("decoder vectors (Chromium)", () => {
  test("the browser ran every vector", () => {
    expect(browserResults.map((r) => r.name)).toEqual(file.vectors.map((v) => v.name));
  });

  test("Chromium and Node give identical outcomes", () => {
    expect(browserResults).toEqual(runDecoderVectors(file));
  });

  test.each(file.vectors.map((v, i) => [v.name, i] as const))("%s", (_name, i) => {
    expect(browserResults[i]!.outcome).toEqual(file.vectors[i]!.expect);
  });
});
