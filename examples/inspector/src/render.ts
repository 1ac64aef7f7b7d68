/// <reference lib="dom" />
// (The root tsconfig is Node-only; this page module needs the DOM types.)
// Draws an InspectReport into the page. Every piece of input reaches the DOM
// as text nodes (never as HTML): messages and schemas are hostile input.

import type { InspectReport, NumberMark, NumberRow, RawStatus } from "./inspect.js";
import { numberTokens } from "./json-numbers.js";

/** Creates an element with text or child nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** What each mark means, for the legend and the numbers' tooltips. */
export const MARK_HELP: Readonly<Record<NumberMark, string>> = {
  "integer restored": "the schema says integer: written as an exact integer literal",
  number: "the schema says number: a whole value keeps its decimal point",
  ambiguous: "the schema allows integer and number: written as an integer literal",
  unknown: "the schema does not describe this position: JavaScript's shortest form",
  "precision lost":
    "an integer above 2^53 that the float64 could not hold; only raw JSON text keeps it",
  "written-as-float":
    "the raw text writes a whole number with a fraction or exponent where the schema says integer",
  "not an integer": "the schema says integer but the value has a fraction: written unchanged",
};

const RAW_HELP: Readonly<Record<RawStatus, string>> = {
  absent: "no raw JSON text in the message: decoded from the Struct and the schema",
  verified: "raw JSON text verified against the Struct and used, byte for byte",
  trusted: "raw JSON text used without verification (rawJson: trust)",
  ignored: "raw JSON text present but ignored (rawJson: ignore): decoded from the Struct",
  malformed: "raw JSON text rejected as malformed: decoded from the Struct instead",
  mismatch: "raw JSON text rejected: it disagrees with the Struct, so nothing is returned",
};

/** Draws `text` with every number wrapped in a marked span. */
export function markedJson(
  text: string,
  markOf: (path: string, token: string) => { mark?: string; className?: string; title?: string },
): DocumentFragment {
  const out = document.createDocumentFragment();
  let at = 0;
  for (const t of numberTokens(text)) {
    if (t.start > at) out.append(text.slice(at, t.start));
    const token = text.slice(t.start, t.end);
    const m = markOf(t.path, token);
    const span = el(
      "span",
      { class: `num ${m.className ?? ""}`.trim(), "data-path": t.path },
      token,
    );
    if (m.mark !== undefined) span.dataset.mark = m.mark;
    if (m.title !== undefined) span.title = m.title;
    out.append(span);
    at = t.end;
  }
  if (at < text.length) out.append(text.slice(at));
  return out;
}

function rowTitle(r: NumberRow): string {
  const parts = [`${r.path || "(root)"}: ${MARK_HELP[r.mark]}`];
  if (r.structValue !== undefined) parts.push(`Struct carries ${r.structValue}`);
  if (r.codes.length > 0) parts.push(`diagnostics: ${r.codes.join(", ")}`);
  return parts.join("\n");
}

/** Draws the bridge's output with each number's mark. */
export function bridgeOutput(report: InspectReport): DocumentFragment {
  const byPath = new Map(report.numbers.map((r) => [r.path, r]));
  return markedJson(report.output ?? "", (path) => {
    const r = byPath.get(path);
    return r === undefined ? { mark: "unknown" } : { mark: r.mark, title: rowTitle(r) };
  });
}

/** Draws protobuf-es's output, flagging each number it writes differently from the bridge. */
export function plainOutput(report: InspectReport): DocumentFragment {
  const bridge = new Map(report.numbers.map((r) => [r.path, r.bridgeText]));
  return markedJson(report.plainToJson, (path, token) => {
    const b = bridge.get(path);
    if (b === undefined || b === token) return { className: "same" };
    return { className: "differs", title: `the bridge wrote ${b}` };
  });
}

/** The numbers table's rows. */
export function numberRows(report: InspectReport): HTMLTableRowElement[] {
  return report.numbers.map((r) =>
    el(
      "tr",
      { "data-path": r.path },
      el("td", {}, r.path || "(root)"),
      el("td", {}, r.structValue ?? "—"),
      el("td", {}, r.reading),
      el("td", {}, r.bridgeText),
      el("td", {}, r.plainText ?? "—"),
      el("td", { class: "mark" }, r.mark),
      el("td", {}, r.codes.join(", ")),
      el("td", {}, r.structCodes.join(", ")),
    ),
  );
}

/** The diagnostics as a list of JSON Pointers and codes. */
export function diagnosticItems(report: InspectReport): HTMLLIElement[] {
  if (report.diagnostics.length === 0) return [el("li", { class: "none" }, "none")];
  return report.diagnostics.map((d) =>
    el("li", {}, el("code", {}, d.path === "" ? '""' : d.path), ` ${d.code}`),
  );
}

/** One line saying what was read. */
export function summaryText(report: InspectReport): string {
  const parts: string[] = [report.kind, report.format === "binary" ? "binary" : "ProtoJSON"];
  if (report.actionId !== undefined) parts.push(`action ${report.actionId}`);
  if (report.toolName !== undefined) parts.push(`tool ${report.toolName}`);
  parts.push(report.schemaSource);
  return parts.join(" · ");
}

/** What happened to the raw JSON text, in words. */
export function rawStatusText(report: InspectReport): string {
  const field = report.kind === "MCPToolResult" ? "raw_structured_content_json" : "raw_args_json";
  return `${field}: ${report.raw} (${RAW_HELP[report.raw]})`;
}

/**
 * The legend of number marks: each swatch holds how many numbers of the output
 * carry that mark (a count, so a mark the output does not use shows 0, dimmed).
 */
export function legendItems(numbers: readonly NumberRow[]): HTMLLIElement[] {
  const counts = new Map<NumberMark, number>();
  for (const r of numbers) counts.set(r.mark, (counts.get(r.mark) ?? 0) + 1);
  return (Object.keys(MARK_HELP) as NumberMark[]).map((m) => {
    const count = counts.get(m) ?? 0;
    return el(
      "li",
      {
        title: MARK_HELP[m],
        "data-mark": m,
        "data-count": String(count),
        ...(count === 0 ? { class: "unused" } : {}),
      },
      el("span", { class: "num plain", "data-mark": m }, String(count)),
      ` ${m}`,
    );
  });
}
