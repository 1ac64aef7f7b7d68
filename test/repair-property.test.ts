// Property tests of repair mode against oracles of their own: ajv (the same
// draft and options the package validates with) for validity, a small
// order-keeping JSON reader of this file for "what changed", and arguments
// built valid first, then broken only in ways with exactly one reading, so
// that repair must give back the original text byte for byte. Fixed seeds and
// run counts: no verdict depends on time or chance.
import { Ajv, type ErrorObject } from "ajv";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { collectDiagnostics } from "../src/diagnostics.js";
import { parsePointer, pointerFrom } from "../src/json-pointer.js";
import { Budget, REPAIR_BUDGET } from "../src/repair/budget.js";
import { readJsonTree, validationValue } from "../src/repair/json-tree.js";
import type { Repair, RepairResult } from "../src/repair/repair-arguments.js";
import { repairArguments, repairArgumentsMetered } from "../src/repair/repair-arguments.js";
import { validatorFor } from "../src/repair/validator.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { floatText, intText, runs, stringText, ws } from "./property-arbitraries.js";

// --- an order-keeping reader: number texts as written, members in text order ---

type Node =
  | { readonly k: "object"; readonly members: readonly (readonly [string, Node])[] }
  | { readonly k: "array"; readonly items: readonly Node[] }
  | { readonly k: "string"; readonly value: string }
  | { readonly k: "number"; readonly text: string }
  | { readonly k: "true" | "false" | "null" };

/** Reads a JSON text the package accepted (so: valid, no duplicate keys). */
function read(text: string): Node {
  let i = 0;
  const skip = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): Node => {
    skip();
    const c = text[i]!;
    if (c === "{") {
      i++;
      const members: [string, Node][] = [];
      skip();
      if (text[i] === "}") {
        i++;
        return { k: "object", members };
      }
      for (;;) {
        skip();
        const key = (value() as { value: string }).value;
        skip();
        i++; // ':'
        members.push([key, value()]);
        skip();
        if (text[i++] === "}") return { k: "object", members };
      }
    }
    if (c === "[") {
      i++;
      const items: Node[] = [];
      skip();
      if (text[i] === "]") {
        i++;
        return { k: "array", items };
      }
      for (;;) {
        items.push(value());
        skip();
        if (text[i++] === "]") return { k: "array", items };
      }
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const s = JSON.parse(text.slice(i, j + 1)) as string;
      i = j + 1;
      return { k: "string", value: s };
    }
    for (const lit of ["true", "false", "null"] as const) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return { k: lit };
      }
    }
    const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 2000))!;
    i += m[0].length;
    return { k: "number", text: m[0] };
  };
  return value();
}

/** The exact decimal a number text denotes, as [digits, exponent] with no trailing zeros. */
function exactDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  let digits = (m[2]! + (m[3] ?? "")).replace(/^0+/, "");
  let exp = Number(m[4] ?? "0") - (m[3] ?? "").length;
  if (digits === "") return "0";
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exp++;
  }
  return `${m[1]}${digits}e${exp}`;
}

/**
 * Checks that `output` differs from `input` exactly where `repairs` say, each
 * in the way its kind says; every other number keeps its text, every string
 * its value, every object its members in order.
 */
function checkDiff(input: Node, output: Node, repairs: readonly Repair[]): void {
  // One repair per position, except a string's number that is then written as
  // an integer ("5.0" at an integer position: string-to-number, integer-literal).
  const kinds = new Map<string, Repair["kind"]>();
  for (const r of repairs) {
    const before = kinds.get(r.path);
    if (before === "string-to-number" && r.kind === "integer-literal") {
      kinds.set(r.path, "string-to-integer-literal" as Repair["kind"]);
      continue;
    }
    expect(before).toBeUndefined();
    kinds.set(r.path, r.kind);
  }
  const seen = new Set<string>();
  const walk = (a: Node, b: Node | undefined, path: string, parsed = false): void => {
    // `parsed`: `a` is a string's JSON, whose own repair at `path` was already read.
    const kind = parsed ? undefined : kinds.get(path);
    if (kind !== undefined) seen.add(path);
    switch (kind) {
      case "null-omitted":
        expect(a.k).toBe("null");
        expect(b).toBeUndefined();
        return;
      case "empty-array-omitted":
        expect(a).toEqual({ k: "array", items: [] });
        expect(b).toBeUndefined();
        return;
      case "string-to-number":
        expect(a.k).toBe("string");
        expect(b).toEqual({ k: "number", text: (a as { value: string }).value });
        return;
      case "string-to-boolean":
        expect(a.k).toBe("string");
        expect(b).toEqual({ k: (a as { value: string }).value });
        return;
      case "string-to-object":
      case "string-to-array":
        expect(a.k).toBe("string");
        expect(b?.k).toBe(kind === "string-to-object" ? "object" : "array");
        walk(read((a as { value: string }).value), b, path, true);
        return;
      case "integer-literal":
      case "string-to-integer-literal" as Repair["kind"]: {
        expect(a.k).toBe(kind === "integer-literal" ? "number" : "string");
        expect(b?.k).toBe("number");
        const x = a.k === "string" ? a.value : (a as { text: string }).text;
        const y = (b as { text: string }).text;
        expect(/[.eE]/.test(x) && /^-?\d+$/.test(y)).toBe(true);
        expect(exactDecimal(y)).toBe(exactDecimal(x));
        return;
      }
    }
    expect(b).toBeDefined();
    if (a.k === "object" && b?.k === "object") {
      const kept = a.members.filter(([key, v]) => {
        const p = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        const k = kinds.get(p);
        if (k === "null-omitted" || k === "empty-array-omitted") {
          walk(v, undefined, p);
          return false;
        }
        return true;
      });
      expect(b.members.map(([key]) => key)).toEqual(kept.map(([key]) => key));
      kept.forEach(([key, v], i) => {
        walk(v, b.members[i]![1], `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      });
    } else if (a.k === "array" && b?.k === "array") {
      expect(b.items.length).toBe(a.items.length);
      a.items.forEach((v, i) => {
        walk(v, b.items[i], `${path}/${i}`);
      });
    } else {
      expect(b).toEqual(a); // leaves: same kind, same number text, same string value
    }
  };
  walk(input, output, "");
  expect([...seen].sort()).toEqual([...kinds.keys()].sort());
}

// --- the oracle validator: ajv as the package configures it (draft-07 here) ---

const oracleCache = new WeakMap<object, (v: unknown) => boolean>();
function oracleValid(schema: JsonSchema, text: string): boolean {
  let v = oracleCache.get(schema as object);
  if (v === undefined) {
    const fn = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(
      schema as object,
    );
    v = (x) => fn(x) === true;
    oracleCache.set(schema as object, v);
  }
  return v(withoutPrototypes(JSON.parse(text)));
}

/**
 * The failures of `text` as written, as "path keyword", by repair's own
 * validation (ajv with this package's `const`, `enum`, `uniqueItems` and
 * `multipleOf`, whose verdicts differ from ajv's own).
 */
function writtenFailures(schema: JsonSchema, text: string): Set<string> {
  const compiled = validatorFor(schema, REPAIR_BUDGET);
  const tree = readJsonTree(text, 100);
  if ("refused" in compiled || !tree.ok) return new Set();
  const failures = compiled.validate(validationValue(tree.root), new Budget(REPAIR_BUDGET));
  return new Set(failures.map((f) => `${f.path} ${f.keyword}`));
}

/**
 * Objects without a prototype, as the package validates them: on a plain
 * object ajv would read an inherited `constructor` as a present member. (ajv's
 * own `const`/`enum` cannot match such objects, so the schemas below hold no
 * object in `const` or `enum`.)
 */
function withoutPrototypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutPrototypes);
  if (typeof v !== "object" || v === null) return v;
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v)) out[k] = withoutPrototypes((v as Record<string, unknown>)[k]);
  return out;
}

/** Repairs, checking what every result must satisfy whatever the input. */
function repairChecked(input: string, schema: JsonSchema): RepairResult {
  const { list, onDiagnostic } = collectDiagnostics();
  const result = repairArguments(input, schema, { onDiagnostic });
  if (result.ok) {
    // Valid by ajv's own verdict, and a fixed point: repairing it changes nothing.
    expect(oracleValid(schema, result.argumentsJson)).toBe(true);
    expect(repairArguments(result.argumentsJson, schema)).toEqual({
      ok: true,
      argumentsJson: result.argumentsJson,
      repairs: [],
    });
    if (result.repairs.length === 0) expect(result.argumentsJson).toBe(input);
    checkDiff(read(input), read(result.argumentsJson), result.repairs);
    expect(list.filter((d) => d.code === "argument-repaired")).toEqual(
      result.repairs.map((r) => ({ code: "argument-repaired", path: r.path, detail: r.kind })),
    );
  } else {
    expect(result.issues.length).toBeGreaterThan(0);
    expect(list.some((d) => d.code === "argument-repaired")).toBe(false);
  }
  return result;
}

// --- valid arguments of a typed schema, and their one-reading breakages ---

/** A value written twice: as the schema wants it, and broken where `broken` says. */
interface Gen {
  readonly schema: JsonSchema;
  readonly good: string;
  readonly bad: string;
  /** The repairs that turn `bad` back into `good`. */
  readonly repairs: readonly Repair[];
}

type Shape =
  | { readonly t: "integer" | "number" | "boolean" | "string" }
  /** Pydantic's `Optional[...]`: `anyOf [inner, {type: null}]`. */
  | { readonly t: "nullable"; readonly inner: Shape }
  | { readonly t: "array"; readonly item: Shape; readonly minItems: 0 | 1 }
  | {
      readonly t: "object";
      readonly props: readonly { key: string; shape: Shape; required: boolean }[];
    };

/** Property names: prototype names, pointer syntax, non-ASCII ("__proto__" is ajv's blind spot, below). */
const propKeys = ["a", "b", "id", "constructor", "toString", "valueOf", "a/b", "~1", "é", "😀", ""];

const shape: fc.Memo<Shape> = fc.memo((depth) => {
  const leaf = fc.constantFrom<Shape>(
    { t: "integer" },
    { t: "number" },
    { t: "boolean" },
    { t: "string" },
  );
  if (depth <= 1) return leaf;
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    {
      weight: 1,
      arbitrary: fc
        .record({ item: shape(depth - 1), minItems: fc.constantFrom<0 | 1>(0, 1) })
        .map((r): Shape => ({ t: "array", ...r })),
    },
    { weight: 2, arbitrary: objectShape(depth - 1) },
    {
      weight: 1,
      arbitrary: shape(depth - 1).map((inner): Shape => ({ t: "nullable", inner })),
    },
  );
});

function objectShape(depth: number): fc.Arbitrary<Shape> {
  return fc
    .uniqueArray(
      fc.record({ key: fc.constantFrom(...propKeys), shape: shape(depth), required: fc.boolean() }),
      { selector: (p) => p.key, maxLength: 5 },
    )
    .map((props): Shape => ({ t: "object", props }));
}

function schemaOf(s: Shape): JsonSchema {
  switch (s.t) {
    case "array":
      return { type: "array", items: schemaOf(s.item), ...(s.minItems ? { minItems: 1 } : {}) };
    case "object": {
      const properties: Record<string, JsonSchema> = {};
      for (const p of s.props) properties[p.key] = schemaOf(p.shape);
      const required = s.props.filter((p) => p.required).map((p) => p.key);
      return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
    }
    case "nullable":
      return { anyOf: [schemaOf(s.inner), { type: "null" }], default: null };
    default:
      return { type: s.t };
  }
}

const keyText = (k: string) => JSON.stringify(k);
const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** Untouched members the schema does not name (it admits them): "__proto__" among them. */
const extraMember = fc.record({
  key: fc.constantFrom("__proto__", "extra", "toString ", "1"),
  text: fc.oneof(
    intText,
    floatText,
    stringText.map((s) => s.text),
    fc.constant('{"x": 1.0}'),
  ),
});

/**
 * A value of shape `s` at `path`, good and broken. `top` is the arguments'
 * root (never broken: it must be an object).
 */
function genOf(s: Shape, path: string, top = false): fc.Arbitrary<Gen> {
  const broken = top ? fc.constant(false) : fc.boolean();
  const sch = schemaOf(s);
  const same = (text: string): Gen => ({ schema: sch, good: text, bad: text, repairs: [] });
  const brokenTo = (text: string, kind: Repair["kind"]) => (b: boolean) =>
    b
      ? { schema: sch, good: text, bad: JSON.stringify(text), repairs: [{ path, kind }] }
      : same(text);
  switch (s.t) {
    case "integer":
      return fc.tuple(intText, broken).map(([t, b]) => brokenTo(t, "string-to-number")(b));
    case "number":
      return fc
        .tuple(fc.oneof(intText, floatText), broken)
        .map(([t, b]) => brokenTo(t, "string-to-number")(b));
    case "boolean":
      return fc
        .tuple(fc.constantFrom("true", "false"), broken)
        .map(([t, b]) => brokenTo(t, "string-to-boolean")(b));
    case "string":
      return stringText.map((st) => same(st.text));
    case "nullable":
      return fc.oneof(
        fc.constant(same("null")),
        genOf(s.inner, path).map((g): Gen => ({ ...g, schema: sch })),
      );
    case "array":
      return fc
        .tuple(fc.array(fc.nat(), { minLength: s.minItems, maxLength: 3 }), ws, ws, broken)
        .chain(([slots, w1, w2, b]) =>
          fc
            .tuple(...slots.map((_, i) => genOf(s.item, pointer(path, i))))
            .map((items) => container("[", "]", items, w1, w2, [], b, "string-to-array")),
        );
    case "object": {
      const present = fc.tuple(
        ...s.props.map((p) => (p.required ? fc.constant(1) : fc.constantFrom(0, 1, 2))),
      );
      return fc
        .tuple(present, fc.array(extraMember, { maxLength: 2 }), ws, ws, broken)
        .chain(([how, extras, w1, w2, b]) => {
          const members = s.props.flatMap((p, i) =>
            how[i] === 1 ? [{ key: p.key, gen: genOf(p.shape, pointer(path, p.key)) }] : [],
          );
          // Absent optional members, written by the model as null (or [] where minItems fails).
          const nulls = s.props.flatMap((p, i) => {
            // A nullable member admits null: written so, it is its value.
            if (how[i] !== 2 || p.shape.t === "nullable") return [];
            const empty = p.shape.t === "array" && p.shape.minItems === 1;
            return [
              {
                text: `${keyText(p.key)}:${w1}${empty ? "[]" : "null"}`,
                repair: {
                  path: pointer(path, p.key),
                  kind: empty ? "empty-array-omitted" : "null-omitted",
                } as Repair,
              },
            ];
          });
          const used = new Set(s.props.map((p) => p.key));
          const extra = extras.filter((e) => {
            if (used.has(e.key)) return false;
            used.add(e.key);
            return true;
          });
          return fc.tuple(...members.map((m) => m.gen)).map((values) => {
            const items: Gen[] = [
              ...values.map((v, i) => ({
                ...v,
                good: `${keyText(members[i]!.key)}${w2}:${w1}${v.good}`,
                bad: `${keyText(members[i]!.key)}${w2}:${w1}${v.bad}`,
              })),
              ...extra.map((e) => same(`${keyText(e.key)}:${e.text}`)),
            ];
            return container("{", "}", items, w1, w2, nulls, b, "string-to-object");
          });
        });
    }
  }

  function container(
    open: string,
    close: string,
    items: readonly Gen[],
    w1: string,
    w2: string,
    appended: readonly { text: string; repair: Repair }[],
    b: boolean,
    kind: Repair["kind"],
  ): Gen {
    const sep = `${w2},${w1}`;
    const good = `${open}${w1}${items.map((i) => i.good).join(sep)}${w2}${close}`;
    // Appended members go right after the last value (or after the opening brace):
    // omitting one takes exactly that text back out.
    const tail = appended.map((a) => a.text);
    const badItems = items.map((i) => i.bad);
    const inner =
      badItems.length > 0
        ? `${badItems.join(sep)}${tail.map((t) => `,${t}`).join("")}`
        : tail.join(",");
    const badText = `${open}${w1}${inner}${w2}${close}`;
    const repairs = [...items.flatMap((i) => i.repairs), ...appended.map((a) => a.repair)];
    if (!b) return { schema: sch, good, bad: badText, repairs };
    return {
      schema: sch,
      good,
      bad: JSON.stringify(badText),
      repairs: [{ path, kind }, ...repairs],
    };
  }
}

const args: fc.Arbitrary<Gen> = objectShape(3).chain((s) => genOf(s, "", true));

const byPath = (a: Repair, b: Repair) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

describe("repair: valid arguments, broken only where one reading exists", () => {
  test("valid arguments come back as the same string, with no repair; ajv agrees they are valid", () => {
    fc.assert(
      fc.property(args, (g) => {
        expect(oracleValid(g.schema, g.good)).toBe(true);
        const { list, onDiagnostic } = collectDiagnostics();
        expect(repairArguments(g.good, g.schema, { onDiagnostic })).toEqual({
          ok: true,
          argumentsJson: g.good,
          repairs: [],
        });
        expect(list).toEqual([]);
      }),
      runs(200, 20261201),
    );
  });

  test("broken arguments are repaired back to the exact original text, each repair reported at its path", () => {
    fc.assert(
      fc.property(args, (g) => {
        const result = repairChecked(g.bad, g.schema);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.argumentsJson).toBe(g.good);
        expect([...result.repairs].sort(byPath)).toEqual([...g.repairs].sort(byPath));
      }),
      runs(250, 20261202),
    );
  });
});

// --- any arguments against schemas with unions, enums, contains, if/then ---

const leafText = fc.oneof(
  fc.constantFrom("null", "true", "false", "0", "5", "5.0", "1e1", "-0", "9007199254740993"),
  fc.constantFrom('"5"', '"5.0"', '"true"', '"false"', '"null"', '"x"', '""', '" 5"', '"1e400"'),
  fc.constantFrom('"{\\"a\\":\\"5\\"}"', '"[\\"1\\", 2.0]"', '"{}"', '"[]"', '"{\\"a\\":null}"'),
  fc.constantFrom("[]", "{}"),
);
const anyKey = fc.constantFrom("a", "b", "c", "a", "b", "__proto__", "constructor");

const anyText: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? leafText
    : fc.oneof(
        { weight: 3, arbitrary: leafText },
        {
          weight: 1,
          arbitrary: fc.array(anyText(depth - 1), { maxLength: 3 }).map((a) => `[${a.join(",")}]`),
        },
        { weight: 1, arbitrary: anyObjectText(depth - 1) },
      ),
);

function anyObjectText(depth: number): fc.Arbitrary<string> {
  return fc
    .uniqueArray(fc.tuple(anyKey, anyText(depth)), { selector: ([k]) => k, maxLength: 3 })
    .map((ms) => `{${ms.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
}

const anySchema: fc.Memo<JsonSchema> = fc.memo((depth) => {
  const simple = fc.oneof(
    fc.constantFrom<JsonSchema>(
      { type: "integer" },
      { type: "number" },
      { type: "boolean" },
      { type: "string" },
      { type: "null" },
      { type: ["integer", "null"] },
      { type: ["boolean", "string"] },
      { enum: [1, 2, 5] },
      { enum: [true, "x"] },
      { const: 5 },
      { type: "integer", minimum: 6 },
      { type: "string", maxLength: 1 },
      { type: "array", minItems: 1 },
      {},
    ),
  );
  if (depth <= 1) return simple;
  const sub = anySchema(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: simple },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([x, y]): JsonSchema => ({ anyOf: [x, y] })) },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([x, y]): JsonSchema => ({ oneOf: [x, y] })) },
    {
      weight: 1,
      arbitrary: fc.tuple(sub, fc.option(sub, { nil: undefined }), fc.boolean()).map(
        ([items, contains, unique]): JsonSchema => ({
          type: "array",
          items,
          ...(contains === undefined ? {} : { contains }),
          ...(unique ? { uniqueItems: true } : {}),
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.uniqueArray(fc.tuple(anyKey, sub), { selector: ([k]) => k, maxLength: 3 }),
          fc.subarray(["a", "b"]),
          fc.constantFrom<JsonSchema | undefined>(undefined, false, { type: "integer" }),
        )
        .map(
          ([props, required, additional]): JsonSchema => ({
            type: "object",
            properties: Object.fromEntries(props),
            ...(required.length > 0 ? { required } : {}),
            ...(additional === undefined ? {} : { additionalProperties: additional }),
          }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(sub, sub, sub)
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
        .map(([i, t, e]): JsonSchema => ({ if: i, then: t, else: e })),
    },
  );
});

/** `value` with the member or element at `path` set back to `old` (or removed when `old` is undefined). */
function setAt(value: unknown, path: string, old: unknown): unknown {
  const tokens = parsePointer(path)!;
  const copy = structuredClone(value);
  let v = copy as Record<string, unknown>;
  for (const t of tokens.slice(0, -1)) v = v[t] as Record<string, unknown>;
  Object.defineProperty(v, tokens.at(-1)!, {
    value: old,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

function getAt(value: unknown, path: string): unknown {
  let v = value as Record<string, unknown> | undefined;
  for (const t of parsePointer(path)!) {
    if (typeof v !== "object" || v === null || !Object.hasOwn(v, t)) return undefined;
    v = v[t] as Record<string, unknown>;
  }
  return v;
}

describe("repair: any arguments, any schema", () => {
  // Unions of object schemas and `contains` at the root: where a member may
  // fail under one alternative and be admitted as written by another.
  const typed = fc.constantFrom<JsonSchema>(
    { type: "integer" },
    { type: "number" },
    { type: "boolean" },
    { type: "string" },
    { type: "object" },
    { type: "array", minItems: 1 },
    { enum: [1, 2, 5] },
    {},
  );
  const simpleObject = fc
    .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c"), typed), {
      selector: ([k]) => k,
      minLength: 1,
      maxLength: 2,
    })
    .chain(([...props]) =>
      fc.subarray(props.map(([k]) => k)).map(
        (required): JsonSchema => ({
          properties: Object.fromEntries(props),
          ...(required.length > 0 ? { required } : {}),
        }),
      ),
    );
  const alternatives: fc.Arbitrary<JsonSchema> = fc.oneof(
    fc
      .tuple(fc.constantFrom("anyOf", "oneOf"), simpleObject, simpleObject)
      .map(([k, x, y]): JsonSchema => ({ [k]: [x, y] })),
    fc.tuple(fc.constantFrom("a", "b"), typed, typed).map(
      ([k, items, contains]): JsonSchema => ({
        properties: { [k]: { type: "array", items, contains } },
      }),
    ),
    fc.tuple(fc.constantFrom("a", "b"), typed, simpleObject).map(
      ([k, own, dependent]): JsonSchema => ({
        properties: { [k]: own },
        dependencies: { [k]: dependent },
      }),
    ),
    fc
      .tuple(simpleObject, simpleObject, simpleObject)
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      .map(([i, t, e]): JsonSchema => ({ if: i, then: t, else: e })),
  );
  // Arguments close to what the schemas name: members a, b, c holding values
  // that one rule or another can repair.
  const repairable = fc.constantFrom(
    '"5"',
    '"6"',
    '"true"',
    '"false"',
    "null",
    "[]",
    '"[\\"5\\"]"',
    '"{\\"a\\":\\"5\\"}"',
    "5",
    '"x"',
  );
  const nearValue = fc.oneof(
    { weight: 4, arbitrary: repairable },
    { weight: 1, arbitrary: fc.array(repairable, { maxLength: 3 }).map((a) => `[${a.join(",")}]`) },
  );
  const nearText = fc
    .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c"), nearValue), {
      selector: ([k]) => k,
      minLength: 1,
      maxLength: 3,
    })
    .map((ms) => `{${ms.map(([k, v]) => `"${k}":${v}`).join(",")}}`);
  const cases = fc.tuple(
    fc.oneof(
      { arbitrary: anySchema(3), weight: 1 },
      {
        arbitrary: anySchema(3).map(
          (s): JsonSchema => ({ type: "object", properties: { a: s, b: s } }),
        ),
        weight: 1,
      },
      { arbitrary: alternatives, weight: 2 },
    ),
    fc.oneof(anyObjectText(3), { arbitrary: nearText, weight: 2 }),
  );

  test("never throws; an accepted result is valid for ajv, a fixed point, and changed only where reported", () => {
    fc.assert(
      fc.property(cases, ([schema, input]) => {
        const result = repairChecked(input, schema as JsonSchema);
        const valid = oracleValid(schema as JsonSchema, input);
        if (valid) {
          // Accepted as written: only the integer-literal rule may rewrite.
          expect(result.ok).toBe(true);
          if (result.ok)
            expect(result.repairs.every((r) => r.kind === "integer-literal")).toBe(true);
        }
      }),
      runs(500, 20261203),
    );
  });

  test("a rejection describes the arguments as written: each issue is one of their failures, or inside a string's JSON", () => {
    fc.assert(
      fc.property(cases, ([schema, input]) => {
        const result = repairArguments(input, schema as JsonSchema);
        if (result.ok) return;
        const written = writtenFailures(schema as JsonSchema, input);
        const value = JSON.parse(input) as unknown;
        for (const issue of result.issues) {
          if (written.has(`${issue.path} ${issue.keyword}`)) continue;
          // Below a string whose JSON was parsed in place: that JSON's own failures.
          const tokens = parsePointer(issue.path)!;
          const underString = tokens.some(
            (_t, i) => typeof getAt(value, pointerFrom(tokens.slice(0, i))) === "string",
          );
          expect({ issue, underString }).toEqual({ issue, underString: true });
        }
      }),
      runs(1500, 20261207),
    );
  });

  test("every repair was the one reading: undoing it alone leaves arguments the schema rejects", () => {
    fc.assert(
      fc.property(cases, ([schema, input]) => {
        const result = repairArguments(input, schema as JsonSchema);
        if (!result.ok) return;
        const before = JSON.parse(input) as unknown;
        const after = JSON.parse(result.argumentsJson) as unknown;
        for (const r of result.repairs) {
          if (r.kind === "integer-literal") continue; // the same value for the schema
          // A repair inside a string's parsed JSON has no value of its own to undo to.
          const old = getAt(before, r.path);
          if (old === undefined) continue;
          const undone = setAt(after, r.path, old);
          expect(oracleValid(schema as JsonSchema, JSON.stringify(undone))).toBe(false);
        }
      }),
      runs(1500, 20261204),
    );
  });
});

describe("repair: a value with another reading is left alone (found by the properties above)", () => {
  // Each position failed only because an enclosing alternative (a union
  // branch, `contains`, `if`) was not met, while another alternative admits
  // the value as written: repairing it chooses a reading.
  const rows: [name: string, schema: JsonSchema, input: string, expected: RepairResult][] = [
    [
      "anyOf of two objects: either member's repair alone satisfies it",
      {
        anyOf: [
          { properties: { a: { type: "integer" } } },
          { properties: { b: { type: "integer" } } },
        ],
      },
      '{"a":"1","b":"2"}',
      {
        ok: false,
        issues: [
          { path: "/a", keyword: "type" },
          { path: "/b", keyword: "type" },
          { path: "", keyword: "anyOf" },
        ],
      },
    ],
    [
      "oneOf: branch 2 admits the string /a as written once /b is repaired",
      {
        oneOf: [
          { properties: { a: { type: "integer" } }, required: ["a"] },
          { properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a", "b"] },
        ],
      },
      '{"a":"1","b":"2"}',
      {
        ok: false,
        issues: [
          { path: "/a", keyword: "type" },
          { path: "/b", keyword: "type" },
          { path: "", keyword: "oneOf" },
        ],
      },
    ],
    [
      "contains: one element is enough, which one is a choice",
      { properties: { a: { type: "array", contains: { type: "integer" } } } },
      '{"a":["5","6"]}',
      {
        ok: false,
        issues: [
          { path: "/a/0", keyword: "type" },
          { path: "/a/1", keyword: "type" },
          { path: "/a", keyword: "contains" },
        ],
      },
    ],
    [
      'contains {const: true}: "false" never needed to change',
      { properties: { a: { type: "array", contains: { const: true } } } },
      '{"a":["true","false"]}',
      {
        ok: true,
        argumentsJson: '{"a":[true,"false"]}',
        repairs: [{ path: "/a/0", kind: "string-to-boolean" }],
      },
    ],
    [
      "null members under anyOf: omitting either one satisfies it",
      {
        anyOf: [
          { properties: { a: { type: "integer" } } },
          { properties: { b: { type: "integer" } } },
        ],
      },
      '{"a":null,"b":null}',
      {
        ok: false,
        issues: [
          { path: "/a", keyword: "type" },
          { path: "/b", keyword: "type" },
          { path: "", keyword: "anyOf" },
        ],
      },
    ],
    [
      "dependencies: once the null member is omitted, its dependent schema no longer applies",
      {
        properties: { a: { type: "integer" } },
        dependencies: { a: { properties: { b: { type: "integer" } } } },
      },
      '{"a":null,"b":"5"}',
      { ok: true, argumentsJson: '{"b":"5"}', repairs: [{ path: "/a", kind: "null-omitted" }] },
    ],
    [
      "dependentSchemas (2020-12), through a $ref: the same",
      {
        $defs: { B: { properties: { b: { type: "integer" } } } },
        properties: { a: { type: "integer" } },
        dependentSchemas: { a: { $ref: "#/$defs/B" } },
      },
      '{"a":null,"b":"5"}',
      { ok: true, argumentsJson: '{"b":"5"}', repairs: [{ path: "/a", kind: "null-omitted" }] },
    ],
  ];
  test.each(rows)("%s", (_name, schema, input, expected) => {
    expect(repairArguments(input, schema)).toEqual(expected);
    // The check is on the budget: one unit short of it is schema-too-complex, never a guess.
    const { units } = repairArgumentsMetered(input, schema);
    expect(repairArguments(input, schema, { budget: units })).toEqual(expected);
    expect(repairArguments(input, schema, { budget: units - 1 })).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-too-complex" }],
    });
  });

  test("a string's object under Optional whose member has no reading: rejected at that member", () => {
    const schema: JsonSchema = {
      properties: {
        f: {
          anyOf: [{ type: "object", properties: { min: { type: "integer" } } }, { type: "null" }],
        },
      },
    };
    expect(repairArguments('{"f":"{\\"min\\":\\"x\\"}"}', schema)).toEqual({
      ok: false,
      issues: [
        { path: "/f/min", keyword: "type" },
        { path: "/f", keyword: "type" },
        { path: "/f", keyword: "anyOf" },
      ],
    });
  });

  test("many candidates under one contains: one check each, stopped by the budget, never a guess", () => {
    const schema: JsonSchema = {
      properties: { a: { type: "array", contains: { type: "integer" } } },
    };
    for (const n of [2, 100, 3000]) {
      const input = `{"a":[${Array(n).fill('"5"').join(",")}]}`;
      const result = repairArguments(input, schema);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      if (n === 3000) {
        expect(result.issues).toEqual([{ path: "", keyword: "schema-too-complex" }]);
      } else {
        expect(result.issues.at(-1)).toEqual({ path: "/a", keyword: "contains" });
        expect(result.issues.length).toBe(n + 1);
      }
    }
  });

  // What stays repaired: one reading under the same keywords.
  const kept: [name: string, schema: JsonSchema, input: string, output: string][] = [
    [
      "a discriminated oneOf: the members of the branch that fits",
      {
        oneOf: [
          {
            properties: { kind: { const: "a" }, n: { type: "integer" }, m: { type: "integer" } },
            required: ["kind"],
          },
          { properties: { kind: { const: "b" }, s: { type: "string" } }, required: ["kind"] },
        ],
      },
      '{"kind":"a","n":"5","m":"6"}',
      '{"kind":"a","n":5,"m":6}',
    ],
    [
      "contains with one element that can be the one",
      { properties: { a: { type: "array", contains: { type: "integer" } } } },
      '{"a":["5","x"]}',
      '{"a":[5,"x"]}',
    ],
  ];
  kept.push(
    [
      "a string's object under Pydantic's Optional, whose member needs a repair too",
      {
        $defs: { F: { type: "object", properties: { min: { type: "integer" } } } },
        type: "object",
        properties: { f: { anyOf: [{ $ref: "#/$defs/F" }, { type: "null" }], default: null } },
      },
      '{"f":"{\\"min\\":\\"3\\"}"}',
      '{"f":{"min":3}}',
    ],
    [
      "a string's array under oneOf [array of integers, null], whose element needs a repair too",
      {
        properties: {
          x: { oneOf: [{ type: "array", items: { type: "integer" } }, { type: "null" }] },
        },
      },
      '{"x":"[\\"1\\", 2]"}',
      '{"x":[1, 2]}',
    ],
  );
  test.each(kept)("%s", (_name, schema, input, output) => {
    const result = repairArguments(input, schema);
    expect(result.ok && result.argumentsJson).toBe(output);
  });
});

describe("repair: the budget", () => {
  const cases = fc.tuple(anySchema(3), anyObjectText(3));

  test('at exactly the units a call spends, the same result; one unit less, schema-too-complex at ""', () => {
    fc.assert(
      fc.property(cases, ([schema, input]) => {
        const full = repairArgumentsMetered(input, schema);
        if (full.units === 0) return; // nothing charged: no schema was compiled
        expect(repairArgumentsMetered(input, schema, { budget: full.units })).toEqual(full);
        const short = repairArgumentsMetered(input, schema, { budget: full.units - 1 });
        expect(short.result).toEqual({
          ok: false,
          issues: [{ path: "", keyword: "schema-too-complex" }],
        });
      }),
      runs(400, 20261205),
    );
  });
});

describe("repair: hostile argument texts", () => {
  test("prototype-named members anywhere never reach a prototype", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { a: { type: "integer" }, constructor: { type: "object" } },
      additionalProperties: { type: "object" },
    };
    fc.assert(
      fc.property(anyObjectText(4), (input) => {
        repairChecked(input, schema);
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        expect(Object.keys(Object.prototype)).toEqual([]);
        expect(({} as Record<string, unknown>).a).toBeUndefined();
      }),
      runs(500, 20261206),
    );
  });

  test("a duplicate key anywhere, also inside a string's JSON, is never resolved by choosing", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { o: { type: "object", properties: { n: { type: "integer" } } } },
    };
    expect(repairArguments('{"o":{"n":1,"n":1}}', schema)).toEqual({
      ok: false,
      issues: [{ path: "/o/n", keyword: "duplicate-key" }],
    });
    expect(repairArguments('{"o":"{\\"n\\":\\"1\\",\\"n\\":\\"1\\"}"}', schema)).toEqual({
      ok: false,
      issues: [{ path: "/o", keyword: "type" }],
    });
  });

  test("a string's JSON nested exactly to the limit is parsed in place; one deeper is not", () => {
    const schema: JsonSchema = { type: "object", properties: { o: { type: "array" } } };
    for (const limit of [2, 3, 10, 100]) {
      // The root object is level 1; "o"'s array and its nesting may take the rest.
      const inner = (n: number) => "[".repeat(n) + "]".repeat(n);
      const fits = `{"o":${JSON.stringify(inner(limit - 1))}}`;
      const over = `{"o":${JSON.stringify(inner(limit))}}`;
      expect(repairArguments(fits, schema, { recursionLimit: limit })).toEqual({
        ok: true,
        argumentsJson: `{"o":${inner(limit - 1)}}`,
        repairs: [{ path: "/o", kind: "string-to-array" }],
      });
      expect(repairArguments(over, schema, { recursionLimit: limit })).toEqual({
        ok: false,
        issues: [{ path: "/o", keyword: "type" }],
      });
    }
  });
});

// --- ajv as the oracle where a member's verdict depends on its siblings ---
// `if` on a member's presence, `dependencies`, `minProperties`,
// `maxProperties`, `not: {required}`, unions, `allOf`, `additionalProperties: false`.

const siblingOracle = new Ajv({ allErrors: true, strict: false, validateFormats: false });

/** ajv's failures for a JSON text: empty when valid. */
function oracleErrors(schema: JsonSchema, value: unknown): readonly ErrorObject[] {
  const validate = siblingOracle.compile(schema as object);
  return validate(withoutPrototypes(value)) ? [] : (validate.errors ?? []);
}

const keys = ["a", "b", "c"] as const;
const leafSchema = fc.constantFrom<JsonSchema>(
  { type: "integer" },
  { type: "number" },
  { type: "string" },
  { type: "boolean" },
  { type: "null" },
  { type: ["integer", "string"] },
  { enum: [1, "1"] },
  { enum: [1, 2] },
  { const: 1 },
  { type: "array", items: { type: "integer" } },
  { type: "array", minItems: 1 },
  { type: "object", properties: { a: { type: "integer" } } },
  { not: { type: "string" } },
  { type: "string", minLength: 2 },
  { type: "integer", minimum: 2 },
  {},
);
const plain = fc
  .tuple(
    fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), leafSchema), {
      selector: ([k]) => k,
      minLength: 1,
      maxLength: 3,
    }),
    fc.subarray([...keys]),
  )
  .map(
    ([props, required]): Record<string, unknown> => ({
      type: "object",
      properties: Object.fromEntries(props),
      ...(required.length > 0 ? { required } : {}),
    }),
  );
const key = fc.constantFrom(...keys);
const schemas: fc.Arbitrary<JsonSchema> = fc.oneof(
  plain,
  fc
    .tuple(plain, key, plain, plain)
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    .map(([s, k, t, e]) => ({ ...s, if: { required: [k] }, then: t, else: e })),
  fc.tuple(plain, key, key).map(([s, k, other]) => ({ ...s, dependencies: { [k]: [other] } })),
  fc.tuple(plain, key, plain).map(([s, k, d]) => ({ ...s, dependencies: { [k]: d } })),
  fc.tuple(plain, fc.integer({ min: 1, max: 3 })).map(([s, n]) => ({ ...s, minProperties: n })),
  fc.tuple(plain, fc.integer({ min: 0, max: 2 })).map(([s, n]) => ({ ...s, maxProperties: n })),
  fc.tuple(plain, key).map(([s, k]) => ({ ...s, not: { required: [k] } })),
  fc.tuple(plain, plain).map(([s, t]) => ({ anyOf: [s, t] })),
  fc.tuple(plain, plain).map(([s, t]) => ({ oneOf: [s, t] })),
  fc.tuple(plain, plain).map(([s, t]) => ({ allOf: [s, t] })),
  plain.map((s) => ({ ...s, additionalProperties: false })),
);
const memberText = fc.constantFrom(
  "null",
  "1",
  "1.0",
  "2",
  '"1"',
  '"1.0"',
  '"2"',
  '"x"',
  '"true"',
  "true",
  "[]",
  '["1"]',
  "{}",
  '"{\\"a\\":\\"1\\"}"',
  '"[\\"1\\"]"',
  '{"a":"1"}',
  '{"a":null}',
  '""',
  '"null"',
  '"1e-400"',
);
const argumentTexts = fc
  .uniqueArray(
    fc.tuple(
      key,
      fc.oneof(
        { weight: 4, arbitrary: memberText },
        { weight: 1, arbitrary: memberText.map((v) => `{"a":${v}}`) },
      ),
    ),
    { selector: ([k]) => k, maxLength: 3 },
  )
  .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(",")}}`);

describe("repair against ajv: members whose verdict depends on their siblings", () => {
  test("valid arguments are kept; an accepted result is valid and a fixed point", () => {
    fc.assert(
      fc.property(schemas, argumentTexts, (schema, input) => {
        const result = repairArguments(input, schema);
        const before = JSON.parse(input) as unknown;
        if (oracleErrors(schema, before).length === 0) {
          expect(result.ok).toBe(true);
          if (result.ok)
            expect(result.repairs.every((r) => r.kind === "integer-literal")).toBe(true);
          if (result.ok && result.repairs.length === 0) expect(result.argumentsJson).toBe(input);
        }
        if (!result.ok) return;
        expect(oracleErrors(schema, JSON.parse(result.argumentsJson))).toEqual([]);
        expect(repairArguments(result.argumentsJson, schema)).toEqual({
          ok: true,
          argumentsJson: result.argumentsJson,
          repairs: [],
        });
      }),
      runs(1500, 20261205),
    );
  });

  test("a repair is at a position that failed as written, and undoing it alone fails again", () => {
    fc.assert(
      fc.property(schemas, argumentTexts, checkRepairsFailedAsWritten),
      runs(1500, 20261206),
    );
  });

  test("a member's presence switching its sibling's type: the sibling is changed only where it failed", () => {
    const value = fc.constantFrom(undefined, "null", '"1"', "1", '"x"', '"true"', "1.0");
    const cases = fc.tuple(
      fc.tuple(leafSchema, leafSchema, leafSchema).map(
        ([own, then, otherwise]): JsonSchema => ({
          properties: { a: own },
          if: { required: ["a"] },
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
          then: { properties: { b: then } },
          else: { properties: { b: otherwise } },
        }),
      ),
      fc.tuple(value, value).map(([a, b]) => {
        const members = [a === undefined ? [] : [`"a":${a}`], b === undefined ? [] : [`"b":${b}`]];
        return `{${members.flat().join(",")}}`;
      }),
    );
    fc.assert(
      fc.property(cases, ([schema, input]) => checkRepairsFailedAsWritten(schema, input)),
      runs(1500, 20261207),
    );
  });
});

/**
 * Each repair (but the integer-literal rule, the same value for the schema)
 * is at a position ajv failed in the arguments as written, and undoing it
 * alone makes ajv fail again; the result is valid for ajv.
 */
function checkRepairsFailedAsWritten(schema: JsonSchema, input: string): void {
  const result = repairArguments(input, schema);
  if (!result.ok) return;
  const before = JSON.parse(input) as unknown;
  const failing = new Set(oracleErrors(schema, before).map((e) => e.instancePath));
  const after = JSON.parse(result.argumentsJson) as unknown;
  expect(oracleErrors(schema, after)).toEqual([]);
  for (const r of result.repairs) {
    if (r.kind === "integer-literal") continue;
    const old = getAt(before, r.path);
    // Inside a string's parsed JSON: no value of its own as written.
    if (old === undefined) continue;
    expect(failing.has(r.path)).toBe(true);
    expect(oracleErrors(schema, setAt(after, r.path, old)).length).toBeGreaterThan(0);
  }
}
