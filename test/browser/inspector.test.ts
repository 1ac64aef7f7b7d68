// The built inspector page in Chromium: a bundled example with ids above 2^53
// and a whole float in a float field, the readings it shows, a screenshot; and
// a live StreamActions subscription over Connect-Web decoded in the page.

import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadModelCalls } from "../../examples/demo/model-calls.js";
import { demoWebActions } from "../../examples/demo/web-server.js";
import { type InspectorServer, startInspector } from "../../examples/inspector/serve.js";
import demoTools from "../../examples/inspector/src/demo-tools.json" with { type: "json" };
import { type JsonSchema, toolCallToJson } from "../../src/index.js";
import type { CallMCPTool } from "../../src/messages.js";
import { launchChromium, type TestBrowser } from "./chromium.js";

const ARTIFACTS = "test-results";
const TICKET =
  '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740997,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2.0,"watcher_ids":[18014398509481985,42]}}';

let server: InspectorServer;
let browser: TestBrowser;
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "sjb-inspector-"));
  server = await startInspector({ port: 0, outDir, live: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
});

/** Opens the page and fails on any console error or failed request (the page must work offline). */
async function openPage(query = ""): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("request", (r) => {
    if (!r.url().startsWith("http://127.0.0.1:")) problems.push(`outside request: ${r.url()}`);
  });
  const url = new URL(server.url);
  for (const [k, v] of new URLSearchParams(query)) url.searchParams.set(k, v);
  await page.goto(url.toString());
  await page.waitForSelector("body[data-ready=true]");
  return { page, problems };
}

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).textContent()) ?? "";

/** The text of each item of a list. */
const items = (page: Page, selector: string) =>
  page.$$eval(`${selector} > li`, (lis) => lis.map((li) => li.textContent));

/** [path, text, mark] of every number in the bridge's output. */
const marks = (page: Page) =>
  page.$$eval("#bridge-output .num", (spans) =>
    spans.map((s) => [
      (s as HTMLElement).dataset.path,
      s.textContent,
      (s as HTMLElement).dataset.mark,
    ]),
  );

/** [mark, the count in its swatch] of every legend item, in the legend's order. */
const legend = (page: Page) =>
  page.$$eval("#legend > li", (lis) =>
    lis.map((li) => [(li as HTMLElement).dataset.mark, li.querySelector(".num")?.textContent]),
  );

/** The legend with `counts` for the given marks and 0 for every other mark. */
const legendWith = (counts: Record<string, number>) =>
  [
    "integer restored",
    "number",
    "ambiguous",
    "unknown",
    "precision lost",
    "written-as-float",
    "not an integer",
  ].map((mark) => [mark, String(counts[mark] ?? 0)]);

describe("inspector page", () => {
  test("pasting the ticket example: exact output, readings, raw text verified", async () => {
    const { page, problems } = await openPage();
    await page.selectOption("#example", "ticket-raw");
    const pasted = await page.inputValue("#message");
    // Paste it again by hand, the way a user would.
    await page.fill("#message", "");
    await page.fill("#message", pasted);

    expect(await page.locator("#bridge-output").textContent()).toBe(TICKET);
    expect(await page.getAttribute("#raw-status", "data-status")).toBe("verified");
    expect(await text(page, "#summary")).toBe(
      "ClientAction · binary · action call_Xe1Jw6uN3r · tool create_ticket · inputSchema of tool create_ticket",
    );
    expect(await marks(page)).toEqual([
      ["/ticket/assignee/user_id", "9007199254740997", "integer restored"],
      ["/ticket/location/line", "88", "integer restored"],
      ["/ticket/location/column", "5", "integer restored"],
      ["/ticket/estimate_hours", "2.0", "number"],
      ["/ticket/watcher_ids/0", "18014398509481985", "integer restored"],
      ["/ticket/watcher_ids/1", "42", "integer restored"],
    ]);
    expect(await page.locator("#plain-output").textContent()).toBe(
      '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740996,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2,"watcher_ids":[18014398509481984,42]}}',
    );
    expect(
      await page.$$eval("#plain-output .num.differs", (s) =>
        s.map((e) => (e as HTMLElement).dataset.path),
      ),
    ).toEqual(["/ticket/assignee/user_id", "/ticket/estimate_hours", "/ticket/watcher_ids/0"]);
    const rows = await page.$$eval("#numbers tbody tr", (trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      [
        "/ticket/assignee/user_id",
        "9007199254740996",
        "integer",
        "9007199254740997",
        "9007199254740996",
        "integer restored",
        "",
        "integer-precision-lost",
      ],
      ["/ticket/location/line", "88", "integer", "88", "88", "integer restored", "", ""],
      ["/ticket/location/column", "5", "integer", "5", "5", "integer restored", "", ""],
      ["/ticket/estimate_hours", "2", "number", "2.0", "2", "number", "", ""],
      [
        "/ticket/watcher_ids/0",
        "18014398509481984",
        "integer",
        "18014398509481985",
        "18014398509481984",
        "integer restored",
        "",
        "integer-precision-lost",
      ],
      ["/ticket/watcher_ids/1", "42", "integer", "42", "42", "integer restored", "", ""],
    ]);
    expect(await items(page, "#diagnostics")).toEqual(["none"]);
    // The legend counts the marks of this output: never a sample number.
    expect(await legend(page)).toEqual(legendWith({ "integer restored": 5, number: 1 }));
    expect(await page.locator("#legend > li.unused").count()).toBe(5);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "inspector.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the same call without raw_args_json: the schema path alone, losses marked", async () => {
    const { page, problems } = await openPage("example=ticket-struct");
    expect(await page.locator("#bridge-output").textContent()).toBe(
      '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740996,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2.0,"watcher_ids":[18014398509481984,42]}}',
    );
    expect(await page.getAttribute("#raw-status", "data-status")).toBe("absent");
    expect(await marks(page)).toEqual([
      ["/ticket/assignee/user_id", "9007199254740996", "precision lost"],
      ["/ticket/location/line", "88", "integer restored"],
      ["/ticket/location/column", "5", "integer restored"],
      ["/ticket/estimate_hours", "2.0", "number"],
      ["/ticket/watcher_ids/0", "18014398509481984", "precision lost"],
      ["/ticket/watcher_ids/1", "42", "integer restored"],
    ]);
    expect(await items(page, "#diagnostics")).toEqual([
      "/ticket/assignee/user_id integer-precision-lost",
      "/ticket/watcher_ids/0 integer-precision-lost",
    ]);
    expect(await legend(page)).toEqual(
      legendWith({ "integer restored": 3, number: 1, "precision lost": 2 }),
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  test("raw text that disagrees with the Struct is refused, with its path", async () => {
    const { page } = await openPage("example=raw-mismatch");
    expect(await page.getAttribute("#raw-status", "data-status")).toBe("mismatch");
    expect(await page.getAttribute("#report", "data-state")).toBe("refused");
    expect(await text(page, "#error")).toMatch(/^raw-struct-mismatch at \/column: /);
    expect(await page.locator("#bridge-output").textContent()).toBe("");
    // Nothing is written, but the table still lists the Struct's numbers: the legend counts those rows.
    expect(await page.locator("#numbers tbody tr").count()).toBe(2);
    expect(await legend(page)).toEqual(legendWith({ "integer restored": 2 }));
    await page.close();
  });

  test("an integer the model wrote as 300.0 is marked written-as-float", async () => {
    const { page } = await openPage("example=alert-written-as-float");
    expect(await page.locator("#bridge-output").textContent()).toBe(
      '{"metric":"p99_latency_ms","threshold":1.0,"window_seconds":300.0,"severity":null}',
    );
    expect(await marks(page)).toEqual([
      ["/threshold", "1.0", "number"],
      ["/window_seconds", "300.0", "written-as-float"],
    ]);
    expect(await items(page, "#diagnostics")).toEqual(["/window_seconds integer-written-as-float"]);
    expect(await legend(page)).toEqual(legendWith({ number: 1, "written-as-float": 1 }));
    await page.close();
  });

  test("markup in the arguments stays text", async () => {
    const { page, problems } = await openPage();
    const raw = '{"s":"<img src=x onerror=\\"document.title=1\\">","n":1}';
    await page.fill("#schema", "");
    await page.fill(
      "#message",
      JSON.stringify({ name: "t", args: JSON.parse(raw), rawArgsJson: raw }),
    );
    expect(await page.locator("#bridge-output").textContent()).toBe(raw);
    expect(await page.locator("#report img").count()).toBe(0);
    expect(await page.title()).toBe("struct-json-bridge inspector");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("garbage input gets a clear message, not a crash", async () => {
    const { page, problems } = await openPage();
    await page.fill("#message", "not base64 at all!");
    expect(await page.getAttribute("#report", "data-state")).toBe("error");
    expect(await text(page, "#error")).toBe(
      "not base64 and not ProtoJSON: paste binary protobuf as base64, or a ProtoJSON object",
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("live StreamActions over Connect-Web", () => {
  const calls = loadModelCalls();
  const tools = demoTools.tools as readonly { name: string; inputSchema: JsonSchema }[];

  test.each(["connect", "grpc-web"])(
    "decodes the demo stream in the page (%s)",
    async (protocol) => {
      const { page, problems } = await openPage(`protocol=${protocol}`);
      await page.selectOption("#example", "ticket-raw"); // puts the demo's tools/list in the schema box
      await page.click("#subscribe");
      await page.waitForSelector("#live-status[data-state=done]", { timeout: 30_000 });
      expect(await text(page, "#live-status")).toBe(
        `stream ended: ${2 * calls.length} actions decoded in the browser`,
      );
      const cards = await page.$$eval("#live-actions > li", (lis) =>
        lis.map((li) => ({
          id: (li as HTMLElement).dataset.actionId,
          raw: (li as HTMLElement).dataset.raw,
          output: li.querySelector(".live-output")?.textContent,
        })),
      );
      // The page decodes exactly what Node decodes from the same actions.
      const expected = demoWebActions().map((a) => {
        const call = a.action.value as CallMCPTool;
        return {
          id: a.actionId,
          raw: call.rawArgsJson === undefined ? "absent" : "verified",
          output: toolCallToJson(call, tools.find((t) => t.name === call.name)?.inputSchema),
        };
      });
      expect(cards).toEqual(expected);
      // With raw_args_json: the model's text, byte for byte.
      const byId = new Map(cards.map((c) => [c.id, c.output]));
      for (const c of calls) expect(byId.get(`always/${c.id}`)).toBe(c.argumentsJson);
      // Without it: the schema path alone, byte-exact.
      expect(byId.get("never/call_R7cN0pWq4e")).toBe('{"user_id":9007199254740992}');
      expect(byId.get("never/call_b3Hs9LdT0y")).toBe(
        '{"metric":"p99_latency_ms","threshold":1.0,"window_seconds":300,"severity":null}',
      );
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({
        path: join(ARTIFACTS, `inspector-live-${protocol}.png`),
        fullPage: true,
      });
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
