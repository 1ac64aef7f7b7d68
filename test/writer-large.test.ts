// Large outputs of the compiled writer (issue 16): built as a plain value
// (src/struct/writer-code-value.ts) and written by the package's own writer
// (src/struct/json-text-writer.ts); with many fractions, by the native
// JSON.stringify where the runtime has JSON.rawJSON (hidden here while the
// package loads, as on runtimes without it). Every form writes exactly what
// the walk and the engine write: whole floats `1.0`, integers above 2^53,
// strings that looked like the markers of earlier versions, nesting deeper
// than JSON.stringify takes, both Struct forms. The form is chosen by the size
// of the schema's last output and, with JSON.rawJSON, by its fractional numbers.
import { afterEach, describe, expect, test, vi } from "vitest";
import { rowSetSchema } from "../bench/payloads.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toStruct } from "./writer-corpus.js";

type RawJson = { rawJSON?: unknown; isRawJSON?: unknown };
const json = JSON as unknown as RawJson;
const runtimeHasRawJson = typeof json.rawJSON === "function";

/** The package loaded afresh; with `noRawJson`, JSON.rawJSON is hidden while it loads. */
async function load(noRawJson: boolean) {
  vi.resetModules();
  const saved = { rawJSON: json.rawJSON, isRawJSON: json.isRawJSON };
  if (noRawJson) {
    delete json.rawJSON;
    delete json.isRawJSON;
  }
  try {
    const toJson = await import("../src/struct/to-json.js");
    const { compiledOutput, LARGE_OUTPUT, MANY_FRACTIONS, NATIVE_STRINGIFY_DEPTH } = await import(
      "../src/struct/large-output.js"
    );
    const { writerPlans } = await import("../src/struct/writer-plan.js");
    const { nativeJsonText } = await import("../src/struct/native-json-text.js");
    return {
      ...toJson,
      compiledOutput,
      LARGE_OUTPUT,
      MANY_FRACTIONS,
      NATIVE_STRINGIFY_DEPTH,
      writerPlans,
      usesRawJson: nativeJsonText !== undefined,
    };
  } finally {
    if (saved.rawJSON !== undefined) json.rawJSON = saved.rawJSON;
    if (saved.isRawJSON !== undefined) json.isRawJSON = saved.isRawJSON;
  }
}

type Package = Awaited<ReturnType<typeof load>>;
type Way = "value" | "text" | "walk" | "engine";
const WAYS: readonly Way[] = ["value", "text", "walk", "engine"];

/** One call written one way (`msg`: the Struct message form): its text, or its error's code and path. */
function write(
  pkg: Package,
  way: Way,
  args: Record<string, unknown>,
  schema: JsonSchema | undefined,
  msg: boolean,
  options: Record<string, unknown> = {},
): string {
  pkg.writerPlans.enabled = way !== "engine";
  pkg.writerPlans.compiled = way === "walk" ? "off" : way === "engine" ? "auto" : "generated";
  pkg.compiledOutput.form = way === "value" ? "value" : "text";
  try {
    return msg
      ? pkg.structMessageToJson(toStruct(args) as never, schema, options)
      : pkg.structToJson(args as never, schema, options);
  } catch (e) {
    return `error ${(e as { code?: string }).code}@${(e as { path?: string }).path}`;
  } finally {
    pkg.writerPlans.enabled = true;
    pkg.writerPlans.compiled = "auto";
    pkg.compiledOutput.form = "auto";
  }
}

/** Every way, both forms, writes `expected` (twice: code made, then warm); returns how many calls the value form wrote. */
function expectAll(
  pkg: Package,
  args: Record<string, unknown>,
  schema: JsonSchema | undefined,
  expected: string,
  options: Record<string, unknown> = {},
): number {
  const before = pkg.compiledOutput.values;
  for (const msg of [false, true]) {
    for (const way of WAYS) {
      for (let round = 0; round < 2; round++) {
        expect({ way, msg, text: write(pkg, way, args, schema, msg, options) }).toEqual({
          way,
          msg,
          text: expected,
        });
      }
    }
  }
  return pkg.compiledOutput.values - before;
}

/** The benchmark's row set schema: [id above 2^53, int, float (whole ones `1.0`), string, bool, null] per row. */
const rowSchema: JsonSchema = rowSetSchema;

/** `n` rows and their exact JSON text (ids 2^60 + 1024·i are float64s whose digits JS's own text pads). */
function rowSet(n: number, word = "row"): { args: Record<string, unknown>; text: string } {
  const rows: unknown[] = [];
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = 2n ** 60n + 1024n * BigInt(i);
    const price = i % 3 === 0 ? i : i + 0.25;
    const s = `${word} ${i} "quoted" 東京`;
    rows.push([Number(id), -i, price, s, i % 2 === 0, null]);
    texts.push(
      `[${id},${-i === 0 ? 0 : -i},${i % 3 === 0 ? `${i}.0` : `${price}`},${JSON.stringify(s)},${i % 2 === 0},null]`,
    );
  }
  return {
    args: { rows, row_count: n },
    text: `{"rows":[${texts.join(",")}],"row_count":${n}}`,
  };
}

afterEach(() => {
  vi.resetModules();
});

for (const noRawJson of [false, true]) {
  const texts = noRawJson ? "without JSON.rawJSON" : "the runtime's exact texts";
  describe(`large outputs, ${texts}`, () => {
    test("the package wrote with the exact texts asked for", async () => {
      const pkg = await load(noRawJson);
      expect(pkg.usesRawJson).toBe(!noRawJson && runtimeHasRawJson);
    });

    test("a row set past LARGE_OUTPUT: `1.0`, digits above 2^53, strings, both forms, every way", async () => {
      const pkg = await load(noRawJson);
      const { args, text } = rowSet(5000);
      expect(text.length).toBeGreaterThan(pkg.LARGE_OUTPUT);
      // Both forms × two rounds through the value form.
      expect(expectAll(pkg, args, rowSchema, text)).toBe(4);
    });

    test("small calls through the value form: exact texts, unknown members, __proto__ as data", async () => {
      const pkg = await load(noRawJson);
      // Parsed: in an object literal `__proto__` would set the prototype.
      const schema = JSON.parse(
        '{"properties":{"big":{"type":"integer"},"f":{"type":"number"},"g":{"type":"number"},' +
          '"__proto__":{"type":"number"},"list":{"items":{"type":"number"}}}}',
      ) as JsonSchema;
      const args = JSON.parse(
        '{"big":1152921504606846976,"f":3,"g":-0,"__proto__":2,"list":[1,2.5,-3],"other":2.0,"neg":-1152921504606846976,"n":null,"t":true}',
      ) as Record<string, unknown>;
      expect(
        expectAll(
          pkg,
          args,
          schema,
          "{" +
            '"big":1152921504606846976,"f":3.0,"g":-0.0,"__proto__":2.0,"list":[1.0,2.5,-3.0],' +
            '"other":2,"neg":-1152921504606847000,"n":null,"t":true}',
        ),
      ).toBe(4);
      // An unnamed __proto__ member, and numbers at an unknown schema.
      const unnamed = JSON.parse('{"__proto__":{"x":1.5},"y":9007199254740993}') as Record<
        string,
        unknown
      >;
      expect(
        expectAll(pkg, unnamed, undefined, '{"__proto__":{"x":1.5},"y":9007199254740992}'),
      ).toBe(4);
      expect(
        expectAll(
          pkg,
          unnamed,
          { properties: { z: { type: "integer" } } },
          '{"__proto__":{"x":1.5},"y":9007199254740992}',
        ),
      ).toBe(4);
    });

    test("data strings that look like the markers of earlier versions: written as the data they are", async () => {
      const pkg = await load(noRawJson);
      const lookAlikes = ["\u00800", "\u00801", "\u0080", "\u00800x", "x\u00800", '"\u00800"'];
      const { args, text } = rowSet(1500);
      const rows = args.rows as unknown[][];
      // Look-alikes before, between and after the numbers that need exact texts.
      rows[0]![3] = lookAlikes[0];
      rows[1]![3] = lookAlikes[1];
      rows[700]![3] = lookAlikes[2];
      rows[701]![3] = lookAlikes[3];
      rows[1498]![3] = lookAlikes[4];
      rows[1499]![3] = lookAlikes[5];
      const expected = text
        .replace('"row 0 \\"quoted\\" 東京"', JSON.stringify(lookAlikes[0]))
        .replace('"row 1 \\"quoted\\" 東京"', JSON.stringify(lookAlikes[1]))
        .replace('"row 700 \\"quoted\\" 東京"', JSON.stringify(lookAlikes[2]))
        .replace('"row 701 \\"quoted\\" 東京"', JSON.stringify(lookAlikes[3]))
        .replace('"row 1498 \\"quoted\\" 東京"', JSON.stringify(lookAlikes[4]))
        .replace('"row 1499 \\"quoted\\" 東京"', JSON.stringify(lookAlikes[5]));
      const wrote = expectAll(pkg, args, rowSchema, expected);
      // No markers any more: every form writes them as the data they are.
      expect(wrote).toBe(4);
    });

    test("nesting deeper than JSON.stringify takes, under a node the program leaves to the walk", async () => {
      const pkg = await load(noRawJson);
      const depth = pkg.NATIVE_STRINGIFY_DEPTH + 20;
      let inner: unknown = { leaf: 1 };
      let innerText = '{"leaf":1}';
      for (let i = 0; i < depth; i++) {
        inner = { x1: inner, n: 2 };
        innerText = `{"x1":${innerText},"n":2}`;
      }
      // patternProperties: members decided per key, walked by the call.
      const schema: JsonSchema = {
        properties: { deep: { patternProperties: { "^x": {} } }, k: { type: "number" } },
      };
      const args = { deep: { x0: inner }, k: 1 };
      const expected = `{"deep":{"x0":${innerText}},"k":1.0}`;
      expect(expectAll(pkg, args, schema, expected, { recursionLimit: 1000 })).toBe(0);
      // Within the limit of the native writer, the walked object goes into the value.
      const shallow = { deep: { x0: { x1: { leaf: 1 } } }, k: 1 };
      expect(
        expectAll(pkg, shallow, schema, '{"deep":{"x0":{"x1":{"leaf":1}}},"k":1.0}', {
          recursionLimit: 1000,
        }),
      ).toBe(4);
    });

    test("errors and diagnostics are the walk's: the value form gives up with no effect", async () => {
      const pkg = await load(noRawJson);
      const { args } = rowSet(10);
      (args.rows as unknown[][])[5]![1] = 1.5; // not-an-integer
      (args.rows as unknown[][])[6]![0] = Number.NaN;
      for (const msg of [false, true]) {
        const seen: string[][] = [];
        for (const way of WAYS) {
          const diagnostics: string[] = [];
          const text = write(pkg, way, args, rowSchema, msg, {
            onDiagnostic: (d: { code: string; path: string }) =>
              diagnostics.push(`${d.code}@${d.path}`),
          });
          seen.push([text, ...diagnostics]);
        }
        expect(seen[0]).toEqual([
          "error non-finite-number@/rows/6/0",
          ...[0, 1, 2, 3, 4, 5].map((i) => `integer-precision-lost@/rows/${i}/0`),
          "not-an-integer@/rows/5/1",
        ]);
        for (const s of seen) expect(s).toEqual(seen[0]);
      }
    });
  });
}

describe("the form follows the size and the fractional numbers of the schema's last output", () => {
  test("text until an output is large, then the value form until one is small again", async () => {
    const pkg = await load(false);
    const large = rowSet(5000);
    const small = rowSet(2);
    const schema = { ...rowSchema, title: "sized" } as JsonSchema;
    const steps: [string, boolean][] = [];
    for (const [name, call] of [
      ["small", small],
      ["large", large],
      ["large", large],
      ["large", large],
      ["small", small],
      ["small", small],
    ] as const) {
      const before = pkg.compiledOutput.values;
      expect(pkg.structToJson(call.args as never, schema)).toBe(call.text);
      steps.push([name, pkg.compiledOutput.values > before]);
    }
    expect(steps).toEqual([
      ["small", false],
      ["large", false], // learnt here
      ["large", true],
      ["large", true],
      ["small", true], // learnt here
      ["small", false],
    ]);
  });

  for (const noRawJson of [false, true]) {
    test(`many fractional numbers choose the value form only with JSON.rawJSON (${noRawJson ? "without it" : "the runtime's texts"})`, async () => {
      const pkg = await load(noRawJson);
      const schema = {
        type: "object",
        properties: { values: { type: "array", items: { type: "number" } } },
      } as JsonSchema;
      // n fractions (and one whole float, written `1.0`): a few KB, far below LARGE_OUTPUT.
      const call = (n: number) => {
        const values = [1, ...Array.from({ length: n }, (_, i) => i + 0.5)];
        return { args: { values }, text: `{"values":[1.0,${values.slice(1).join(",")}]}` };
      };
      const byValue = pkg.usesRawJson;
      const steps: [number, boolean][] = [];
      for (const n of [255, 255, pkg.MANY_FRACTIONS, pkg.MANY_FRACTIONS, 3, 3]) {
        const { args, text } = call(n);
        const before = pkg.compiledOutput.values;
        expect(pkg.structToJson(args as never, schema)).toBe(text);
        steps.push([n, pkg.compiledOutput.values > before]);
      }
      expect(pkg.MANY_FRACTIONS).toBe(256);
      expect(steps).toEqual([
        [255, false],
        [255, false],
        [256, false], // learnt here, where the runtime has JSON.rawJSON
        [256, byValue],
        [3, byValue], // learnt here
        [3, false],
      ]);
    });
  }

  test("interpreted programs keep writing text at any size", async () => {
    const pkg = await load(false);
    const large = rowSet(5000);
    pkg.writerPlans.compiled = "interpreted";
    try {
      const before = { ...pkg.writerPlans.written, values: pkg.compiledOutput.values };
      for (let i = 0; i < 3; i++)
        expect(pkg.structToJson(large.args as never, rowSchema)).toBe(large.text);
      expect(pkg.writerPlans.written.interpreted - before.interpreted).toBe(3);
      expect(pkg.compiledOutput.values).toBe(before.values);
    } finally {
      pkg.writerPlans.compiled = "auto";
    }
  });
});

describe("spliceMarkers: every marker once, in order, whole; anything else is a look-alike", () => {
  const M = "\u0080";
  const cases: [string, string, string[], string | undefined][] = [
    ["in order", `[1,"${M}0",2,"${M}1",{"a":"${M}2"}]`, ["10", "2.0", "3"], '[1,10,2,2.0,{"a":3}]'],
    ["none", '["a"]', [], '["a"]'],
    ["U+0080 inside data is data", `["x${M}0","${M}0"]`, ["7"], `["x${M}0",7]`],
    ["out of order", `["${M}1","${M}0"]`, ["7", "8"], undefined],
    ["a look-alike after the last", `["${M}0","${M}0"]`, ["7"], undefined],
    ["a look-alike of another index", `["${M}0","${M}5"]`, ["7"], undefined],
    ["leading zero", `["${M}00"]`, ["7"], undefined],
    ["index 1 as 01", `["${M}0","${M}01"]`, ["7", "8"], undefined],
    ["no digits", `["${M}"]`, ["7"], undefined],
    ["more after the digits", `["${M}0x"]`, ["7"], undefined],
    ["a marker missing", '["a"]', ["7"], undefined],
  ];
  for (const [name, json, texts, expected] of cases) {
    test(name, async () => {
      const { spliceMarkers } = await import("../src/struct/exact-number-text.js");
      expect(spliceMarkers(json, M, texts)).toBe(expected);
    });
  }
});
