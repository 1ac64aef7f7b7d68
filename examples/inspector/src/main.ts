/// <reference lib="dom" />
// (The root tsconfig is Node-only; this page module needs the DOM types.)
// Wires the page: inputs → inspectMessage → render, and the live stream panel.

import { base64Encode } from "@bufbuild/protobuf/wire";
import { EXAMPLES, type InspectorExample } from "./examples.js";
import { type InspectOptions, type InspectReport, inspectMessage } from "./inspect.js";
import { streamActions, type WebProtocol } from "./live.js";
import { InputError } from "./read-message.js";
import {
  bridgeOutput,
  diagnosticItems,
  el,
  legendItems,
  numberRows,
  plainOutput,
  rawStatusText,
  summaryText,
} from "./render.js";

function byId<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`the page has no #${id}`);
  return e as T;
}

const ui = {
  example: byId<HTMLSelectElement>("example"),
  message: byId<HTMLTextAreaElement>("message"),
  kind: byId<HTMLSelectElement>("kind"),
  rawJson: byId<HTMLSelectElement>("raw-json"),
  wholeFloats: byId<HTMLSelectElement>("whole-floats"),
  file: byId<HTMLInputElement>("file"),
  schema: byId<HTMLTextAreaElement>("schema"),
  report: byId<HTMLElement>("report"),
  summary: byId<HTMLElement>("summary"),
  rawStatus: byId<HTMLElement>("raw-status"),
  error: byId<HTMLElement>("error"),
  bridge: byId<HTMLElement>("bridge-output"),
  plain: byId<HTMLElement>("plain-output"),
  legend: byId<HTMLElement>("legend"),
  numbers: byId<HTMLTableElement>("numbers"),
  diagnostics: byId<HTMLElement>("diagnostics"),
  serverUrl: byId<HTMLInputElement>("server-url"),
  protocol: byId<HTMLSelectElement>("protocol"),
  subscribe: byId<HTMLButtonElement>("subscribe"),
  liveStatus: byId<HTMLElement>("live-status"),
  liveActions: byId<HTMLElement>("live-actions"),
};

function options(): Partial<InspectOptions> {
  return {
    kind: ui.kind.value as InspectOptions["kind"],
    rawJson: ui.rawJson.value as InspectOptions["rawJson"],
    wholeFloats: ui.wholeFloats.value as InspectOptions["wholeFloats"],
  };
}

function showError(text: string): void {
  ui.error.hidden = false;
  ui.error.textContent = text;
}

function clearReport(): void {
  ui.summary.textContent = "";
  ui.rawStatus.textContent = "";
  delete ui.rawStatus.dataset.status;
  ui.error.hidden = true;
  ui.error.textContent = "";
  ui.bridge.replaceChildren();
  ui.plain.replaceChildren();
  ui.numbers.tBodies[0]!.replaceChildren();
  ui.diagnostics.replaceChildren();
  ui.legend.replaceChildren(...legendItems([]));
}

function render(report: InspectReport): void {
  ui.summary.textContent = summaryText(report);
  ui.rawStatus.textContent = rawStatusText(report);
  ui.rawStatus.dataset.status = report.raw;
  if (report.error !== undefined) showError(report.error.message);
  ui.bridge.replaceChildren(bridgeOutput(report));
  ui.plain.replaceChildren(plainOutput(report));
  ui.numbers.tBodies[0]!.replaceChildren(...numberRows(report));
  ui.diagnostics.replaceChildren(...diagnosticItems(report));
  ui.legend.replaceChildren(...legendItems(report.numbers));
}

/** Decodes what the boxes hold; runs on every change, synchronously, so the page never shows stale output. */
function update(): void {
  clearReport();
  if (ui.message.value.trim() === "") {
    ui.summary.textContent = "Choose an example or paste a message.";
    ui.report.dataset.state = "idle";
    return;
  }
  try {
    const report = inspectMessage(ui.message.value, ui.schema.value, options());
    render(report);
    ui.report.dataset.state = report.error === undefined ? "ok" : "refused";
  } catch (e) {
    showError(e instanceof InputError ? e.message : `unexpected failure: ${String(e)}`);
    ui.report.dataset.state = "error";
    if (!(e instanceof InputError)) console.error(e);
  }
}

let exampleTexts: Map<string, string> | undefined;

/** The example whose message is exactly `text`, so a pasted example is named as such. */
function exampleWithMessage(text: string): InspectorExample | undefined {
  exampleTexts ??= new Map(EXAMPLES.map((x) => [x.message(), x.id]));
  const id = exampleTexts.get(text);
  return EXAMPLES.find((x) => x.id === id);
}

function loadExample(id: string): void {
  const ex = EXAMPLES.find((x) => x.id === id);
  if (ex === undefined) return;
  ui.example.value = id;
  ui.message.value = ex.message();
  ui.schema.value = ex.schema;
  ui.kind.value = "auto";
  update();
}

/** A dropped or opened file: text as is when it is text, otherwise its bytes as base64. */
async function loadFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  // Binary protobuf is full of control bytes (tags, lengths); base64 and ProtoJSON have none.
  const isText = text !== undefined && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text);
  ui.message.value = isText ? text! : base64Encode(bytes);
  ui.example.value = "";
  update();
}

function liveCard(base64: string, fallbackId: string): HTMLLIElement {
  const schemaText = ui.schema.value;
  const li = el("li", {});
  try {
    const report = inspectMessage(base64, schemaText, { ...options(), kind: "ClientAction" });
    const id = report.actionId ?? fallbackId;
    li.dataset.actionId = id;
    li.dataset.raw = report.raw;
    const inspect = el("button", { type: "button" }, "Inspect");
    inspect.addEventListener("click", () => {
      ui.example.value = "";
      ui.message.value = base64;
      ui.kind.value = "ClientAction";
      update();
      ui.report.scrollIntoView();
    });
    li.append(
      el(
        "div",
        { class: "meta" },
        `${id} · ${report.toolName ?? ""} · raw_args_json: ${report.raw}`,
        report.diagnostics.length === 0
          ? ""
          : ` · ${report.diagnostics.map((d) => `${d.path || '""'} ${d.code}`).join(", ")} `,
        " ",
        inspect,
      ),
      el("pre", { class: "live-output" }, report.output === undefined ? "" : bridgeOutput(report)),
    );
    if (report.error !== undefined)
      li.append(el("p", { class: "live-error" }, report.error.message));
  } catch (e) {
    li.dataset.actionId = fallbackId;
    li.append(el("p", { class: "live-error" }, String(e)));
  }
  return li;
}

let liveAbort: AbortController | undefined;

async function subscribe(): Promise<void> {
  liveAbort?.abort();
  const abort = new AbortController();
  liveAbort = abort;
  ui.liveActions.replaceChildren();
  const url = ui.serverUrl.value.trim();
  if (!/^https?:\/\/[^/]+/.test(url)) {
    ui.liveStatus.dataset.state = "error";
    ui.liveStatus.textContent = "enter the server's base URL, e.g. http://127.0.0.1:41234";
    return;
  }
  ui.liveStatus.dataset.state = "streaming";
  ui.liveStatus.textContent = `streaming from ${url} …`;
  try {
    const n = await streamActions(
      url,
      ui.protocol.value as WebProtocol,
      (a) => ui.liveActions.append(liveCard(a.base64, String(ui.liveActions.children.length + 1))),
      abort.signal,
    );
    if (liveAbort !== abort) return;
    ui.liveStatus.dataset.state = "done";
    ui.liveStatus.textContent = `stream ended: ${n} action${n === 1 ? "" : "s"} decoded in the browser`;
  } catch (e) {
    if (liveAbort !== abort) return;
    ui.liveStatus.dataset.state = "error";
    ui.liveStatus.textContent = `stream failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function init(): void {
  for (const ex of EXAMPLES) ui.example.append(el("option", { value: ex.id }, ex.title));
  ui.example.addEventListener("change", () => {
    if (ui.example.value === "") return;
    loadExample(ui.example.value);
  });
  ui.message.addEventListener("input", () => {
    ui.example.value = exampleWithMessage(ui.message.value)?.id ?? "";
    update();
  });
  ui.schema.addEventListener("input", update);
  for (const select of [ui.kind, ui.rawJson, ui.wholeFloats])
    select.addEventListener("change", update);
  ui.file.addEventListener("change", () => {
    const f = ui.file.files?.[0];
    if (f !== undefined) void loadFile(f);
  });
  ui.message.addEventListener("dragover", (e) => {
    e.preventDefault();
    ui.message.classList.add("drop");
  });
  ui.message.addEventListener("dragleave", () => ui.message.classList.remove("drop"));
  ui.message.addEventListener("drop", (e) => {
    e.preventDefault();
    ui.message.classList.remove("drop");
    const f = e.dataTransfer?.files[0];
    if (f !== undefined) void loadFile(f);
  });
  ui.subscribe.addEventListener("click", () => void subscribe());

  const params = new URLSearchParams(location.search);
  const server = params.get("server");
  if (server !== null) ui.serverUrl.value = server;
  const protocol = params.get("protocol");
  if (protocol === "connect" || protocol === "grpc-web") ui.protocol.value = protocol;
  loadExample(params.get("example") ?? EXAMPLES[0]!.id);
  document.body.dataset.ready = "true";
}

init();
