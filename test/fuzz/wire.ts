// A tiny protobuf wire-format writer and reader for building bytes no
// well-behaved encoder would produce (NaN payloads, unset Values, nesting
// 100,000 deep, inflated lengths) and for finding the fields to mutate.

/** Wire types. */
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const I32 = 5;

/** The bytes of an unsigned varint (up to 2^53). */
export function varint(n: number): Uint8Array {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** Length of the varint of `n`. */
export function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

/** Concatenates byte arrays. */
export function concat(...parts: readonly Uint8Array[]): Uint8Array {
  return concatAll(parts);
}

/** Concatenates a list of byte arrays (any length: no spread). */
export function concatAll(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A field's tag. */
export function tag(field: number, wireType: number): Uint8Array {
  return varint(field * 8 + wireType);
}

/** A length-delimited field. */
export function len(field: number, body: Uint8Array): Uint8Array {
  return concat(tag(field, LEN), varint(body.length), body);
}

/** A string field (UTF-8). */
export function str(field: number, s: string): Uint8Array {
  return len(field, new TextEncoder().encode(s));
}

/** A double field from its eight little-endian bytes (any bit pattern, NaN payloads included). */
export function fixed64Bits(field: number, bits: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, bits, true);
  return concat(tag(field, I64), b);
}

/** A double field. */
export function double(field: number, v: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v, true);
  return concat(tag(field, I64), b);
}

// google.protobuf.Value / Struct / ListValue and toolbridge.v1 field numbers.
/** Value.null_value … list_value. */
export const V = { null: 1, number: 2, string: 3, bool: 4, struct: 5, list: 6 } as const;

/** A google.protobuf.Value holding null. */
export const nullValue = (): Uint8Array => concat(tag(V.null, VARINT), varint(0));
/** A google.protobuf.Value holding a number. */
export const numberValue = (v: number): Uint8Array => double(V.number, v);
/** A google.protobuf.Value holding a string. */
export const stringValue = (s: string): Uint8Array => str(V.string, s);
/** A google.protobuf.Value holding a Struct with these (key, Value bytes) entries. */
export const structValue = (entries: readonly [string, Uint8Array][]): Uint8Array =>
  len(V.struct, struct(entries));
/** A google.protobuf.Value holding a list of Value bytes. */
export const listValue = (values: readonly Uint8Array[]): Uint8Array =>
  len(V.list, concatAll(values.map((v) => len(1, v))));

/** A google.protobuf.Struct body with these (key, Value bytes) entries. */
export function struct(entries: readonly [string, Uint8Array][]): Uint8Array {
  return concatAll(entries.map(([k, v]) => len(1, concat(str(1, k), len(2, v)))));
}

/** A ClientAction body carrying a CallMCPTool with these args (Struct body) and raw text. */
export function clientAction(args: Uint8Array, raw?: string, actionId = "a1"): Uint8Array {
  const call = concat(
    str(2, "t"),
    len(3, args),
    raw === undefined ? new Uint8Array() : str(4, raw),
  );
  return concat(str(1, actionId), len(2, call));
}

/**
 * A Value nested `depth` lists deep ([[[…null…]]]), written without recursion:
 * lengths are computed inside out, prefixes written outside in.
 */
export function deepListValue(depth: number): Uint8Array {
  const inner = nullValue();
  // valueLen[k]: length of the Value at level k (0 = innermost null).
  const valueLen = new Array<number>(depth + 1);
  valueLen[0] = inner.length;
  for (let k = 1; k <= depth; k++) {
    const list = 1 + varintSize(valueLen[k - 1]!) + valueLen[k - 1]!;
    valueLen[k] = 1 + varintSize(list) + list;
  }
  const out = new Uint8Array(valueLen[depth]!);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  for (let k = depth; k >= 1; k--) {
    const list = 1 + varintSize(valueLen[k - 1]!) + valueLen[k - 1]!;
    put(tag(V.list, LEN));
    put(varint(list));
    put(tag(1, LEN));
    put(varint(valueLen[k - 1]!));
  }
  put(inner);
  return out;
}

/** One field as found in a message body: where its tag starts, its length prefix, its body. */
export interface FieldSpan {
  readonly field: number;
  readonly wireType: number;
  readonly start: number;
  /** For LEN fields: offset of the length varint and of the body, and the body's length. */
  readonly lengthAt?: number;
  readonly bodyAt?: number;
  readonly bodyLength?: number;
}

/** Reads a varint at `i`; undefined when truncated or longer than 10 bytes. */
export function readVarint(b: Uint8Array, i: number): { value: number; end: number } | undefined {
  let value = 0;
  let mul = 1;
  for (let k = 0; k < 10 && i + k < b.length; k++) {
    const byte = b[i + k]!;
    value += (byte & 0x7f) * mul;
    mul *= 128;
    if (byte < 0x80) return { value, end: i + k + 1 };
  }
  return undefined;
}

/** Most fields listed (mutation points), however big the message. */
const MAX_SPANS = 20_000;

/**
 * Lists every field of a well-formed message, recursing into LEN fields that
 * parse as messages themselves (strings that happen to parse are included:
 * harmless for choosing mutation points).
 */
export function fieldSpans(
  b: Uint8Array,
  from = 0,
  to = b.length,
  depth = 0,
  out: FieldSpan[] = [],
): FieldSpan[] {
  let i = from;
  while (i < to && out.length < MAX_SPANS) {
    const t = readVarint(b, i);
    if (t === undefined || t.end > to) return out;
    const field = Math.floor(t.value / 8);
    const wireType = t.value % 8;
    if (field === 0) return out;
    if (wireType === VARINT) {
      const v = readVarint(b, t.end);
      if (v === undefined) return out;
      out.push({ field, wireType, start: i });
      i = v.end;
    } else if (wireType === I64 || wireType === I32) {
      const end = t.end + (wireType === I64 ? 8 : 4);
      if (end > to) return out;
      out.push({ field, wireType, start: i });
      i = end;
    } else if (wireType === LEN) {
      const l = readVarint(b, t.end);
      if (l === undefined || l.end + l.value > to) return out;
      out.push({
        field,
        wireType,
        start: i,
        lengthAt: t.end,
        bodyAt: l.end,
        bodyLength: l.value,
      });
      if (depth < 64) fieldSpans(b, l.end, l.end + l.value, depth + 1, out);
      i = l.end + l.value;
    } else {
      return out;
    }
  }
  return out;
}
