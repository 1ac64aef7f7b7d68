// The catalogue of hostile schemas and texts (issue 13), each generated at
// several sizes. test/schema-budget.test.ts asserts each case's cost in budget
// units (deterministic) and a generous wall-clock guard; `npx tsx
// test/schema-budget-catalogue.ts` prints the size → units → ms table that
// SECURITY.md shows.

import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/re2.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { walkCounted } from "./schema-walk.js";

/** One hostile input class: a schema and arguments built for a size. */
export interface HostileCase {
  readonly name: string;
  /** The sizes the catalogue runs it at (each about four times the last). */
  readonly sizes: readonly number[];
  readonly make: (size: number) => { schema: JsonSchema; args: unknown };
  /** The engine the case runs with (null: none). */
  readonly patterns: PatternEngine | null;
}

const key = (n: number, fill = "a") => `${fill.repeat(n)}!`;

export const HOSTILE_CASES: readonly HostileCase[] = [
  {
    name: "nested quantifier ^(a+)+$, one key of n characters",
    sizes: [1_000, 4_000, 16_000],
    make: (n) => ({
      schema: { patternProperties: { "^(a+)+$": { type: "integer" } } },
      args: { [key(n)]: 1 },
    }),
    patterns: re2Patterns,
  },
  {
    name: "alternation under a star ^(a|aa)*$, one key of n characters",
    sizes: [1_000, 4_000, 16_000],
    make: (n) => ({
      schema: { patternProperties: { "^(a|aa)*$": { type: "integer" } } },
      args: { [key(n)]: 1 },
    }),
    patterns: re2Patterns,
  },
  {
    name: "a 24-character screen walked around: ^(a{1,1e21})*$ and ^(\\u{1,30})*\\a$, n keys",
    sizes: [250, 1_000, 4_000],
    make: (n) => ({
      schema: {
        patternProperties: {
          "^(a{1,1000000000000000000000})*$": { type: "integer" },
          "^(\\u{1,30})*\\a$": { type: "integer" },
        },
      },
      args: Object.fromEntries(Array.from({ length: n }, (_, i) => [`${key(28)}${i}`, i])),
    }),
    patterns: re2Patterns,
  },
  {
    name: "n patterns with an unbounded quantifier, one 4 KB key",
    sizes: [10, 40, 160, 2_000],
    make: (n) => ({
      schema: {
        patternProperties: Object.fromEntries(
          Array.from({ length: n }, (_, i) => [`^a*${i}$`, { type: "integer" }]),
        ),
      },
      args: { [key(4096)]: 1 },
    }),
    patterns: re2Patterns,
  },
  {
    name: "an anyOf of 1,000 branches with additionalProperties, n keys",
    sizes: [100, 1_000, 10_000],
    make: (n) => ({
      schema: {
        anyOf: Array.from({ length: 1000 }, (_, i) => ({
          properties: { [`p${i}`]: { type: "integer" } },
          additionalProperties: { type: i % 2 ? "integer" : "number" },
        })),
      },
      args: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])),
    }),
    patterns: null,
  },
  {
    name: "an anyOf of n branches with additionalProperties, n keys",
    sizes: [250, 1_000, 5_000],
    make: (n) => ({
      schema: {
        anyOf: Array.from({ length: n }, (_, i) => ({
          properties: { [`p${i}`]: { type: "integer" } },
          additionalProperties: { type: i % 2 ? "integer" : "number" },
        })),
      },
      args: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])),
    }),
    patterns: null,
  },
  {
    name: "n distinct discriminated object branches, one object",
    sizes: [1_000, 4_000, 16_000],
    make: (n) => ({
      schema: {
        anyOf: Array.from({ length: n }, (_, i) => ({
          type: "object",
          properties: { a: { type: i % 2 ? "integer" : "number" }, [`k${i}`]: { const: i } },
          required: [`k${i}`],
        })),
      },
      args: { a: 1, b: { c: 2 } },
    }),
    patterns: null,
  },
  {
    // Each branch reaches the union again through a ref object of its own: once 2^(n+1) − 1 units.
    name: "a union reached again through n distinct refs in its own branches: a number, a member, an element",
    sizes: [11, 40, 160, 640],
    make: (n) => ({
      schema: {
        $defs: {
          union: {
            anyOf: Array.from({ length: n }, () => ({ anyOf: [{ $ref: "#/$defs/union" }] })),
            properties: { a: { type: "integer" } },
            items: { type: "integer" },
          },
        },
        properties: {
          n: { $ref: "#/$defs/union" },
          o: { $ref: "#/$defs/union" },
          l: { $ref: "#/$defs/union" },
        },
      },
      args: { n: 1, o: { a: 1 }, l: [1] },
    }),
    patterns: null,
  },
  {
    name: "a recursive anyOf n levels deep, over arguments n levels deep",
    sizes: [10, 40, 160],
    make: (n) => {
      let args: unknown = 1;
      for (let i = 0; i < n; i++) args = { x: args };
      return {
        schema: {
          $defs: {
            node: {
              anyOf: [
                { type: "object", properties: { x: { $ref: "#/$defs/node" } }, required: ["x"] },
                { type: "object", properties: { y: { $ref: "#/$defs/node" } }, required: ["y"] },
                { type: "integer" },
              ],
            },
          },
          $ref: "#/$defs/node",
        },
        args,
      };
    },
    patterns: null,
  },
  {
    name: "n rows of a 200-way discriminated union",
    sizes: [1_000, 4_000, 16_000],
    make: (n) => ({
      schema: {
        type: "array",
        items: {
          oneOf: Array.from({ length: 200 }, (_, i) => ({
            properties: { kind: { const: `k${i}` }, n: { type: i % 2 ? "integer" : "number" } },
            required: ["kind"],
          })),
        },
      },
      args: Array.from({ length: n }, (_, i) => ({ kind: `k${i % 200}`, n: i })),
    }),
    patterns: null,
  },
  {
    name: "n distinct keys against a heavy pattern (8 × a{0,30}, weight 8)",
    sizes: [250, 1_000, 4_000],
    make: (n) => ({
      schema: {
        patternProperties: { [`^${"a{0,30}".repeat(8)}b`]: { type: "integer" } },
        additionalProperties: { type: "number" },
      },
      args: Object.fromEntries(Array.from({ length: n }, (_, i) => [`${key(40)}${i}`, i])),
    }),
    patterns: re2Patterns,
  },
  {
    name: "n rows with the same keys under patternProperties (asked once per call)",
    sizes: [1_000, 4_000, 16_000],
    make: (n) => ({
      schema: {
        type: "array",
        items: { patternProperties: { "^(a+)+$": { type: "integer" }, "^n_": { type: "number" } } },
      },
      args: Array.from({ length: n }, (_, i) => ({ [key(200)]: i, n_x: i })),
    }),
    patterns: re2Patterns,
  },
  {
    name: "n patternProperties objects nested n deep",
    sizes: [10, 40, 160],
    make: (n) => {
      let args: unknown = 1;
      for (let i = 0; i < n; i++) args = { [`x${i}`]: args };
      return {
        schema: {
          $defs: {
            node: {
              patternProperties: { "^x[0-9]+$": { $ref: "#/$defs/node" } },
              type: ["object", "integer"],
            },
          },
          $ref: "#/$defs/node",
        },
        args,
      };
    },
    patterns: re2Patterns,
  },
  {
    name: "the Kubernetes fieldSelector pattern, n selectors",
    sizes: [100, 400, 1_600],
    make: (n) => ({
      schema: {
        patternProperties: {
          "^[.\\-A-Za-z0-9]+([=!,]{1,2}[./\\-A-Za-z0-9]+)+$": { type: "integer" },
          "^([a-z]+=[a-z]+)(,[a-z]+=[a-z]+)*$": { type: "number" },
        },
      },
      args: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`metadata.name${i}=x,status.phase!=Running`, i]),
      ),
    }),
    patterns: re2Patterns,
  },
];

/** One run of one case at one size. */
export interface Measured {
  readonly units: number;
  readonly ms: number;
  /** Diagnostics noted (schema-too-complex, schema-pattern-unevaluated). */
  readonly notes: number;
  /** Values in the arguments plus the length of every key: the input size the budget grows with. */
  readonly inputSize: number;
}

/** Values (each key counted with its text length) in a parsed JSON value. */
export function inputSize(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce<number>((n, x) => n + inputSize(x), 0);
  if (typeof v === "object" && v !== null) {
    let n = 1;
    for (const [k, x] of Object.entries(v)) n += k.length + inputSize(x);
    return n;
  }
  return 1;
}

/** Runs `c` at `size` (schema built fresh, so the cost is the cold one). */
export function measure(c: HostileCase, size: number): Measured {
  const { schema, args } = c.make(size);
  const start = performance.now();
  const r = walkCounted(schema, args, c.patterns);
  return {
    units: r.units,
    ms: performance.now() - start,
    notes: r.notes.length,
    inputSize: inputSize(args),
  };
}

function printTable(): void {
  console.log("| case | size | units | ms | notes |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const c of HOSTILE_CASES) {
    for (const size of c.sizes) {
      measure(c, size); // JIT warm-up; the schema is built fresh each time, so the cost is the cold one
      const m = measure(c, size);
      console.log(
        `| \`${c.name.replaceAll("|", "\\|")}\` | ${size} | ${m.units} | ${m.ms.toFixed(1)} | ${m.notes} |`,
      );
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable();
