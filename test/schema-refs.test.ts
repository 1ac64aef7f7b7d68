// $ref in all its forms, $id-scoped resources, anchors, $dynamicRef,
// $recursiveRef, unresolvable refs (never fetched), and recursion.
import { afterEach, describe, expect, test, vi } from "vitest";
import { walk, walkJson } from "./schema-walk.js";

type Row = [
  name: string,
  schema: string,
  args: string,
  readings: Record<string, string>,
  notes?: string[],
];

const resolvedRows: Row[] = [
  [
    "# (recursive tree)",
    '{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#"}}}}',
    '{"v":1,"kids":[{"v":2,"kids":[{"v":3,"kids":[]}]}]}',
    { "/v": "integer", "/kids/0/v": "integer", "/kids/0/kids/0/v": "integer" },
  ],
  [
    "#/$defs/...",
    '{"properties":{"p":{"$ref":"#/$defs/P"}},"$defs":{"P":{"properties":{"x":{"type":"integer"}}}}}',
    '{"p":{"x":1}}',
    { "/p/x": "integer" },
  ],
  [
    "#/definitions/...",
    '{"properties":{"x":{"$ref":"#/definitions/X"}},"definitions":{"X":{"type":"integer"}}}',
    '{"x":1}',
    { "/x": "integer" },
  ],
  [
    "pointer into properties (zod 3 reuse)",
    '{"properties":{"a":{"type":"object","properties":{"n":{"type":"integer"}}},"b":{"$ref":"#/properties/a"}}}',
    '{"a":{"n":1},"b":{"n":2}}',
    { "/a/n": "integer", "/b/n": "integer" },
  ],
  [
    "pointer through an array index",
    '{"properties":{"t":{"prefixItems":[{"type":"string"},{"type":"integer"}]},"u":{"$ref":"#/properties/t/prefixItems/1"}}}',
    '{"u":1}',
    { "/u": "integer" },
  ],
  [
    "pointer escapes ~0 and ~1",
    '{"properties":{"a":{"$ref":"#/$defs/a~1b"},"c":{"$ref":"#/$defs/c~0d"}},"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"number"}}}',
    '{"a":1,"c":2}',
    { "/a": "integer", "/c": "number" },
  ],
  [
    "percent-escapes (decoded before the pointer)",
    '{"properties":{"a":{"$ref":"#/$defs/a%20b"},"c":{"$ref":"#/$defs/50%25"},"e":{"$ref":"#/$defs/%C3%A9"}},"$defs":{"a b":{"type":"integer"},"50%":{"type":"number"},"é":{"type":"integer"}}}',
    '{"a":1,"c":2,"e":3}',
    { "/a": "integer", "/c": "number", "/e": "integer" },
  ],
  [
    "$anchor",
    '{"properties":{"a":{"$ref":"#num"}},"$defs":{"X":{"$anchor":"num","type":"integer"}}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "draft-07 $id anchor (#name)",
    '{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#int"}},"definitions":{"I":{"$id":"#int","type":"integer"}}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "$id-scoped embedded resource, by absolute URI",
    '{"$id":"https://example.com/root.json","properties":{"a":{"$ref":"https://example.com/item.json"}},"$defs":{"Item":{"$id":"https://example.com/item.json","properties":{"q":{"type":"integer"}}}}}',
    '{"a":{"q":1}}',
    { "/a/q": "integer" },
  ],
  [
    "$id-scoped: relative $id and relative ref",
    '{"$id":"https://example.com/schemas/root.json","properties":{"a":{"$ref":"item.json"}},"$defs":{"Item":{"$id":"item.json","type":"integer"}}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "$id-scoped: # refs inside an embedded resource resolve against it",
    '{"properties":{"a":{"$ref":"https://example.com/item.json"}},"$defs":{"Item":{"$id":"https://example.com/item.json","properties":{"q":{"$ref":"#/$defs/Q"}},"$defs":{"Q":{"type":"integer"}}},"Q":{"type":"string"}}}',
    '{"a":{"q":1}}',
    { "/a/q": "integer" },
  ],
  [
    "$id-scoped: anchor inside an embedded resource",
    '{"properties":{"a":{"$ref":"https://example.com/item.json#n"}},"$defs":{"Item":{"$id":"https://example.com/item.json","$defs":{"N":{"$anchor":"n","type":"integer"}}}}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "root $id with a # ref (Go invopop)",
    '{"$id":"https://github.com/acme/tools/args","$ref":"#/$defs/Args","$defs":{"Args":{"type":"object","properties":{"n":{"type":"integer"}}}}}',
    '{"n":1}',
    { "/n": "integer" },
  ],
  [
    "urn: root $id",
    '{"$id":"urn:example:root","properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"urn:example:root#/$defs/A"}},"$defs":{"A":{"type":"integer"}}}',
    '{"a":1,"b":2}',
    { "/a": "integer", "/b": "integer" },
  ],
  [
    "$ref with siblings applies both",
    '{"properties":{"a":{"$ref":"#/$defs/N","multipleOf":1},"b":{"$ref":"#/$defs/N","properties":{"x":{"type":"integer"}}}},"$defs":{"N":{"type":"number","properties":{"y":{"type":"number"}}}}}',
    '{"a":1,"b":{"x":1,"y":2}}',
    { "/a": "integer", "/b/x": "integer", "/b/y": "number" },
  ],
  [
    "a ref to true / false",
    '{"properties":{"a":{"$ref":"#/$defs/T"},"b":{"$ref":"#/$defs/F"}},"$defs":{"T":true,"F":false}}',
    '{"a":1,"b":2}',
    { "/a": "unknown", "/b": "unknown" },
  ],
  [
    "$dynamicRef: the outermost $dynamicAnchor wins",
    '{"$id":"https://example.com/root","$ref":"https://example.com/list","$defs":{"rootItem":{"$dynamicAnchor":"item","type":"integer"},"list":{"$id":"https://example.com/list","type":"array","items":{"$dynamicRef":"#item"},"$defs":{"defaultItem":{"$dynamicAnchor":"item","type":"number"}}}}}',
    "[1,2]",
    { "/0": "integer", "/1": "integer" },
  ],
  [
    "$dynamicRef: no outer anchor, the static target",
    '{"$id":"https://example.com/list","type":"array","items":{"$dynamicRef":"#item"},"$defs":{"defaultItem":{"$dynamicAnchor":"item","type":"number"}}}',
    "[1]",
    { "/0": "number" },
  ],
  [
    "$recursiveRef (2019-09): goes to the root when both set $recursiveAnchor",
    '{"$id":"https://example.com/strict","$recursiveAnchor":true,"$ref":"tree","properties":{"v":{"type":"integer"}},"$defs":{"tree":{"$id":"https://example.com/tree","$recursiveAnchor":true,"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}}}',
    '{"v":1,"kids":[{"v":2}]}',
    { "/v": "integer", "/kids/0/v": "integer" },
  ],
  [
    "$recursiveRef without a root anchor: the current resource",
    '{"$id":"https://example.com/strict","$ref":"tree","properties":{"v":{"type":"integer"}},"$defs":{"tree":{"$id":"https://example.com/tree","$recursiveAnchor":true,"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}}}',
    '{"v":1,"kids":[{"v":2}]}',
    { "/v": "integer", "/kids/0/v": "number" },
  ],
];

const unresolvedRows: Row[] = [
  [
    "a pointer to nowhere, at a number",
    '{"properties":{"a":{"$ref":"#/$defs/missing"}}}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "a remote ref, at the root object",
    '{"$ref":"https://example.com/remote.json"}',
    '{"a":1,"b":{"c":2}}',
    { "/a": "unknown", "/b/c": "unknown" },
    ["schema-ref-unresolved at "],
  ],
  [
    "a relative ref to another document",
    '{"properties":{"a":{"$ref":"other.json#/x"}}}',
    '{"a":[1]}',
    { "/a/0": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "an unknown anchor",
    '{"properties":{"a":{"$ref":"#nope"}}}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "a malformed pointer (~2)",
    '{"properties":{"a":{"$ref":"#/$defs/a~2"}},"$defs":{"a~2":{"type":"integer"}}}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "a malformed %-escape",
    '{"properties":{"a":{"$ref":"#/$defs/%zz"}},"$defs":{"%zz":{"type":"integer"}}}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "a pointer to a non-schema",
    '{"properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":5}}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "an array index out of range",
    '{"properties":{"a":{"$ref":"#/allOf/3"}},"allOf":[{}]}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "unresolved beside siblings: the siblings still apply",
    '{"properties":{"a":{"$ref":"#/$defs/missing","type":"integer"}}}',
    '{"a":1}',
    { "/a": "integer" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "unresolved in one anyOf branch",
    '{"properties":{"a":{"anyOf":[{"$ref":"https://example.com/x"},{"type":"null"}]}}}',
    '{"a":1}',
    { "/a": "unknown" },
    ["schema-ref-unresolved at /a"],
  ],
  [
    "noted once per call, at every position it governs",
    '{"type":"array","items":{"$ref":"#/$defs/missing"}}',
    "[1,2]",
    { "/0": "unknown", "/1": "unknown" },
    ["schema-ref-unresolved at /0", "schema-ref-unresolved at /1"],
  ],
  [
    "http URL in $schema position is never a ref",
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"type":"integer"}}}',
    '{"a":1}',
    { "/a": "integer" },
    [],
  ],
];

describe("refs that resolve", () => {
  test.each(resolvedRows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});

describe("refs that do not resolve: unknown + schema-ref-unresolved, nothing fetched", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  test.each(unresolvedRows)("%s", (_name, schema, args, readings, notes) => {
    const fetch = vi.fn(() => {
      throw new Error("no network");
    });
    vi.stubGlobal("fetch", fetch);
    expect(walkJson(schema, args)).toEqual({ readings, notes });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("recursion terminates", () => {
  const rows: Row[] = [
    ["$ref: # alone", '{"$ref":"#"}', '{"a":1}', { "/a": "unknown" }],
    [
      "mutual refs",
      '{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}',
      "[1]",
      { "/0": "unknown" },
    ],
    [
      "allOf: [{$ref: #}] self-loop",
      '{"allOf":[{"$ref":"#"}],"properties":{"a":{"type":"integer"}}}',
      '{"a":1}',
      { "/a": "integer" },
    ],
    [
      "anyOf with a branch back to #",
      '{"anyOf":[{"$ref":"#"},{"properties":{"a":{"type":"integer"}}}]}',
      '{"a":1}',
      { "/a": "integer" },
    ],
    ["anyOf of itself only", '{"anyOf":[{"$ref":"#"}]}', "1", { "": "unknown" }],
    [
      "a number position under anyOf back to #",
      '{"properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"integer"}]}}}',
      '{"n":1}',
      { "/n": "integer" },
    ],
    [
      "a linked list",
      '{"$defs":{"L":{"type":["object","null"],"properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/L"}}}},"$ref":"#/$defs/L"}',
      '{"v":1,"next":{"v":2,"next":{"v":3,"next":null}}}',
      { "/v": "integer", "/next/v": "integer", "/next/next/v": "integer" },
    ],
  ];
  test.each(rows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });

  test("mutually recursive unions read the same whichever is read first", () => {
    const text =
      '{"properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"#/$defs/B"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/B"},{"type":"integer"}]},"B":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"number"}]}}}';
    expect(walk(JSON.parse(text), { a: 1, b: 2 }).readings).toEqual({
      "/a": "ambiguous",
      "/b": "ambiguous",
    });
    expect(walk(JSON.parse(text), { b: 2, a: 1 }).readings).toEqual({
      "/b": "ambiguous",
      "/a": "ambiguous",
    });
  });
});

describe("recursion results depend on their context only while it lasts", () => {
  test("a node first read inside a cycle reads on its own later in the same call", () => {
    // Reading A cuts at A inside C's expansion; C read afterwards (as /c, a new
    // position) must not reuse what was computed under A's cut.
    const text =
      '{"properties":{"a":{"$ref":"#/$defs/A"},"c":{"$ref":"#/$defs/C"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/C"},{"type":"integer"}]},"C":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"string"}]}}}';
    expect(walk(JSON.parse(text), { a: 1, c: 2 }).readings).toEqual({
      "/a": "integer",
      "/c": "integer",
    });
    expect(walk(JSON.parse(text), { c: 2, a: 1 }).readings).toEqual({
      "/c": "integer",
      "/a": "integer",
    });
  });
});
