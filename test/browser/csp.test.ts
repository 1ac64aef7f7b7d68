// The package under a Content-Security-Policy without 'unsafe-eval' (a page
// served with `script-src 'unsafe-inline'`): code generation is refused, so the
// compiled writer must run as interpreted programs and the schema cache
// compare by walking, with outputs identical to Node's (where code runs).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type DecoderVectorFile, runDecoderVectors } from "../vectors/run-decoder-vectors.js";
import { launchChromium, type TestBrowser } from "./chromium.js";

const VECTORS_TEXT = readFileSync(
  new URL("../vectors/decoder-vectors.json", import.meta.url),
  "utf8",
);
const file = JSON.parse(VECTORS_TEXT) as DecoderVectorFile;
const ENTRY = fileURLToPath(new URL("./fixtures/csp-entry.ts", import.meta.url));
const PAGE = "https://csp.example/";

type Results = ReturnType<typeof runDecoderVectors>;
interface PageResults {
  probe: string;
  runs: Results[];
  written: { generated: number; interpreted: number };
}

let browser: TestBrowser;
let page: PageResults;
let violations: number;

beforeAll(async () => {
  const bundle = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    write: false,
    logLevel: "silent",
    // The vectors as a JavaScript value (JSON text parsed in the page): no eval needed to read them.
    banner: { js: `var VECTORS = JSON.parse(${JSON.stringify(VECTORS_TEXT)});` },
  });
  browser = await launchChromium();
  const tab = await browser.context.newPage();
  // The page, its policy and its one inline script come from a route: nothing
  // reaches the network, and the script runs as the page's own (a script added
  // through the DevTools protocol would not be held to the page's policy).
  const script = bundle.outputFiles[0]!.text.replaceAll("</script", "<\\/script");
  await tab.route(PAGE, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      headers: { "content-security-policy": "script-src 'unsafe-inline'" },
      body:
        "<!doctype html><title>csp</title><script>var cspViolations = 0;" +
        'document.addEventListener("securitypolicyviolation", () => cspViolations++);</script>' +
        `<script>${script}</script>`,
    }),
  );
  await tab.goto(PAGE);
  const out = await tab.evaluate(
    () => (globalThis as unknown as { cspResults?: string }).cspResults ?? "null",
  );
  page = JSON.parse(out) as PageResults;
  // Violation events are queued as tasks: read the count after the queue has run.
  violations = await tab.evaluate(
    () =>
      new Promise<number>((resolve) =>
        setTimeout(
          () => resolve((globalThis as unknown as { cspViolations: number }).cspViolations),
          0,
        ),
      ),
  );
});

afterAll(async () => {
  await browser?.close();
});

describe("under a Content-Security-Policy without 'unsafe-eval' (Chromium)", () => {
  test("the page refuses code generation", () => {
    expect(page.probe).toBe("EvalError");
  });

  test("the package asked the runtime once (one violation report beside this page's own probe)", () => {
    expect(violations).toBe(2);
  });

  test("every run gives what Node gives, where code generation is allowed", () => {
    const node = runDecoderVectors(file);
    expect(page.runs).toHaveLength(3);
    for (const run of page.runs) expect(run).toEqual(node);
  });

  test("the compiled writer ran interpreted, never as generated code", () => {
    expect(page.written.generated).toBe(0);
    expect(page.written.interpreted).toBeGreaterThan(0);
  });
});
