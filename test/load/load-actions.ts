// The actions of the load test: four argument shapes that exercise the exact
// paths (an id above 2^53, a whole float, astral characters and escapes, a
// uint64, -0.0, a `__proto__` member), numbered so that a lost, duplicated or
// reordered action is caught, with the text each decoding path must produce.
import type { JsonSchema } from "../../src/schema/json-schema.js";

/** The tool's input schema (from JSON text, so `__proto__` is an ordinary member). */
export const SCHEMA = JSON.parse(`{
  "type": "object",
  "properties": {
    "seq": { "type": "integer" },
    "id": { "type": "integer" },
    "amount": { "type": "number" },
    "name": { "type": "string" },
    "items": { "type": "array", "items": { "properties": { "qty": { "type": "integer" } } } },
    "total": { "type": "number" },
    "big": { "type": "integer" },
    "neg": { "type": "number" },
    "__proto__": { "properties": { "x": { "type": "number" } } },
    "tags": { "type": "array", "items": { "type": "string" } }
  }
}`) as JsonSchema;

const SHAPES: readonly {
  raw: (k: number) => string;
  struct: (k: number) => string;
  notes: readonly string[];
}[] = [
  {
    raw: (k) => `{"seq":${k},"id":9007199254740993,"amount":1.0,"name":"é😀 \\n"}`,
    struct: (k) => `{"seq":${k},"id":9007199254740992,"amount":1.0,"name":"é😀 \\n"}`,
    notes: ["integer-precision-lost /id"],
  },
  {
    raw: (k) => `{"seq":${k},"items":[{"sku":"a","qty":2},{"sku":"b","qty":3}],"total":12.50}`,
    struct: (k) => `{"seq":${k},"items":[{"sku":"a","qty":2},{"sku":"b","qty":3}],"total":12.5}`,
    notes: [],
  },
  {
    raw: (k) => `{ "seq" : ${k} , "big" : 18446744073709551615 , "neg":-0.0 }`,
    struct: (k) => `{"seq":${k},"big":18446744073709551616,"neg":-0.0}`,
    notes: ["integer-precision-lost /big"],
  },
  {
    raw: (k) => `{"seq":${k},"__proto__":{"x":1e-7},"tags":["a","\\u0062"]}`,
    struct: (k) => `{"seq":${k},"__proto__":{"x":1e-7},"tags":["a","b"]}`,
    notes: [],
  },
];

/** The model's argument text of action number `k`. */
export function argumentsText(k: number): string {
  return SHAPES[k % SHAPES.length]!.raw(k);
}

/** What the Struct path (rawJson "ignore", {@link SCHEMA}) must write for action `k`. */
export function structText(k: number): string {
  return SHAPES[k % SHAPES.length]!.struct(k);
}

/** The diagnostics ("code path") the Struct path must report for action `k`. */
export function structNotes(k: number): readonly string[] {
  return SHAPES[k % SHAPES.length]!.notes;
}
