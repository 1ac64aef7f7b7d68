// inspectNumbers against structToJson: what is shown is what is sent. For
// the same arguments, schema and options, each number's text is the text
// structToJson writes at its path, and the diagnostics reported are the same,
// in the same order.
import type { JsonObject } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isStructJsonError } from "../src/errors.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { inspectNumbers, type StructToJsonOptions, structToJson } from "../src/struct/to-json.js";
import { shapeSchema } from "./inspect-shape-schema.js";
import { runs } from "./property-arbitraries.js";
import { pointerToken } from "./raw-text-oracles.js";
import { argsArb, rootSchemaArb } from "./schema-arbitraries.js";

/**
 * Each number of a JSON text (as the package writes it: well formed) with its
 * path, exactly as written. A small reader of this file: JSON.parse keeps no
 * number text, and lossless-json's objects would make `__proto__` a prototype.
 */
function numberTexts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  const ws = () => {
    while (/\s/.test(text[i] ?? "")) i++;
  };
  const str = (): string => {
    const m = /"(?:[^"\\]|\\.)*"/y;
    m.lastIndex = i;
    const s = m.exec(text)![0];
    i += s.length;
    return JSON.parse(s) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // :
        value(`${path}/${pointerToken(key)}`);
        ws();
        if (text[i++] === "}") return;
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        value(`${path}/${k}`);
        ws();
        if (text[i++] === "]") return;
      }
    }
    if (c === '"') {
      str();
      return;
    }
    const m = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
    m.lastIndex = i;
    const t = m.exec(text)![0];
    i += t.length;
    if (t !== "true" && t !== "false" && t !== "null") out.set(path, t);
  };
  value("");
  return out;
}

/** inspectNumbers and structToJson on the same input: texts by path, diagnostics, or the error. */
function both(
  args: JsonObject,
  schema: JsonSchema | undefined,
  options: Partial<StructToJsonOptions>,
) {
  const run = <T>(f: (onDiagnostic: (d: { code: string; path: string }) => void) => T) => {
    const diagnostics: string[] = [];
    try {
      return { value: f((d) => diagnostics.push(`${d.code} ${d.path}`)), diagnostics };
    } catch (e) {
      if (!isStructJsonError(e)) throw e;
      return { error: `${e.code} ${e.path}`, diagnostics };
    }
  };
  const written = run((onDiagnostic) => structToJson(args, schema, { ...options, onDiagnostic }));
  const shown = run((onDiagnostic) => inspectNumbers(args, schema, { ...options, onDiagnostic }));
  return { written, shown };
}

describe("canonical: the texts are the ECMAScript forms canonical output writes", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      big: { type: "integer" },
      whole: { type: "number" },
      either: { type: ["integer", "number"] },
      zero: { type: "number" },
      huge: { type: "integer" },
      half: { type: "integer" },
    },
  };
  const args = { big: 2 ** 60, whole: 3, either: 4, zero: -0, huge: 1e21, half: 1.5 };
  test.each([
    [{ canonical: true }, ["1152921504606847000", "3", "4", "0", "1e+21", "1.5"]],
    [{}, ["1152921504606846976", "3.0", "4", "-0.0", "1000000000000000000000", "1.5"]],
    [
      { wholeFloats: "integer" as const },
      ["1152921504606846976", "3", "4", "0", "1000000000000000000000", "1.5"],
    ],
  ])("%j", (options, texts) => {
    const { written, shown } = both(args, schema, options);
    const found = shown.value!;
    expect(found.map((n) => n.text)).toEqual(texts);
    const sent = numberTexts(written.value!);
    for (const n of found) expect(n.text, n.path).toBe(sent.get(n.path));
    expect(shown.diagnostics).toEqual(written.diagnostics);
    expect(found.map((n) => n.codes)).toEqual([
      ["integer-precision-lost"],
      [],
      ["ambiguous-number"],
      [],
      ["integer-precision-lost"],
      ["not-an-integer"],
    ]);
  });
});

describe("generated arguments and schemas: what is shown is what is sent", () => {
  const optionsArb = fc.record(
    {
      wholeFloats: fc.constantFrom("decimal" as const, "integer" as const),
      canonical: fc.boolean(),
      recursionLimit: fc.constantFrom(3, 100),
    },
    { requiredKeys: [] },
  );
  test("each text is the number written at its path; the same diagnostics in the same order, or the same error", () => {
    fc.assert(
      fc.property(
        fc.oneof(rootSchemaArb, fc.constant(undefined), fc.array(fc.nat(9), { minLength: 1 })),
        argsArb,
        optionsArb,
        (schemaOrChoices, args, options) => {
          const schema = Array.isArray(schemaOrChoices)
            ? shapeSchema(args, schemaOrChoices)
            : schemaOrChoices;
          const { written, shown } = both(args, schema, options);
          expect(shown.diagnostics).toEqual(written.diagnostics);
          if (written.error !== undefined || shown.error !== undefined) {
            expect(shown.error).toBe(written.error);
            return;
          }
          const sent = numberTexts(written.value!);
          const found = shown.value!;
          expect(found.map((n) => n.path).sort()).toEqual([...sent.keys()].sort());
          for (const n of found) {
            expect(n.text, n.path).toBe(sent.get(n.path));
            // A number's codes are the ones reported at its path while it was read.
            const codes = written.diagnostics
              .filter((d) => d.slice(d.indexOf(" ") + 1) === n.path)
              .map((d) => d.slice(0, d.indexOf(" ")));
            expect(n.codes).toEqual(codes);
          }
        },
      ),
      runs(600, 12_101),
    );
  });
});
