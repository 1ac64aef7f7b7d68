// parseJsonSpans: the package's parser reporting where each value's text
// starts and ends. Same definition of JSON as parseJsonText, same errors.

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isWholeWithFraction } from "../src/struct/number-text.js";
import {
  type JsonSpanNode,
  parseJsonSpans,
  parseJsonText,
  scanJsonText,
  spanAt,
} from "../src/struct/parse-json.js";

/** The outcome of a parse as data: the value, or the error's code, path and position. */
function outcome(run: () => unknown): unknown {
  try {
    run();
    return "ok";
  } catch (e) {
    const { code, path, position } = e as { code: string; path: string; position?: number };
    return { code, path, position };
  }
}

/** Every node's text, parsed on its own, is the node's value. */
function checkSpans(text: string, node: JsonSpanNode): void {
  const slice = text.slice(node.start, node.end);
  if (node.kind === "number") expect(slice).toBe(node.text);
  if (node.kind === "string") expect(parseJsonText(slice, "plain", 1)).toBe(node.value);
  if (node.kind === "true" || node.kind === "false" || node.kind === "null") {
    expect(slice).toBe(node.kind);
  }
  if (node.kind === "object") {
    for (const m of node.members) {
      const key = /"(?:[^"\\]|\\.)*"/y;
      key.lastIndex = m.keyStart;
      expect(parseJsonText(key.exec(text)![0], "plain", 1)).toBe(m.key);
      checkSpans(text, m.value);
    }
  }
  if (node.kind === "array") for (const item of node.items) checkSpans(text, item);
}

describe("parseJsonSpans", () => {
  test("spans of a text with whitespace, escapes and exact numbers", () => {
    const text =
      ' { "a" : [1.0, -0, 9007199254740993e0], "b\\u0022" : {"c": "x\\"}"}, "d": null } ';
    const root = parseJsonSpans(text, 10);
    expect(text.slice(root.start, root.end)).toBe(text.trim());
    expect(spanAt(root, ["a", 0])).toEqual({ kind: "number", start: 10, end: 13, text: "1.0" });
    const c = spanAt(root, ['b"', "c"])!;
    expect(text.slice(c.start, c.end)).toBe('"x\\"}"');
    expect(spanAt(root, ["a", 3])).toBe(undefined);
    expect(spanAt(root, ["d", "e"])).toBe(undefined);
    expect(spanAt(root, [0])).toBe(undefined);
    checkSpans(text, root);
  });

  test.each([
    ['{"a":1,"a":2}'],
    ['{"a":"\\ud800"}'],
    ["[1e400]"],
    ["[[[1]]]"],
    ['{"a":1,}'],
    ["[01]"],
    ["{} x"],
    [""],
    ['{"__proto__":1,"b":[true,false,null]}'],
  ])("accepts and rejects %j exactly as parseJsonText does", (text) => {
    expect(outcome(() => parseJsonSpans(text, 2))).toEqual(
      outcome(() => parseJsonText(text, "plain", 2)),
    );
  });

  test("iterative: any depth within the limit, and recursion-limit past it", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(parseJsonSpans(deep, 200_000)).toMatchObject({ kind: "array", start: 0, end: 400_000 });
    expect(() => parseJsonSpans(deep, 199_999)).toThrow(
      expect.objectContaining({ code: "recursion-limit", position: 199_999 }),
    );
  });

  test('loneSurrogates: "keep" keeps them in the value, as JSON.parse does', () => {
    const text = '{"a":"x\\ud800","b":"\ud800"}';
    expect(() => parseJsonSpans(text, 5)).toThrow(
      expect.objectContaining({ code: "invalid-unicode", path: "/a" }),
    );
    const root = parseJsonSpans(text, 5, { loneSurrogates: "keep" });
    expect(spanAt(root, ["a"])).toMatchObject({ kind: "string", value: "x\ud800" });
    expect(spanAt(root, ["b"])).toMatchObject({ kind: "string", value: "\ud800" });
  });

  test('duplicateKeys: "keep" keeps every member; spanAt follows the last, as JSON.parse', () => {
    const text = '{"a":1,"a":{"b":2.50}}';
    expect(() => parseJsonSpans(text, 5)).toThrow(
      expect.objectContaining({ code: "duplicate-key", path: "/a", position: 7 }),
    );
    const root = parseJsonSpans(text, 5, { duplicateKeys: "keep" });
    const b = spanAt(root, ["a", "b"])!;
    expect(text.slice(b.start, b.end)).toBe("2.50");
  });

  test("property: same verdict as parseJsonText, and every span is its value's text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        const verdict = outcome(() => parseJsonText(text, "plain", 100));
        expect(outcome(() => parseJsonSpans(text, 100))).toEqual(verdict);
        if (verdict === "ok") checkSpans(text, parseJsonSpans(text, 100));
      }),
      { seed: 14, numRuns: 500 },
    );
  });
});

/** What scanJsonText should tell of a text, from its spans: containers, and numbers written with a fraction or exponent. */
function spanEvents(node: JsonSpanNode, path: (string | number)[], out: string[]): string[] {
  if (node.kind === "object" || node.kind === "array") {
    out.push(`open ${JSON.stringify(path)}`);
    if (node.kind === "object") {
      for (const m of node.members) spanEvents(m.value, [...path, m.key], out);
    } else {
      for (let i = 0; i < node.items.length; i++) spanEvents(node.items[i]!, [...path, i], out);
    }
    out.push("close");
  } else if (node.kind === "number" && /[.eE]/.test(node.text)) {
    out.push(`${JSON.stringify(path)} ${isWholeWithFraction(node.text, +node.text, false)}`);
  }
  return out;
}

function scanEvents(text: string): string[] {
  const out: string[] = [];
  scanJsonText(text, {
    open: (tokens) => out.push(`open ${JSON.stringify(tokens)}`),
    close: () => out.push("close"),
    wholeWithFraction: (tokens) => out.push(`${JSON.stringify(tokens)} true`),
    notWhole: (tokens) => out.push(`${JSON.stringify(tokens)} false`),
  });
  return out;
}

describe("scanJsonText", () => {
  test("containers and fractions of a text with whitespace, escapes and empty containers", () => {
    const text =
      ' { "a\\u0041" : [ 1.0 , {} , [ ] , 2 , "x\\"" , true , 5e-1 ] ,"\\ud83d\\ude00":{"z":-0.0e3}} ';
    const events = scanEvents(text);
    expect(events).toEqual(spanEvents(parseJsonSpans(text, 100), [], []));
    expect(events).toEqual([
      "open []",
      'open ["aA"]',
      '["aA",0] true',
      'open ["aA",1]',
      "close",
      'open ["aA",2]',
      "close",
      '["aA",6] false',
      "close",
      `open ${JSON.stringify(["\u{1F600}"])}`,
      `${JSON.stringify(["\u{1F600}", "z"])} true`,
      "close",
      "close",
    ]);
  });

  test("property: what the text's spans say, in the text's order", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(scanEvents(text)).toEqual(spanEvents(parseJsonSpans(text, 1000), [], []));
      }),
      { seed: 15, numRuns: 500 },
    );
  });
});
