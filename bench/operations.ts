// The operations measured: ours and the baselines they are compared with, each
// prepared outside the timing so that a measurement covers exactly one call.

import {
  create,
  fromBinary,
  fromJsonString,
  type JsonObject,
  toBinary,
  toJsonString,
} from "@bufbuild/protobuf";
import { type Struct, StructSchema } from "@bufbuild/protobuf/wkt";
import { parse as losslessParse } from "lossless-json";
import { type CallMCPTool, CallMCPToolSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import type { PackageApi } from "./package-api.js";
import { deepLevels, type Payload, type PayloadName } from "./payloads.js";

/** Which comparison an operation belongs to; operations of one group are timed together. */
export type GroupName = "write" | "read" | "schema" | "numbers";

/** "ours" is the package; baselines are what the targets compare against; references are shown for context. */
export type Role = "ours" | "baseline" | "reference";

/** A measured operation, independent of the payload. */
export interface OperationSpec {
  /** Stable id, used on the command line of the child processes. */
  readonly id: string;
  /** What the report calls it. */
  readonly label: string;
  /** The group it is timed in. */
  readonly group: GroupName;
  /** Ours, a baseline, or a reference. */
  readonly role: Role;
  /** True when it calls this package: its failures are results, not a broken harness. */
  readonly usesPackage: boolean;
  /** The payloads it runs on. */
  readonly payloads: readonly PayloadName[];
  /** Builds the call for one payload; throws when the package lacks what it needs. */
  readonly prepare: (inputs: PayloadInputs) => PreparedOperation;
}

/** One operation ready to call on one payload. */
export interface PreparedOperation {
  /** Performs one call and returns its result. */
  readonly call: () => unknown;
  /** Runs before each timed batch of `n` calls, outside the timing (fresh schema objects). */
  readonly refill?: (n: number) => void;
  /** Checks one result: a short problem description, or undefined when it is right. */
  readonly check?: (result: unknown) => string | undefined;
}

/** Thrown by `prepare` when the package does not export the function yet. */
export class NotAvailable extends Error {
  override name = "NotAvailable";
}

function need<T>(f: T | undefined, name: string): T {
  if (f === undefined) throw new NotAvailable(`${name} is not exported yet`);
  return f;
}

/**
 * Options for reading a payload. Deep is 90 levels, above the depth a Struct
 * survives protobuf-es's binary decoder (about 49 JSON levels), so the reading
 * functions' default limit may be lower: the benchmark raises it explicitly.
 */
function readOptions(payload: Payload): object {
  return payload.name === "Deep" ? { recursionLimit: deepLevels + 10 } : {};
}

/** The inputs every operation on one payload needs, each built once on first use. */
export class PayloadInputs {
  readonly #memo = new Map<string, unknown>();
  readonly payload: Payload;
  readonly api: PackageApi;
  /** Notes about how the inputs were built (e.g. a binary round trip that could not be done). */
  readonly notes: string[] = [];

  constructor(payload: Payload, api: PackageApi) {
    this.payload = payload;
    this.api = api;
  }

  #once<T>(key: string, build: () => T): T {
    if (!this.#memo.has(key)) this.#memo.set(key, build());
    return this.#memo.get(key) as T;
  }

  /** The payload's JSON text. */
  get text(): string {
    return this.payload.text;
  }

  /** The equivalent plain object (numbers rounded to float64, as everywhere outside this package). */
  get plain(): JsonObject {
    return this.#once("plain", () => JSON.parse(this.payload.text) as JsonObject);
  }

  /** What a value-level comparison expects: the text normalised by JSON.parse and JSON.stringify. */
  get normalised(): string {
    return this.#once("normalised", () => JSON.stringify(this.plain));
  }

  /** The Struct message, as a receiver holds it after decoding a bare `google.protobuf.Struct`. */
  get struct(): Struct {
    return this.#once("struct", () => fromJsonString(StructSchema, this.payload.text));
  }

  /**
   * The JsonObject protobuf-es uses for a Struct inside a message field, after
   * a binary round trip of a `CallMCPTool` (what a client really receives).
   */
  get fieldObject(): JsonObject {
    return this.#once("fieldObject", () => {
      const call = create(CallMCPToolSchema, { name: this.payload.toolName, args: this.plain });
      try {
        return fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call)).args ?? {};
      } catch {
        this.notes.push(
          "JsonObject input built without a binary round trip (too deep for fromBinary)",
        );
        return this.plain;
      }
    });
  }

  /**
   * VARIANTS Structs of the payload, each with every fractional number changed
   * (its fraction cut to 12 significant digits, two digits of the variant
   * appended: a fraction still, within the same bounds but for its last
   * digits), and their normalised texts. Written in turn, no number's text is
   * one the last VARIANTS − 1 calls wrote: V8's number-string cache, which
   * serves a payload written again and again, cannot serve these.
   */
  get varied(): { readonly structs: readonly Struct[]; readonly normalised: readonly string[] } {
    return this.#once("varied", () => {
      const texts = Array.from({ length: VARIANTS }, (_, v) =>
        this.payload.text.replace(
          /(-?\d+)\.(\d*[1-9])(?=[,\]}])/g,
          (_, int: string, frac: string) => {
            // At most 12 significant digits kept, then two of the variant's: a different float64.
            const keep = Math.max(1, Math.min(frac.length, 12 - int.replace("-", "").length));
            return `${int}.${frac.slice(0, keep)}${(v % 9) + 1}${Math.floor(v / 9)}`;
          },
        ),
      );
      return {
        structs: texts.map((t) => fromJsonString(StructSchema, t)),
        normalised: texts.map((t) => JSON.stringify(JSON.parse(t))),
      };
    });
  }

  /** The schema compiled once (the raw schema object when `compileSchema` is not exported). */
  get compiled(): unknown {
    return this.#once("compiled", () =>
      this.api.compileSchema === undefined
        ? this.payload.schema
        : this.api.compileSchema(this.payload.schema),
    );
  }

  /** A `CallMCPTool` with `raw_args_json`, as the client receives it (after a binary round trip where possible). */
  get call(): CallMCPTool {
    return this.#once("call", () => {
      const toolCallFromJson = need(this.api.toolCallFromJson, "toolCallFromJson");
      const call = toolCallFromJson(
        { name: this.payload.toolName, argumentsJson: this.payload.text },
        { ...readOptions(this.payload), rawArgsJson: "always" },
      ) as CallMCPTool;
      try {
        return fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call));
      } catch {
        this.notes.push("CallMCPTool used without a binary round trip (too deep for fromBinary)");
        return call;
      }
    });
  }
}

const allPayloads: readonly PayloadName[] = ["S", "M", "L", "XL", "Deep"];

/** How many variants of a payload the "numbers" group writes in turn. */
const VARIANTS = 64;

/** The variants of the payload written in turn, each result checked against its own variant's values. */
function variedCalls(inputs: PayloadInputs, write: (struct: Struct) => unknown): PreparedOperation {
  const { structs, normalised } = inputs.varied;
  let i = 0;
  let last = 0;
  return {
    call: () => {
      last = i;
      i = (i + 1) % structs.length;
      return write(structs[last]!);
    },
    check: sameValuesAs(() => normalised[last]!),
  };
}

function sameValues(inputs: PayloadInputs): (result: unknown) => string | undefined {
  return sameValuesAs(() => inputs.normalised);
}

/** Checks that a result is JSON text denoting the values whose normalised text `expected` gives. */
function sameValuesAs(expected: () => string): (result: unknown) => string | undefined {
  return (result) => {
    if (typeof result !== "string") return "did not return a string";
    try {
      return JSON.stringify(JSON.parse(result)) === expected()
        ? undefined
        : "output denotes different values than the input";
    } catch {
      return "output is not JSON";
    }
  };
}

/** A pool of fresh copies of the schema (each parsed from its JSON text), so that every call sees a schema object it has never seen. */
function freshSchemas(schema: object): { refill: (n: number) => void; next: () => object } {
  // Deserialised from its JSON text, as a client that receives the tool's schema per call holds it.
  const text = JSON.stringify(schema);
  const fresh = () => JSON.parse(text) as object;
  let pool: object[] = [];
  let i = 0;
  return {
    refill: (n) => {
      pool = Array.from({ length: n }, fresh);
      i = 0;
    },
    next: () => pool[i++] ?? fresh(),
  };
}

/**
 * First use of a new schema object (`passFresh`) and its control: each call takes
 * the next fresh copy from a pool refilled outside the timing; first use passes it,
 * the control passes the cached schema object instead. One function for both, so
 * that they stay timed alike (same blocks, same copies built before each).
 */
function withFreshSchemas(inp: PayloadInputs, passFresh: boolean): PreparedOperation {
  const f = need(inp.api.structToJson, "structToJson");
  const struct = inp.struct;
  const schema = inp.payload.schema;
  const fresh = freshSchemas(schema);
  const call = passFresh
    ? () => f(struct, fresh.next())
    : () => {
        fresh.next();
        return f(struct, schema);
      };
  return { call, refill: fresh.refill, check: sameValues(inp) };
}

/** Every operation, in report order within each group. */
export const operations: readonly OperationSpec[] = [
  // Struct → JSON text.
  {
    id: "structToJson",
    label: "structToJson",
    group: "write",
    role: "ours",
    usesPackage: true,
    payloads: allPayloads,
    prepare: (inp) => {
      const f = need(inp.api.structToJson, "structToJson");
      const struct = inp.struct;
      const schema = inp.compiled;
      return { call: () => f(struct, schema), check: sameValues(inp) };
    },
  },
  {
    id: "jsonObjectToJson",
    label: "jsonObjectToJson (a Struct field's JsonObject)",
    group: "write",
    role: "reference",
    usesPackage: true,
    payloads: ["S", "M", "L", "Deep"],
    prepare: (inp) => {
      const f = need(inp.api.jsonObjectToJson, "jsonObjectToJson");
      const obj = inp.fieldObject;
      const schema = inp.compiled;
      return { call: () => f(obj, schema), check: sameValues(inp) };
    },
  },
  {
    id: "toJsonString",
    label: "protobuf-es toJsonString",
    group: "write",
    role: "baseline",
    usesPackage: false,
    payloads: allPayloads,
    prepare: (inp) => {
      const struct = inp.struct;
      return { call: () => toJsonString(StructSchema, struct), check: sameValues(inp) };
    },
  },
  {
    id: "JSON.stringify",
    label: "JSON.stringify",
    group: "write",
    role: "baseline",
    usesPackage: false,
    payloads: allPayloads,
    prepare: (inp) => {
      const plain = inp.plain;
      return { call: () => JSON.stringify(plain), check: sameValues(inp) };
    },
  },
  // Struct → JSON text on a payload whose numbers change from call to call.
  {
    id: "structToJson-varied",
    label: "structToJson, numbers changed in every call",
    group: "numbers",
    role: "ours",
    usesPackage: true,
    payloads: ["M"],
    prepare: (inp) => {
      const f = need(inp.api.structToJson, "structToJson");
      const schema = inp.compiled;
      return variedCalls(inp, (struct) => f(struct, schema));
    },
  },
  {
    id: "toJsonString-varied",
    label: "protobuf-es toJsonString, numbers changed in every call",
    group: "numbers",
    role: "baseline",
    usesPackage: false,
    payloads: ["M"],
    prepare: (inp) => variedCalls(inp, (struct) => toJsonString(StructSchema, struct)),
  },
  // JSON text → Struct, and the client's raw-text verification.
  {
    id: "structMessageFromJson",
    label: "structMessageFromJson",
    group: "read",
    role: "ours",
    usesPackage: true,
    payloads: allPayloads,
    prepare: (inp) => {
      const f = need(inp.api.structMessageFromJson, "structMessageFromJson");
      const text = inp.text;
      const options = readOptions(inp.payload);
      // Not inp.struct: that would keep a second Struct alive while timing the read group.
      const expected = toJsonString(StructSchema, fromJsonString(StructSchema, text));
      return {
        call: () => f(text, options),
        check: (r) =>
          toJsonString(StructSchema, r as Struct) === expected
            ? undefined
            : "Struct differs from protobuf-es's",
      };
    },
  },
  {
    id: "verify",
    label: 'toolCallToJson (rawJson: "verify")',
    group: "read",
    role: "ours",
    usesPackage: true,
    payloads: allPayloads,
    prepare: (inp) => {
      const f = need(inp.api.toolCallToJson, "toolCallToJson");
      const call = inp.call;
      const schema = inp.compiled;
      const options = { ...readOptions(inp.payload), rawJson: "verify" };
      const text = inp.text;
      return {
        call: () => f(call, schema, options),
        check: (r) => (r === text ? undefined : "did not return raw_args_json untouched"),
      };
    },
  },
  {
    id: "fromJsonString",
    label: "protobuf-es fromJsonString",
    group: "read",
    role: "baseline",
    usesPackage: false,
    payloads: allPayloads,
    prepare: (inp) => {
      const text = inp.text;
      return { call: () => fromJsonString(StructSchema, text) };
    },
  },
  {
    id: "JSON.parse",
    label: "JSON.parse",
    group: "read",
    role: "baseline",
    usesPackage: false,
    payloads: allPayloads,
    prepare: (inp) => {
      const text = inp.text;
      return { call: () => JSON.parse(text) };
    },
  },
  {
    id: "lossless-json",
    label: "lossless-json parse",
    group: "read",
    role: "reference",
    usesPackage: false,
    // Not L or XL: at about 10 MB/s it would double the run; the issue gives its L figure.
    payloads: ["S", "M", "Deep"],
    prepare: (inp) => {
      const text = inp.text;
      return { call: () => losslessParse(text) };
    },
  },
  // The schema: compiling, and what a cached or compiled schema costs per call.
  {
    id: "no-schema",
    label: "structToJson without a schema",
    group: "schema",
    role: "baseline",
    usesPackage: true,
    payloads: ["S", "M"],
    prepare: (inp) => {
      const f = need(inp.api.structToJson, "structToJson");
      const struct = inp.struct;
      return { call: () => f(struct) };
    },
  },
  {
    id: "cached-schema",
    label: "structToJson, same schema object again (cached)",
    group: "schema",
    role: "ours",
    usesPackage: true,
    payloads: ["S", "M"],
    prepare: (inp) => {
      const f = need(inp.api.structToJson, "structToJson");
      const struct = inp.struct;
      const schema = inp.payload.schema;
      return { call: () => f(struct, schema), check: sameValues(inp) };
    },
  },
  {
    id: "compiled-schema",
    label: "structToJson, compiled schema",
    group: "schema",
    role: "ours",
    usesPackage: true,
    payloads: ["S", "M"],
    prepare: (inp) => {
      const f = need(inp.api.structToJson, "structToJson");
      need(inp.api.compileSchema, "compileSchema");
      const struct = inp.struct;
      const schema = inp.compiled;
      return { call: () => f(struct, schema), check: sameValues(inp) };
    },
  },
  {
    id: "compileSchema",
    label: "compileSchema (new schema object)",
    group: "schema",
    role: "ours",
    usesPackage: true,
    payloads: ["S", "M"],
    prepare: (inp) => {
      const f = need(inp.api.compileSchema, "compileSchema");
      const fresh = freshSchemas(inp.payload.schema);
      return { call: () => f(fresh.next()), refill: fresh.refill };
    },
  },
  {
    // The fresh-schema target's control: the cached call timed exactly as first use is
    // (blocks of at most maxRefillBatch calls, each after its pool of fresh copies is
    // built and a scavenge), so that the ratio counts the schema lookup, not the blocks.
    // In blocks of its own (thousands of calls, nothing built before them) the same call
    // took 19–22% less time (session 22), which the old ratio charged to the lookup.
    id: "cached-refill",
    label: "structToJson, same schema object, timed in first use's blocks",
    group: "schema",
    role: "ours",
    usesPackage: true,
    payloads: ["S", "M"],
    prepare: (inp) => withFreshSchemas(inp, false),
  },
  {
    id: "first-use",
    label: "structToJson, new schema object (first use)",
    group: "schema",
    role: "ours",
    usesPackage: true,
    payloads: ["S", "M"],
    prepare: (inp) => withFreshSchemas(inp, true),
  },
];

/** Looks an operation up by id. */
export function operationById(id: string): OperationSpec | undefined {
  return operations.find((o) => o.id === id);
}
