// Deterministic benchmark payloads. The JSON text is written directly (not via
// JSON.stringify of an object) because the ids are above 2^53 and some floats
// are whole numbers written as "3.0": exactly what a JS object cannot hold.
// Strings go through JSON.stringify, so the text escapes them as the package does.

import type { JsonSchemaObject } from "../src/schema/json-schema.js";
import { type SeededRandom, seededRandom } from "./seeded-random.js";

/** The payload sizes the issue names. */
export type PayloadName = "S" | "M" | "L" | "XL" | "Deep";

/** Every payload name, in report order. */
export const payloadNames: readonly PayloadName[] = ["S", "M", "L", "XL", "Deep"];

/** One benchmark input: the JSON text a model or tool wrote, and the schema that describes it. */
export interface Payload {
  /** Which size this is. */
  readonly name: PayloadName;
  /** The tool name, for building a `CallMCPTool`. */
  readonly toolName: string;
  /** Compact JSON text of one object (the tool's arguments or its structured result). */
  readonly text: string;
  /** UTF-8 length of `text`, the basis of every MB/s figure. */
  readonly bytes: number;
  /** A Pydantic-v2-style schema (`$defs`, `anyOf` with `{"type":"null"}`) describing `text`. */
  readonly schema: JsonSchemaObject;
  /** JSON nesting depth of `text` (objects and arrays). */
  readonly depth: number;
}

/** How big the generated payloads are; `--quick` shrinks the row sets. */
export interface PayloadScale {
  /** Rows in L (the issue: 20,000, about 5 MB). */
  readonly lRows: number;
  /** Rows in XL (the issue: about 50 MB, i.e. 200,000 rows). */
  readonly xlRows: number;
  /** Orders in M (about 50 KB at 36). */
  readonly mOrders: number;
}

/** The sizes the issue asks for. */
export const fullScale: PayloadScale = Object.freeze({
  lRows: 20_000,
  xlRows: 200_000,
  mOrders: 36,
});

/** Tiny sizes for the smoke run: seconds, not minutes. */
export const quickScale: PayloadScale = Object.freeze({ lRows: 200, xlRows: 2_000, mOrders: 4 });

/** Nesting depth of the Deep payload (the issue: 90 levels). */
export const deepLevels = 90;

const seeds: Readonly<Record<PayloadName, number>> = {
  S: 0x5eed0001,
  M: 0x5eed0002,
  L: 0x5eed0003,
  XL: 0x5eed0003, // same stream as L: XL is L continued, so per-row cost is identical
  Deep: 0x5eed0005,
};

const plainWords = [
  "order",
  "shipment",
  "invoice",
  "customer",
  "warehouse",
  "pallet",
  "delayed",
  "express",
  "returned",
  "fragile",
  "north",
  "south",
  "batch",
  "priority",
  "ledger",
];

// Text that needs escaping or is outside ASCII (東京 and 🚚 make the whole JSON
// text a two-byte string in V8, as any such text decoded from the network is).
const specialWords = [
  "Zürich",
  "São Paulo",
  "naïve",
  "東京",
  'say "hi"',
  "C:\\tmp",
  "tab\there",
  "line\nbreak",
  "🚚",
];

const words = [...plainWords, ...specialWords];

const jsonString = (s: string): string => JSON.stringify(s);

/** Words up to a length; one sentence in five may contain special words, the rest are plain ASCII. */
function sentence(r: SeededRandom, minChars: number, maxChars: number): string {
  const target = r.int(minChars, maxChars);
  const from = r.chance(0.2) ? words : plainWords;
  let s = r.pick(from);
  while (s.length < target) s += ` ${r.pick(from)}`;
  return s;
}

/** A float as a model or a database writes it: mostly 2 decimals, some whole ("12.0"), some long. */
function floatText(r: SeededRandom, scale: number): string {
  const roll = r.next();
  if (roll < 0.2) return `${r.int(0, scale)}.0`;
  if (roll < 0.85) return String(Math.round(r.next() * scale * 100) / 100);
  return String(r.next() * scale);
}

/** An id above 2^53 (snowflake-like, 19 digits): the case float64 cannot hold. */
function bigIdText(r: SeededRandom, i: number): string {
  return String(1152921504606846977n + BigInt(i) * 1_000_003n + BigInt(r.int(0, 999_999)));
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

function payload(
  name: PayloadName,
  toolName: string,
  text: string,
  schema: JsonSchemaObject,
  depth: number,
): Payload {
  return Object.freeze({ name, toolName, text, bytes: utf8Length(text), schema, depth });
}

// S: a typical ~300 B tool call (a code search), Pydantic v2 shape.
function smallPayload(): Payload {
  const r = seededRandom(seeds.S);
  const text =
    `{"query":${jsonString("func (h *Handler) ServeHTTP")},"path":"src/server/handlers","file_glob":"*.go",` +
    `"line_range":{"start":${r.int(100, 200)},"end":${r.int(300, 400)}},"context_lines":3,` +
    `"max_results":50,"min_score":0.75,"case_sensitive":false,"exclude":["vendor","testdata"],` +
    `"since_commit":null,"request_id":9007199254740993}`;
  const schema: JsonSchemaObject = {
    $defs: {
      LineRange: {
        properties: {
          start: { title: "Start", type: "integer" },
          end: { anyOf: [{ type: "integer" }, { type: "null" }], default: null, title: "End" },
        },
        required: ["start"],
        title: "LineRange",
        type: "object",
      },
    },
    properties: {
      query: { title: "Query", type: "string" },
      path: { default: ".", title: "Path", type: "string" },
      file_glob: {
        anyOf: [{ type: "string" }, { type: "null" }],
        default: null,
        title: "File Glob",
      },
      line_range: { anyOf: [{ $ref: "#/$defs/LineRange" }, { type: "null" }], default: null },
      context_lines: { default: 2, title: "Context Lines", type: "integer" },
      max_results: {
        anyOf: [{ type: "integer" }, { type: "null" }],
        default: null,
        title: "Max Results",
      },
      min_score: { default: 0.5, title: "Min Score", type: "number" },
      case_sensitive: { default: true, title: "Case Sensitive", type: "boolean" },
      exclude: { items: { type: "string" }, title: "Exclude", type: "array" },
      since_commit: {
        anyOf: [{ type: "string" }, { type: "null" }],
        default: null,
        title: "Since Commit",
      },
      request_id: { title: "Request Id", type: "integer" },
    },
    required: ["query", "request_id"],
    title: "SearchCodeArguments",
    type: "object",
  };
  return payload("S", "search_code", text, schema, 3);
}

// M: a ~50 KB tool call with nested objects, arrays, optional fields and a big customer id.
function mediumPayload(orders: number): Payload {
  const r = seededRandom(seeds.M);
  const parts: string[] = [];
  parts.push(
    `{"customer":{"id":${bigIdText(r, 0)},"name":${jsonString(sentence(r, 8, 20))},` +
      `"address":{"street":${jsonString(sentence(r, 10, 30))},"city":${jsonString(r.pick(words))},` +
      `"zip":"${r.int(10000, 99999)}","geo":{"lat":${floatText(r, 90)},"lon":${floatText(r, 180)}}},` +
      `"tags":["vip","b2b"],"credit_limit":${floatText(r, 100000)}},"orders":[`,
  );
  for (let o = 0; o < orders; o++) {
    if (o > 0) parts.push(",");
    parts.push(
      `{"order_id":${r.int(1, 2_000_000_000)},"reference":${jsonString(`PO-${r.int(1000, 9999)}`)},` +
        `"priority":${r.chance(0.3) ? "null" : r.int(1, 5)},"scheduled":${r.chance(0.5)},` +
        `"notes":${r.chance(0.6) ? "null" : jsonString(sentence(r, 20, 120))},"items":[`,
    );
    const items = r.int(3, 9);
    for (let i = 0; i < items; i++) {
      if (i > 0) parts.push(",");
      parts.push(
        `{"sku":"SKU-${r.int(100000, 999999)}","quantity":${r.int(1, 500)},` +
          `"unit_price":${floatText(r, 2000)},"discount":${r.chance(0.5) ? "null" : floatText(r, 1)},` +
          `"dims":{"w":${floatText(r, 100)},"h":${floatText(r, 100)},"d":${floatText(r, 100)}},` +
          `"attributes":{"color":${jsonString(r.pick(words))},"fragile":${r.chance(0.2)},` +
          `"batch":${r.int(1, 99999)}},"serials":[${r.int(1e6, 9e6)},${r.int(1e6, 9e6)}]}`,
      );
    }
    parts.push("]}");
  }
  parts.push(`],"options":{"dry_run":false,"currency":"EUR","rounding":0.01,"max_retries":3}}`);
  const nullable = (s: JsonSchemaObject, title: string): JsonSchemaObject => ({
    anyOf: [s, { type: "null" }],
    default: null,
    title,
  });
  const schema: JsonSchemaObject = {
    $defs: {
      Geo: {
        properties: {
          lat: { title: "Lat", type: "number" },
          lon: { title: "Lon", type: "number" },
        },
        required: ["lat", "lon"],
        title: "Geo",
        type: "object",
      },
      Address: {
        properties: {
          street: { title: "Street", type: "string" },
          city: { title: "City", type: "string" },
          zip: { title: "Zip", type: "string" },
          geo: nullable({ $ref: "#/$defs/Geo" }, "Geo"),
        },
        required: ["street", "city", "zip"],
        title: "Address",
        type: "object",
      },
      Customer: {
        properties: {
          id: { title: "Id", type: "integer" },
          name: { title: "Name", type: "string" },
          address: { $ref: "#/$defs/Address" },
          tags: { items: { type: "string" }, title: "Tags", type: "array" },
          credit_limit: nullable({ type: "number" }, "Credit Limit"),
        },
        required: ["id", "name", "address"],
        title: "Customer",
        type: "object",
      },
      Dimensions: {
        properties: {
          w: { title: "W", type: "number" },
          h: { title: "H", type: "number" },
          d: { title: "D", type: "number" },
        },
        required: ["w", "h", "d"],
        title: "Dimensions",
        type: "object",
      },
      Item: {
        properties: {
          sku: { title: "Sku", type: "string" },
          quantity: { exclusiveMinimum: 0, title: "Quantity", type: "integer" },
          unit_price: { title: "Unit Price", type: "number" },
          discount: nullable({ maximum: 1, minimum: 0, type: "number" }, "Discount"),
          dims: { $ref: "#/$defs/Dimensions" },
          attributes: {
            additionalProperties: {
              anyOf: [{ type: "string" }, { type: "boolean" }, { type: "integer" }],
            },
            title: "Attributes",
            type: "object",
          },
          serials: { items: { type: "integer" }, title: "Serials", type: "array" },
        },
        required: ["sku", "quantity", "unit_price", "dims"],
        title: "Item",
        type: "object",
      },
      Order: {
        properties: {
          order_id: { title: "Order Id", type: "integer" },
          reference: { title: "Reference", type: "string" },
          priority: nullable({ maximum: 5, minimum: 1, type: "integer" }, "Priority"),
          scheduled: { default: false, title: "Scheduled", type: "boolean" },
          notes: nullable({ type: "string" }, "Notes"),
          items: { items: { $ref: "#/$defs/Item" }, title: "Items", type: "array" },
        },
        required: ["order_id", "reference", "items"],
        title: "Order",
        type: "object",
      },
      Options: {
        properties: {
          dry_run: { default: false, title: "Dry Run", type: "boolean" },
          currency: {
            default: "EUR",
            enum: ["EUR", "USD", "CHF"],
            title: "Currency",
            type: "string",
          },
          rounding: { default: 0.01, title: "Rounding", type: "number" },
          max_retries: { default: 3, title: "Max Retries", type: "integer" },
        },
        title: "Options",
        type: "object",
      },
    },
    properties: {
      customer: { $ref: "#/$defs/Customer" },
      orders: { items: { $ref: "#/$defs/Order" }, title: "Orders", type: "array" },
      options: nullable({ $ref: "#/$defs/Options" }, "Options"),
    },
    required: ["customer", "orders"],
    title: "CreateOrdersArguments",
    type: "object",
  };
  return payload("M", "create_orders", parts.join(""), schema, 6);
}

/** The output schema of the row-set tool (Pydantic v2: a tuple row is `prefixItems`). */
export const rowSetSchema: JsonSchemaObject = Object.freeze({
  $defs: {
    Row: {
      maxItems: 6,
      minItems: 6,
      prefixItems: [
        { type: "integer" },
        { type: "integer" },
        { type: "number" },
        { type: "string" },
        { type: "boolean" },
        { anyOf: [{ type: "integer" }, { type: "null" }] },
      ],
      type: "array",
    },
  },
  properties: {
    columns: { items: { type: "string" }, title: "Columns", type: "array" },
    rows: { items: { $ref: "#/$defs/Row" }, title: "Rows", type: "array" },
    row_count: { title: "Row Count", type: "integer" },
    next_cursor: {
      anyOf: [{ type: "string" }, { type: "null" }],
      default: null,
      title: "Next Cursor",
    },
  },
  required: ["columns", "rows", "row_count"],
  title: "QueryResult",
  type: "object",
});

// L and XL: a database row set, [id above 2^53, int, float (some whole), string, bool, null] per row.
function rowSetPayload(name: "L" | "XL", rows: number): Payload {
  const r = seededRandom(seeds[name]);
  const parts: string[] = [
    `{"columns":["id","quantity","price","description","active","parent_id"],"rows":[`,
  ];
  for (let i = 0; i < rows; i++) {
    parts.push(
      `${i > 0 ? "," : ""}[${bigIdText(r, i)},${r.int(-1_000_000, 1_000_000)},${floatText(r, 10_000)},` +
        `${jsonString(sentence(r, 120, 276))},${r.chance(0.5)},null]`,
    );
  }
  parts.push(`],"row_count":${rows},"next_cursor":null}`);
  return payload(name, "query_rows", parts.join(""), rowSetSchema, 3);
}

// Deep: 90 levels of objects, described by a recursive schema (`$ref` inside `anyOf`-null).
function deepPayload(): Payload {
  const r = seededRandom(seeds.Deep);
  let inner = "null";
  // Levels: the outer object, then deepLevels - 1 nested nodes.
  for (let d = deepLevels - 1; d >= 1; d--) {
    inner =
      `{"depth":${d},"weight":${floatText(r, 10)},"label":${jsonString(r.pick(words))},` +
      `"child":${inner}}`;
  }
  const text = `{"root":${inner}}`;
  const schema: JsonSchemaObject = {
    $defs: {
      Node: {
        properties: {
          depth: { title: "Depth", type: "integer" },
          weight: { title: "Weight", type: "number" },
          label: { title: "Label", type: "string" },
          child: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }], default: null },
        },
        required: ["depth", "weight"],
        title: "Node",
        type: "object",
      },
    },
    properties: { root: { $ref: "#/$defs/Node" } },
    required: ["root"],
    title: "WalkTreeArguments",
    type: "object",
  };
  return payload("Deep", "walk_tree", text, schema, deepLevels);
}

/** Builds one payload; the same name and scale always give the same bytes. */
export function makePayload(name: PayloadName, scale: PayloadScale): Payload {
  switch (name) {
    case "S":
      return smallPayload();
    case "M":
      return mediumPayload(scale.mOrders);
    case "L":
      return rowSetPayload("L", scale.lRows);
    case "XL":
      return rowSetPayload("XL", scale.xlRows);
    case "Deep":
      return deepPayload();
  }
}
