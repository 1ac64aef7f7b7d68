// The one walk that pairs a value with its schema (src/schema/walk.ts): what
// its visitor sees, in which order and at which path, for both forms of a
// Struct, through a SchemaReader and through the writer's plans; `only`; the
// recursion limit; the message form's errors; the budget it charges.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Struct, Value } from "@bufbuild/protobuf/wkt";
import { describe, expect, test } from "vitest";
import type { DiagnosticCode } from "../src/diagnostics.js";
import type { StructJsonErrorCode } from "../src/errors.js";
import { pointerFrom } from "../src/json-pointer.js";
import {
  type NumberReading,
  rootNode,
  type SchemaNode,
  SchemaReader,
  walkNumbers,
} from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import {
  pathTree,
  type SchemaSource,
  type WalkOptions,
  type WalkVisitor,
  walkValue,
} from "../src/schema/walk.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { MemberProbe } from "../src/struct/object-probes.js";
import { inspectNumbers, structToJson } from "../src/struct/to-json.js";
import { PlanReader } from "../src/struct/writer-plan.js";
import { expectStructJsonError } from "./hostile-helpers.js";

/** Writes each event as a line "event args @ path". */
class Recorder implements WalkVisitor {
  readonly events: string[] = [];
  readonly note: (code: DiagnosticCode) => void;
  constructor(readonly path: (string | number)[]) {
    this.note = (code) => this.log(`note ${code}`);
  }
  private log(event: string): void {
    this.events.push(`${event} @ ${pointerFrom(this.path)}`);
  }
  member(key: string, index: number): void {
    this.log(`member ${JSON.stringify(key)} ${index}`);
  }
  element(index: number): void {
    this.log(`element ${index}`);
  }
  enterObject(keys: readonly string[], depth: number): void {
    this.log(`enterObject [${keys.join(",")}] depth ${depth}`);
  }
  enterArray(length: number, depth: number): void {
    this.log(`enterArray ${length} depth ${depth}`);
  }
  number(value: number, reading: NumberReading): void {
    this.log(`number ${value} ${reading}`);
  }
  primitive(value: unknown): void {
    this.log(`primitive ${JSON.stringify(value)}`);
  }
  leave(array: boolean): void {
    this.log(`leave ${array ? "array" : "object"}`);
  }
}

type Form = "plain" | "message";
const FORMS: readonly Form[] = ["plain", "message"];

/** The walk's input for `text` in `form`: the parsed object, or a Struct message's fields. */
function input(text: string, form: Form): Record<string, unknown> {
  return form === "plain" ? (JSON.parse(text) as JsonObject) : structMessageFromJson(text).fields;
}

/** Walk options for a test: errors on, no `only`, `message` and the rest as given. */
function walkOptions(
  path: (string | number)[],
  message: boolean,
  options: Partial<Omit<WalkOptions, "path" | "message">> = {},
): WalkOptions {
  return {
    message,
    recursionLimit: 100,
    deeper: "error",
    unsetValue: "error",
    only: undefined,
    path,
    ...options,
  };
}

/** Walks `text` (a JSON object) under `schema`; returns the events and the units charged. */
function record(
  text: string,
  schema: JsonSchema | undefined,
  form: Form,
  options: Partial<Omit<WalkOptions, "path" | "message">> = {},
  source: "reader" | "plans" = "reader",
): { events: string[]; units: number } {
  const path: (string | number)[] = [];
  const visitor = new Recorder(path);
  const node = rootNode(schema);
  const reader = source === "reader" ? new SchemaReader({ patterns: undefined }) : undefined;
  const plans = source === "plans" ? new PlanReader(undefined) : undefined;
  walkValue(
    input(text, form),
    plans?.root(node) ?? node,
    (reader ?? plans) as SchemaSource,
    visitor,
    walkOptions(path, form === "message", options),
  );
  expect(path).toEqual([]); // left as found
  return { events: visitor.events, units: (reader ?? plans)!.units };
}

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    price: { type: "number" },
    tags: { type: "array", items: { type: "integer" } },
    ref: { $ref: "#/$defs/missing" },
    inner: { type: "object", properties: { n: { type: ["integer", "number"] } } },
  },
};

const TEXT = '{"id":5,"price":2,"tags":[1,2.5],"ref":7,"inner":{"n":3,"s":"x","b":true,"z":null}}';

/** The events of TEXT under SCHEMA: the same in both forms and through both sources. */
const EVENTS = [
  "enterObject [id,price,tags,ref,inner] depth 1 @ ",
  'member "id" 0 @ /id',
  "number 5 integer @ /id",
  'member "price" 1 @ /price',
  "number 2 number @ /price",
  'member "tags" 2 @ /tags',
  "enterArray 2 depth 2 @ /tags",
  "element 0 @ /tags/0",
  "number 1 integer @ /tags/0",
  "element 1 @ /tags/1",
  "number 2.5 integer @ /tags/1",
  "leave array @ /tags",
  'member "ref" 3 @ /ref',
  "note schema-ref-unresolved @ /ref",
  "number 7 unknown @ /ref",
  'member "inner" 4 @ /inner',
  "enterObject [n,s,b,z] depth 2 @ /inner",
  'member "n" 0 @ /inner/n',
  "number 3 ambiguous @ /inner/n",
  'member "s" 1 @ /inner/s',
  'primitive "x" @ /inner/s',
  'member "b" 2 @ /inner/b',
  "primitive true @ /inner/b",
  'member "z" 3 @ /inner/z',
  "primitive null @ /inner/z",
  "leave object @ /inner",
  "leave object @ ",
];

describe("the visitor's events", () => {
  for (const form of FORMS) {
    for (const source of ["reader", "plans"] as const) {
      test(`${form} form through ${source === "reader" ? "a SchemaReader" : "plans"}: order, paths, readings, notes`, () => {
        expect(record(TEXT, SCHEMA, form, {}, source).events).toEqual(EVENTS);
      });
    }
  }

  test("no schema: every number unknown, no notes, containers still entered", () => {
    expect(record('{"a":[1,{"b":2}]}', undefined, "plain").events).toEqual([
      "enterObject [a] depth 1 @ ",
      'member "a" 0 @ /a',
      "enterArray 2 depth 2 @ /a",
      "element 0 @ /a/0",
      "number 1 unknown @ /a/0",
      "element 1 @ /a/1",
      "enterObject [b] depth 3 @ /a/1",
      'member "b" 0 @ /a/1/b',
      "number 2 unknown @ /a/1/b",
      "leave object @ /a/1",
      "leave array @ /a",
      "leave object @ ",
    ]);
  });

  test("a plain top-level number is visited at the root", () => {
    const path: (string | number)[] = [];
    const visitor = new Recorder(path);
    walkValue(
      5,
      rootNode({ type: "integer" }),
      new SchemaReader({ patterns: undefined }),
      visitor,
      walkOptions(path, false),
    );
    expect(visitor.events).toEqual(["number 5 integer @ "]);
  });

  test("keys like __proto__ are members like any other", () => {
    const text = '{"__proto__":{"x":1},"constructor":2}';
    for (const form of FORMS) {
      expect(record(text, { additionalProperties: { type: "integer" } }, form).events).toEqual([
        "enterObject [__proto__,constructor] depth 1 @ ",
        'member "__proto__" 0 @ /__proto__',
        "enterObject [x] depth 2 @ /__proto__",
        'member "x" 0 @ /__proto__/x',
        "number 1 unknown @ /__proto__/x",
        "leave object @ /__proto__",
        'member "constructor" 1 @ /constructor',
        "number 2 integer @ /constructor",
        "leave object @ ",
      ]);
    }
  });
});

describe("only", () => {
  const cases: { name: string; only: (string | number)[][]; numbers: string[] }[] = [
    { name: "one member", only: [["id"]], numbers: ["number 5 integer @ /id"] },
    {
      name: "one element and a nested member",
      only: [
        ["tags", 1],
        ["inner", "n"],
      ],
      numbers: ["number 2.5 integer @ /tags/1", "number 3 ambiguous @ /inner/n"],
    },
    { name: "a path that is not there", only: [["nope", 3]], numbers: [] },
    { name: "nothing", only: [], numbers: [] },
  ];
  for (const c of cases) {
    for (const form of FORMS) {
      test(`${c.name} (${form} form)`, () => {
        const { events } = record(TEXT, SCHEMA, form, { only: pathTree(c.only) });
        expect(events.filter((e) => e.startsWith("number"))).toEqual(c.numbers);
        // Nothing outside the paths is asked: no note at /ref unless it is on a path.
        expect(events.some((e) => e.startsWith("note"))).toBe(false);
      });
    }
  }

  test("walkNumbers along `only` paths", () => {
    const seen: string[] = [];
    walkNumbers(
      JSON.parse(TEXT) as JsonValue,
      SCHEMA,
      (path, value, reading) => seen.push(`${pointerFrom(path)} ${value} ${reading}`),
      { only: [["tags", 0], ["price"]] },
    );
    expect(seen).toEqual(["/price 2 number", "/tags/0 1 integer"]);
  });
});

describe("recursion limit", () => {
  const deep = '{"a":{"b":{"c":[1]}}}';
  for (const form of FORMS) {
    test(`"error": recursion-limit at the first container past the limit (${form} form)`, () => {
      expectStructJsonError(() => record(deep, undefined, form, { recursionLimit: 3 }), {
        code: "recursion-limit",
        path: "/a/b/c",
      });
    });

    test(`"skip": the container past the limit is passed over (${form} form)`, () => {
      const { events } = record(deep, undefined, form, { recursionLimit: 3, deeper: "skip" });
      expect(events.filter((e) => !e.startsWith("leave"))).toEqual([
        "enterObject [a] depth 1 @ ",
        'member "a" 0 @ /a',
        "enterObject [b] depth 2 @ /a",
        'member "b" 0 @ /a/b',
        "enterObject [c] depth 3 @ /a/b",
        'member "c" 0 @ /a/b/c',
      ]);
    });
  }

  test("walkNumbers passes over numbers below its recursionLimit", () => {
    const seen: string[] = [];
    walkNumbers(
      JSON.parse('{"a":1,"b":{"c":2}}') as JsonValue,
      undefined,
      (path) => seen.push(pointerFrom(path)),
      { recursionLimit: 1 },
    );
    expect(seen).toEqual(["/a"]);
  });
});

describe("message form errors", () => {
  const value = (kind: unknown): Value => ({ $typeName: "google.protobuf.Value", kind }) as Value;
  const struct = (fields: Record<string, Value>): Struct =>
    ({ $typeName: "google.protobuf.Struct", fields }) as Struct;

  const walkFields = (
    fields: Record<string, Value>,
    unsetValue: WalkOptions["unsetValue"] = "error",
  ) => {
    const path: (string | number)[] = [];
    const visitor = new Recorder(path);
    walkValue(
      fields,
      rootNode(undefined),
      new SchemaReader({ patterns: undefined }),
      visitor,
      walkOptions(path, true, { unsetValue }),
    );
    return visitor.events;
  };

  const cases: {
    name: string;
    fields: Record<string, Value>;
    code: StructJsonErrorCode;
    path: string;
  }[] = [
    {
      name: "a struct_value that is not a Struct",
      fields: { a: value({ case: "structValue", value: { fields: [] } }) },
      code: "message-invalid",
      path: "/a",
    },
    {
      name: "a struct_value with no fields",
      fields: { a: value({ case: "structValue", value: undefined }) },
      code: "message-invalid",
      path: "/a",
    },
    {
      name: "a list_value that is not a ListValue, inside a list",
      fields: {
        a: value({
          case: "listValue",
          value: {
            values: [
              value({ case: "nullValue", value: 0 }),
              value({ case: "listValue", value: {} }),
            ],
          },
        }),
      },
      code: "message-invalid",
      path: "/a/1",
    },
    {
      // Decision: refused where the walk used to pass "12" on with no reading
      // (a stringValue holding 12345 was written as a number).
      name: "a numberValue holding a string",
      fields: { n: value({ case: "numberValue", value: "12" as unknown as number }) },
      code: "message-invalid",
      path: "/n",
    },
    {
      name: "a stringValue holding a number, inside a list",
      fields: {
        l: value({
          case: "listValue",
          value: { values: [value({ case: "stringValue", value: 12345 as unknown as string })] },
        }),
      },
      code: "message-invalid",
      path: "/l/0",
    },
    {
      name: "a Value with no kind",
      fields: { x: value({ case: undefined }) },
      code: "value-unset",
      path: "/x",
    },
    {
      name: "a member that is not a Value",
      fields: { ok: value({ case: "boolValue", value: true }), y: 5 as unknown as Value },
      code: "value-unset",
      path: "/y",
    },
    {
      name: "an unset Value deep inside a struct_value",
      fields: { o: value({ case: "structValue", value: struct({ p: value({}) }) }) },
      code: "value-unset",
      path: "/o/p",
    },
  ];
  for (const c of cases) {
    test(`${c.name}: ${c.code} at ${c.path}`, () => {
      expectStructJsonError(() => walkFields(c.fields), { code: c.code, path: c.path });
    });
  }

  test('unsetValue "null": value-unset noted, null visited', () => {
    expect(walkFields({ x: value({ case: undefined }) }, "null")).toEqual([
      "enterObject [x] depth 1 @ ",
      'member "x" 0 @ /x',
      "note value-unset @ /x",
      "primitive null @ /x",
      "leave object @ ",
    ]);
  });

  test("a plain value of no JSON type is unset too (value-unset at its path)", () => {
    const path: (string | number)[] = [];
    expectStructJsonError(
      () =>
        walkValue(
          { a: [1, undefined] },
          rootNode(undefined),
          new SchemaReader({ patterns: undefined }),
          new Recorder(path),
          walkOptions(path, false),
        ),
      { code: "value-unset", path: "/a/1" },
    );
  });
});

describe("budget", () => {
  /** The questions the walk asks for TEXT under SCHEMA, asked of a SchemaReader by hand. */
  function unitsByHand(): number {
    const r = new SchemaReader({ patterns: undefined });
    const note = () => {};
    const root = rootNode(SCHEMA);
    const value = JSON.parse(TEXT) as JsonObject;
    const scope = r.objectScope(root, new MemberProbe(value, false), note);
    r.numberReading(scope.child("id"), 5, note);
    r.numberReading(scope.child("price"), 2, note);
    const tags: SchemaNode = scope.child("tags");
    const tagScope = r.arrayScope(tags, 2, note);
    r.numberReading(tagScope.child(0), 1, note);
    r.numberReading(tagScope.child(1), 2.5, note);
    r.numberReading(scope.child("ref"), 7, note);
    const inner = scope.child("inner");
    const innerScope = r.objectScope(
      inner,
      new MemberProbe(value.inner as JsonObject, false),
      note,
    );
    r.numberReading(innerScope.child("n"), 3, note);
    innerScope.child("s");
    innerScope.child("b");
    innerScope.child("z");
    return r.units;
  }

  test("the walk charges what a SchemaReader charges for the same questions, in both forms", () => {
    const byHand = unitsByHand();
    expect(byHand).toBeGreaterThan(0);
    for (const form of FORMS) expect(record(TEXT, SCHEMA, form).units).toBe(byHand);
    expect(walkNumbers(JSON.parse(TEXT) as JsonValue, SCHEMA, () => {})).toBe(byHand);
  });
});

describe("consumers", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      o: { $ref: "#/nope" },
      a: { type: "array", items: { $ref: "#/x" } },
      n: { type: "integer" },
      f: { type: "number" },
      amb: { type: ["integer", "number"] },
    },
  };

  test("inspectNumbers: each number's codes are its own (a container's note is reported, not listed)", () => {
    const reported: string[] = [];
    const found = inspectNumbers(
      { o: { x: 1 }, a: [1, 2.5], n: 2 ** 60, f: 3, amb: 4, z: null },
      schema,
      {
        onDiagnostic: (d) => reported.push(`${d.code} at ${d.path}`),
      },
    );
    expect(found.map((n) => `${n.path} ${n.reading} ${n.text} [${n.codes.join(",")}]`)).toEqual([
      "/o/x unknown 1 []",
      "/a/0 unknown 1 [schema-ref-unresolved]",
      "/a/1 unknown 2.5 [schema-ref-unresolved]",
      "/n integer 1152921504606846976 [integer-precision-lost]",
      "/f number 3.0 []",
      "/amb ambiguous 4 [ambiguous-number]",
    ]);
    expect(reported).toEqual([
      "schema-ref-unresolved at /o",
      "schema-ref-unresolved at /a/0",
      "schema-ref-unresolved at /a/1",
      "integer-precision-lost at /n",
      "ambiguous-number at /amb",
    ]);
  });

  test('inspectNumbers: a non-finite number with nonFinite "null" is listed as null with its code', () => {
    const found = inspectNumbers(
      { x: Number.NaN, y: 1 },
      { type: "object" },
      { nonFinite: "null" },
    );
    expect(found).toEqual([
      {
        path: "/x",
        value: Number.NaN,
        reading: "unknown",
        text: "null",
        codes: ["non-finite-number"],
      },
      { path: "/y", value: 1, reading: "unknown", text: "1", codes: [] },
    ]);
  });

  test("inspectNumbers writes the texts structToJson writes", () => {
    const args = { n: 2 ** 60, f: 3, amb: 4, a: [1, 2.5] };
    const texts = Object.fromEntries(inspectNumbers(args, schema).map((n) => [n.path, n.text]));
    expect(structToJson(args, schema)).toBe(
      `{"n":${texts["/n"]},"f":${texts["/f"]},"amb":${texts["/amb"]},"a":[${texts["/a/0"]},${texts["/a/1"]}]}`,
    );
  });
});
