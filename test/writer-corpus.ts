// Shared by the writer's tests: the corpus every way of writing a call must
// pass (test/writer-modes.test.ts, test/writer-large-modes.test.ts), and
// Struct messages built from plain JSON values.

/** The writer's tests, and the corpora (golden and decoder vectors, hostile inputs) that write Structs. */
export const WRITER_CORPUS = [
  "./to-json.test.js",
  "./to-json-depth.test.js",
  "./to-json-forged-message.test.js",
  "./to-json-canary.test.js",
  "./hostile-struct.test.js",
  "./options.test.js",
  "./golden-contract.test.js",
  "./vectors/decoder-vectors.test.js",
] as const;

/** A JSON value as a google.protobuf.Value message (NaN and the like as number values). */
export function toValue(v: unknown): unknown {
  if (v === null) return { kind: { case: "nullValue", value: 0 } };
  switch (typeof v) {
    case "number":
      return { kind: { case: "numberValue", value: v } };
    case "string":
      return { kind: { case: "stringValue", value: v } };
    case "boolean":
      return { kind: { case: "boolValue", value: v } };
    case "object":
      if (Array.isArray(v))
        return { kind: { case: "listValue", value: { values: v.map(toValue) } } };
      return { kind: { case: "structValue", value: toStruct(v as Record<string, unknown>) } };
    default:
      return { kind: { case: undefined } };
  }
}

/** A plain object as a google.protobuf.Struct message (`__proto__` an own member, as data). */
export function toStruct(o: Record<string, unknown>): {
  $typeName: string;
  fields: Record<string, unknown>;
} {
  const fields: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    Object.defineProperty(fields, k, {
      value: toValue(o[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { $typeName: "google.protobuf.Struct", fields };
}
