// inspectNumbers against the encoder's own report: every number the encoder
// says lost precision (`precision-lost` from toolCallFromJson) is one
// inspectNumbers lists, and where such a number was written as plain digits
// at a position read as integer or number, inspectNumbers shows the code the
// Struct path reports for it (`integer-precision-lost`,
// `number-precision-lost`: its float64 is 2^53 or more). With
// rawArgsJson "when-lossy", a call without a raw text decodes to numbers
// denoting exactly what was written.
import fc from "fast-check";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { describe, expect, test } from "vitest";
import { inspectNumbers, structToJson } from "../src/struct/to-json.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { argumentsText, isIntText, runs, textLosesPrecision } from "./property-arbitraries.js";
import { pointerToken } from "./raw-text-oracles.js";

/** Each number of a JSON text with its path, as written (lossless-json keeps the text). */
function writtenNumbers(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const go = (v: unknown, path: string) => {
    if (isLosslessNumber(v)) out.set(path, v.toString());
    else if (Array.isArray(v)) for (const [i, x] of v.entries()) go(x, `${path}/${i}`);
    else if (typeof v === "object" && v !== null)
      for (const k of Object.keys(v))
        go((v as Record<string, unknown>)[k], `${path}/${pointerToken(k)}`);
  };
  go(losslessParse(text), "");
  return out;
}

/** The decimal a JSON number text denotes, as a canonical string (BigInt digits and exponent). */
function denoted(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  let digits = BigInt(`${m[2]}${m[3] ?? ""}`);
  let exponent = Number(m[4] ?? "0") - (m[3] ?? "").length;
  if (digits === 0n) return "0";
  while (digits % 10n === 0n) {
    digits /= 10n;
    exponent++;
  }
  return `${m[1]}${digits}e${exponent}`;
}

describe("inspectNumbers and the encoder's precision-lost", () => {
  test("each lossy number is listed, with the Struct path's code where plain digits were read as integer or number", () => {
    fc.assert(
      fc.property(argumentsText, ({ text, schema }) => {
        // Texts whose keys the lossless reader would take as prototype members are left to other tests.
        if (/"__proto__"\s*:/.test(text)) return;
        const lost: string[] = [];
        const call = toolCallFromJson(
          { name: "t", argumentsJson: text },
          { onDiagnostic: (d) => lost.push(d.path) },
        );
        const written = writtenNumbers(text);
        // The encoder's report, by an independent oracle.
        expect(lost.sort()).toEqual(
          [...written]
            .filter(([, t]) => textLosesPrecision(t))
            .map(([p]) => p)
            .sort(),
        );
        const shown = new Map(inspectNumbers(call.args!, schema).map((n) => [n.path, n]));
        for (const path of lost) {
          const n = shown.get(path);
          expect(n, path).toBeDefined();
          if (
            isIntText(written.get(path)!) &&
            (n!.reading === "integer" || n!.reading === "number")
          ) {
            expect(n!.codes, path).toContain(
              n!.reading === "integer" ? "integer-precision-lost" : "number-precision-lost",
            );
          }
        }
        // Nothing lost: without its raw text, the call decodes to the numbers written.
        if (lost.length === 0) {
          const lean = toolCallFromJson(
            { name: "t", argumentsJson: text },
            { rawArgsJson: "when-lossy" },
          );
          expect(lean.rawArgsJson).toBe(undefined);
          const out = writtenNumbers(toolCallToJson(lean, schema));
          expect([...out.keys()].sort()).toEqual([...written.keys()].sort());
          for (const [path, t] of written) {
            const o = out.get(path)!;
            // (-0 and 0 denote the same number: the encoder does not call it a loss.)
            expect(denoted(o), path).toBe(denoted(t));
          }
          expect(toolCallToJson(lean, schema)).toBe(structToJson(call.args!, schema));
        }
      }),
      runs(500, 12_201),
    );
  });
});
