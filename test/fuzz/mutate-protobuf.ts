// Mutations of ClientAction bytes. Structural ones change the parts before
// they are encoded (an extra args entry nested 100,000 deep or a million
// values long, NaN payloads, unset Values, a second args field that protobuf
// merges, a replaced or mutated raw_args_json); byte-level ones then flip
// bits, truncate, and inflate or deflate length prefixes.
import { corpus, type Seed } from "./corpus.js";
import { mutateJson } from "./mutate-json.js";
import type { Rng } from "./rng.js";
import * as wire from "./wire.js";

/** The parts of a ClientAction the structural mutations work on. */
interface Parts {
  actionId: string;
  args: Uint8Array[];
  raw: string | undefined;
  /** Bytes appended inside the CallMCPTool. */
  extra: Uint8Array[];
}

/** Interesting float64 bit patterns. */
const DOUBLE_BITS = [
  0x7ff8000000000000n, // NaN
  0x7ff0000000000001n, // signalling NaN with a payload
  0xfff8000000000000n, // negative NaN
  0x7ff0000000000000n, // +Infinity
  0xfff0000000000000n, // -Infinity
  0x8000000000000000n, // -0
  0x0000000000000001n, // smallest subnormal
  0x4340000000000001n, // 2^53 + 2
  0x43e0000000000000n, // 2^63
];

function randomValue(rng: Rng): Uint8Array {
  switch (rng.int(9)) {
    case 0:
      return wire.deepListValue(rng.chance(0.3) ? rng.range(50_000, 120_000) : rng.range(45, 110));
    case 1: {
      const n = rng.chance(0.03) ? rng.range(100_000, 1_000_000) : rng.range(0, 1_000);
      const one = wire.len(1, rng.chance(0.5) ? wire.nullValue() : wire.numberValue(n));
      const body = new Uint8Array(one.length * n);
      for (let i = 0; i < n; i++) body.set(one, i * one.length);
      return wire.len(wire.V.list, body);
    }
    case 2:
      return wire.fixed64Bits(wire.V.number, rng.pick(DOUBLE_BITS));
    case 3:
      return new Uint8Array(); // a Value with no kind
    case 4:
      return wire.numberValue(rng.u32() * 2 ** 21 + rng.u32());
    case 5:
      return wire.stringValue(
        rng.pick(["", "x", "\u0000", "😀", "a".repeat(rng.range(0, 100_000))]),
      );
    case 6: {
      const n = rng.chance(0.03) ? rng.range(10_000, 200_000) : rng.range(0, 100);
      const entries: [string, Uint8Array][] = [];
      for (let i = 0; i < n; i++) entries.push([`k${rng.int(n + 1)}`, wire.nullValue()]);
      return wire.structValue(entries);
    }
    case 7:
      return wire.concat(wire.numberValue(1), wire.stringValue("two kinds"));
    default:
      return wire.concat(wire.tag(wire.V.bool, wire.VARINT), wire.varint(rng.int(300)));
  }
}

const KEYS = ["a", "id", "x", "__proto__", "constructor", "", "0", "😀"];

type Structural = (p: Parts, rng: Rng, seed: Seed) => void;

const STRUCTURAL: readonly Structural[] = [
  // an extra args entry (a second args field: protobuf merges the maps)
  (p, rng) => {
    p.args.push(wire.struct([[rng.pick(KEYS), randomValue(rng)]]));
  },
  // an entry inside the first args body (a repeated key: the last one wins)
  (p, rng) => {
    p.args[0] = wire.concat(p.args[0]!, wire.struct([[rng.pick(KEYS), randomValue(rng)]]));
  },
  // mutate the raw text
  (p, rng, seed) => {
    p.raw = mutateJson(p.raw ?? seed.text, rng);
  },
  // the sign of a zero in the raw text (0 ↔ -0.0): the Struct keeps the other one
  (p, rng, seed) => {
    const raw = p.raw ?? seed.text;
    const zeros = [...raw.matchAll(/(?<=[:,[]\s*)-?0(?:\.0+)?(?=\s*[,}\]])/g)];
    if (zeros.length === 0) return;
    const m = rng.pick(zeros);
    const flipped = m[0].startsWith("-") ? m[0].slice(1) : rng.pick(["-0", "-0.0", "-0e0"]);
    p.raw = raw.slice(0, m.index) + flipped + raw.slice(m.index + m[0].length);
  },
  // another seed's raw text
  (p, rng) => {
    p.raw = rng.pick(corpus()).text;
  },
  // drop the raw text
  (p) => {
    p.raw = undefined;
  },
  // unknown fields and odd wire types inside the call
  (p, rng) => {
    const kinds = [
      wire.concat(wire.tag(99, wire.VARINT), wire.varint(rng.u32())),
      wire.len(3, new Uint8Array()),
      wire.concat(wire.tag(5, 3), wire.tag(5, 4)), // an empty group
      wire.str(4, rng.pick(corpus()).text), // a second raw_args_json: the last wins
    ];
    p.extra.push(rng.pick(kinds));
  },
];

type ByteMutation = (b: Uint8Array, rng: Rng) => Uint8Array;

/** Rewrites the varint at [at, end) as `value`. */
function rewriteVarint(b: Uint8Array, at: number, end: number, value: number): Uint8Array {
  return wire.concat(b.subarray(0, at), wire.varint(value), b.subarray(end));
}

const BYTE_MUTATIONS: readonly ByteMutation[] = [
  // flip bits
  (b, rng) => {
    const out = b.slice();
    const n = 1 + rng.size(7);
    for (let k = 0; k < n && out.length > 0; k++) out[rng.int(out.length)]! ^= 1 << rng.int(8);
    return out;
  },
  // set a byte to an interesting value
  (b, rng) => {
    const out = b.slice();
    if (out.length > 0) out[rng.int(out.length)] = rng.pick([0x00, 0x7f, 0x80, 0xff, 0x0a, 0x12]);
    return out;
  },
  // truncate
  (b, rng) => b.slice(0, rng.int(b.length)),
  // delete or duplicate a range
  (b, rng) => {
    const i = rng.int(b.length + 1);
    const j = Math.min(b.length, i + 1 + rng.size(32));
    return rng.chance(0.5)
      ? wire.concat(b.subarray(0, i), b.subarray(j))
      : wire.concat(b.subarray(0, j), b.subarray(i, j), b.subarray(j));
  },
  // inflate or deflate a length prefix
  (b, rng) => {
    const spans = wire.fieldSpans(b).filter((f) => f.lengthAt !== undefined);
    if (spans.length === 0) return b;
    const f = rng.pick(spans);
    const len = f.bodyLength!;
    const value = rng.pick([
      len + 1,
      len + rng.range(2, 16),
      Math.max(0, len - 1),
      0,
      0x7fffffff,
      0xffffffff,
      2 ** 35,
    ]);
    return rewriteVarint(b, f.lengthAt!, f.bodyAt!, value);
  },
  // change a tag's wire type or field number
  (b, rng) => {
    const spans = wire.fieldSpans(b);
    if (spans.length === 0) return b;
    const f = rng.pick(spans);
    const t = wire.readVarint(b, f.start)!;
    const field = rng.chance(0.5)
      ? f.field
      : rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 19_000, 2 ** 29 - 1]);
    const wireType = rng.chance(0.5) ? f.wireType : rng.int(8);
    return rewriteVarint(b, f.start, t.end, field * 8 + wireType);
  },
  // overwrite a double with an odd bit pattern
  (b, rng) => {
    const spans = wire.fieldSpans(b).filter((f) => f.wireType === wire.I64);
    if (spans.length === 0) return b;
    const f = rng.pick(spans);
    const out = b.slice();
    const t = wire.readVarint(b, f.start)!;
    new DataView(out.buffer).setBigUint64(t.end, rng.pick(DOUBLE_BITS), true);
    return out;
  },
];

/** A mutated ClientAction built from a seed: structural changes, then byte-level ones. */
export function mutateClientAction(seed: Seed, rng: Rng): Uint8Array {
  const parts: Parts = {
    actionId: "a1",
    args: [seed.structBytes],
    raw: rng.chance(0.8) ? seed.text : undefined,
    extra: [],
  };
  const structural = rng.size(2);
  for (let k = 0; k < structural; k++) rng.pick(STRUCTURAL)(parts, rng, seed);
  const call = wire.concat(
    wire.str(2, "t"),
    ...parts.args.map((a) => wire.len(3, a)),
    parts.raw === undefined ? new Uint8Array() : wire.str(4, parts.raw),
    ...parts.extra,
  );
  let bytes = wire.concat(wire.str(1, parts.actionId), wire.len(2, call));
  const byteLevel = structural === 0 ? 1 + rng.size(3) : rng.size(2);
  for (let k = 0; k < byteLevel; k++) bytes = rng.pick(BYTE_MUTATIONS)(bytes, rng);
  return bytes;
}
