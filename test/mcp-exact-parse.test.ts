// buildExactJson reads what JSON.parse reads (through the package's one
// parser), with each number's own text handed to the caller.

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { buildExactJson } from "../src/mcp/exact-parse.js";
import { memberText } from "../src/mcp/json-span.js";

describe("buildExactJson: JSON.parse's reading, numbers by their text", () => {
  test.each([
    ['{"a":1,"a":2.50}'],
    ['{"s":"\\ud800","t":"x\\udc00y"}'],
    ['{"n":1e400,"m":-1e400}'],
    ['{"__proto__":{"x":1},"b":[true,false,null,"\\u0041"]}'],
  ])("%s", (text) => {
    const built = buildExactJson(text, Number);
    expect(built).toEqual({ value: JSON.parse(text) });
  });

  test("any depth: no recursion", () => {
    const depth = 100_000;
    const built = buildExactJson(`${"[".repeat(depth)}7${"]".repeat(depth)}`, Number);
    let v = (built as { value: unknown }).value;
    for (let d = 0; d < depth; d++) v = (v as unknown[])[0];
    expect(v).toBe(7);
  });

  test("numbers reach the reader as written, with their paths, in text order", () => {
    const seen: string[] = [];
    buildExactJson('{"a":[1.0,9007199254740993],"b":{"c":-0}}', (text, path) => {
      seen.push(`${path()} ${text}`);
      return 0;
    });
    expect(seen).toEqual(["/a/0 1.0", "/a/1 9007199254740993", "/b/c -0"]);
  });

  test("property: the same value as JSON.parse", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(buildExactJson(text, Number)).toEqual({ value: JSON.parse(text) });
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});

describe("memberText: JSON.parse's reading", () => {
  test.each([
    ['{"r":{"s":"\\ud800"}}', '"\\ud800"'],
    ['{"r":{"s":1e400}}', "1e400"],
    ['{"r":{"s":1},"r":{"s":2.50}}', "2.50"],
  ])("%s", (text, expected) => {
    expect(memberText(text, ["r", "s"])).toBe(expected);
  });
});
