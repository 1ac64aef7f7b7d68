// Tool calls: building CallMCPTool on the server, getting its arguments'
// JSON text back on the client.

import type { JsonObject } from "@bufbuild/protobuf";
import type { CallMCPTool } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { type DiagnosticHandler, ignoreDiagnostics } from "../diagnostics.js";
import { StructJsonError } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { checkOneOf, invalidOption, makeOptions } from "../options.js";
import { type CompiledSchema, isCompiledSchema, rootNode } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { isSchema } from "../schema/keywords.js";
import {
  parseArguments,
  type StructFromJsonOptions,
  structFromJsonDefaults,
} from "../struct/from-json.js";
import {
  resolveOptions as resolveToJsonOptions,
  type StructToJsonOptions,
  structToJson,
  structToJsonDefaults,
} from "../struct/to-json.js";
import { checkJsonObject } from "../struct/to-json-options.js";
import { type RawJsonMode, verifyRawJson } from "./raw-json.js";
import { callMcpToolMessage } from "./tool-messages.js";

/** When the server carries the model's text beside the Struct. */
export type RawTextPolicy = "always" | "when-lossy" | "never";

/** Options of {@link toolCallFromJson}. */
export interface ToolCallFromJsonOptions extends StructFromJsonOptions {
  /**
   * When to set `raw_args_json` (the argument text, byte for byte): "always",
   * "when-lossy" (only when some number's float64 does not carry what was
   * written, i.e. a `precision-lost` diagnostic), or "never". Default "always".
   */
  rawArgsJson: RawTextPolicy;
}

/** The values of {@link RawTextPolicy}. */
export const rawTextPolicies: readonly RawTextPolicy[] = ["always", "when-lossy", "never"];

const toolCallFromJsonDefaults: Readonly<ToolCallFromJsonOptions> = Object.freeze({
  ...structFromJsonDefaults,
  rawArgsJson: "always",
});

/**
 * Builds a `CallMCPTool` from the model's argument JSON text (the server
 * side). The mirror of {@link toolCallToJson}.
 */
export function toolCallFromJson(
  init: { name: string; serverId?: string; argumentsJson: string },
  options?: Partial<ToolCallFromJsonOptions>,
): CallMCPTool {
  const opts = makeOptions(toolCallFromJsonDefaults, options, (o) =>
    checkOneOf("rawArgsJson", o.rawArgsJson, rawTextPolicies),
  );
  checkMessage(init, "CallMCPTool");
  const name = initField(init, "name", "string");
  const serverId = initField(init, "serverId", "string", "");
  const json = init.argumentsJson;
  const { value, keepText } = structField(json, opts.rawArgsJson, opts);
  return callMcpToolMessage(serverId, name, value, keepText ? json : undefined);
}

/** The shared encoding path of tool calls and tool results: the Struct field, and whether its text travels beside it. */
export function structField(
  json: string,
  policy: RawTextPolicy,
  options: StructFromJsonOptions,
): { value: JsonObject; keepText: boolean } {
  const { value, lossy } = parseArguments(json, "plain", options, policy === "when-lossy");
  return { value, keepText: policy === "always" || (policy === "when-lossy" && lossy) };
}

/**
 * The outcome of a repair function, as `repairArguments` from
 * "struct-json-bridge/repair" returns it: the (repaired) text, or the failing
 * paths and keywords or codes.
 */
export type ArgumentsRepairResult =
  | { readonly ok: true; readonly argumentsJson: string }
  | {
      readonly ok: false;
      readonly issues: readonly { readonly path: JsonPointer; readonly keyword: string }[];
    };

/**
 * A repair function for {@link ToolCallToJsonOptions.repair}: `repairArguments`
 * from "struct-json-bridge/repair" (injected rather than imported, so that an
 * app that never repairs never bundles the JSON Schema validator it needs).
 */
export type ArgumentsRepair = (
  argumentsJson: string,
  inputSchema: JsonSchema | null | undefined,
  options?: { onDiagnostic?: DiagnosticHandler; recursionLimit?: number },
) => ArgumentsRepairResult;

/** Options of {@link toolCallToJson}: the decoder's options plus the raw-text mode and repair. */
export interface ToolCallToJsonOptions extends StructToJsonOptions {
  /**
   * What to do with `raw_args_json` when present. "verify" (default): use it
   * untouched if it is one well-formed JSON object that agrees with `args`;
   * malformed → `raw-json-invalid` and the Struct path; disagreeing → throw
   * `raw-struct-mismatch`. "trust": return it without parsing (only for
   * pipelines whose sender is trusted). "ignore": always decode `args`. With
   * `canonical`, the output is the Struct's canonical text in every mode
   * ("verify" still verifies the raw text), with the Struct path's
   * diagnostics; `indent` and `wholeFloats` do not reformat a raw text passed
   * on. A text passed on gets the Struct path's diagnostics except where the
   * two write differently (docs/codes.md): at an integer position it reports
   * what the text writes (`integer-written-as-float` for `5.0`,
   * `not-an-integer` for `1.5` or `1e-400`).
   */
  rawJson: RawJsonMode;
  /**
   * A repair function, `repairArguments` from "struct-json-bridge/repair",
   * run on the decoded text before it is returned: arguments with no single
   * reading throw `arguments-rejected` (or the input's own code, such as
   * `invalid-json`); repairs are reported as `argument-repaired`. It gets
   * `onDiagnostic` and `recursionLimit`. Needs the JSON Schema itself, not a
   * `CompiledSchema`. With `canonical`, a text it changed is written
   * canonically again from its values. Default undefined: no repair.
   */
  repair: ArgumentsRepair | undefined;
}

/** The defaults of {@link toolCallToJson} (and of `toolResultToJson`, which has no `repair`: never read there). */
export const toolCallToJsonDefaults: Readonly<ToolCallToJsonOptions> = Object.freeze({
  ...structToJsonDefaults,
  rawJson: "verify",
  repair: undefined,
});

/**
 * The call's arguments as the JSON text a strict MCP server expects (the
 * client side): `raw_args_json` untouched when present and verified, else
 * the Struct decoded with the tool's input schema. The mirror of
 * {@link toolCallFromJson}.
 */
export function toolCallToJson(
  call: CallMCPTool,
  inputSchema?: JsonSchema | CompiledSchema | null,
  options?: Partial<ToolCallToJsonOptions>,
): string {
  const opts = makeOptions(toolCallToJsonDefaults, options, (o) => {
    if (o.repair !== undefined && typeof o.repair !== "function") {
      invalidOption(
        "repair",
        'must be a repair function (repairArguments from "struct-json-bridge/repair")',
      );
    }
  });
  checkMessage(call, "CallMCPTool");
  // An unset message field reads as its default, the empty Struct (no arguments).
  const text = argumentsText(call.args ?? {}, call.rawArgsJson, inputSchema, opts);
  if (opts.repair === undefined) return text;
  if (isCompiledSchema(inputSchema)) {
    invalidOption("repair", "needs the JSON Schema itself, not a CompiledSchema");
  }
  const repaired = repairedOrThrown(opts.repair, text, inputSchema, opts);
  // Canonical output stays canonical: a repaired text is written again from
  // its values (RFC 8785 reads no schema; the repairs were reported).
  const quiet = { ...opts, onDiagnostic: ignoreDiagnostics };
  return opts.canonical && repaired !== text
    ? structToJson(parseArguments(repaired, "plain", quiet).value, null, quiet)
    : repaired;
}

/** The message field types an init object carries. */
interface InitTypes {
  string: string;
  boolean: boolean;
}

/**
 * Field `key` of the init object of `toolCallFromJson`/`toolResultFromJson`
 * (an object: {@link checkMessage} first), whose fields become the message's:
 * its value when it is a `type`; `fallback` (the message's default) when it
 * is absent and optional. Anything else is `message-invalid` at `/key`: the
 * message would carry a field of the wrong type, which encoders then refuse
 * or write as something else.
 */
export function initField<K extends keyof InitTypes>(
  init: object,
  key: string,
  type: K,
  fallback?: InitTypes[K],
): InitTypes[K] {
  const v = (init as Record<string, unknown>)[key];
  // A lone surrogate: protobuf-es writes it as U+FFFD, the field would arrive changed.
  if (
    (typeof v === type && !/\p{Cs}/u.test(v as string)) ||
    (v === undefined && fallback !== undefined)
  ) {
    return (v ?? fallback) as InitTypes[K];
  }
  throw new StructJsonError("message-invalid", `/${key}`, `not a valid ${type}`);
}

/** Throws `message-invalid` unless `message` is an object (a message's fields are read from it). */
export function checkMessage(message: unknown, name: string): asserts message is object {
  if (typeof message !== "object" || message === null) {
    throw new StructJsonError("message-invalid", "", `expected a ${name} message`);
  }
}

/** The repair's text, or a StructJsonError for its first issue (paths and keywords, never values). */
function repairedOrThrown(
  repair: ArgumentsRepair,
  text: string,
  inputSchema: JsonSchema | null | undefined,
  { onDiagnostic, recursionLimit }: ToolCallToJsonOptions,
): string {
  // The decoder's nesting limit, so that arguments it read are read by repair too.
  const result = repair(text, inputSchema, { onDiagnostic, recursionLimit });
  if (result.ok) return result.argumentsJson;
  const first = result.issues[0] ?? { path: "", keyword: "schema-invalid" };
  const own = inputCodes.find((c) => c === first.keyword);
  const listed = result.issues
    .slice(0, 10)
    .map((i) => `${i.path === "" ? "(root)" : i.path} ${i.keyword}`)
    .join(", ");
  const more = result.issues.length > 10 ? `, and ${result.issues.length - 10} more` : "";
  throw new StructJsonError(
    own ?? "arguments-rejected",
    first.path,
    `arguments fail the tool's input schema with no single repair: ${listed}${more}`,
  );
}

/** The codes a rejection can name for the input itself (not a schema keyword): thrown as they are. */
const inputCodes = [
  "invalid-json",
  "not-an-object",
  "duplicate-key",
  "number-out-of-range",
  "recursion-limit",
  "schema-invalid",
] as const;

/**
 * The shared decoding path of tool calls and tool results (options resolved
 * by the caller). `struct` undefined: the message carries no Struct (a result
 * without structured content), so only a raw text trusted as it is can be
 * returned; whatever needs the Struct throws `message-invalid`.
 */
export function argumentsText(
  struct: JsonObject | undefined,
  raw: string | undefined,
  schema: JsonSchema | CompiledSchema | null | undefined,
  options: StructToJsonOptions & { readonly rawJson: RawJsonMode },
): string {
  const mode = options.rawJson;
  checkOneOf("rawJson", mode, ["verify", "trust", "ignore"]);
  if (raw !== undefined && mode !== "ignore") {
    // The decoder's options, and whether the schema is one, are checked
    // before the raw text is read, as when it is absent: a bad option or a
    // non-schema throws whatever the message carries.
    resolveToJsonOptions(options);
    if (schema != null && !isSchema(schema)) rootNode(schema);
    if (typeof raw !== "string") {
      // A forged message: no text to pass on, or to read.
      options.onDiagnostic({ code: "raw-json-invalid", path: "" });
    } else if (mode === "trust") {
      // Canonical output (RFC 8785) writes each number in its float64's
      // ECMAScript form, which the Struct holds: a text that agrees with it
      // canonicalizes to the Struct's canonical text, so that text is returned
      // (in "verify", the raw text verified first, as without the option).
      // Never the raw text itself: a caller hashing canonical output must get
      // one text per value.
      if (!options.canonical) return raw;
    } else if (
      verifyRawJson(
        raw,
        theStruct(struct),
        // Canonical output is the Struct's: its diagnostics are the Struct
        // path's alone (the text's own, and the schema's notes, would come twice).
        options.canonical ? null : schema,
        options.recursionLimit,
        options.onDiagnostic,
        options.patterns,
      ) &&
      !options.canonical
    )
      return raw;
  }
  return structToJson(theStruct(struct), schema, options);
}

/**
 * The message's Struct: `message-invalid` when it has none (never an invented
 * `{}`), `not-an-object` when a forged message holds something else (as the
 * Struct path says, whether or not a raw text is beside it).
 */
function theStruct(struct: JsonObject | undefined): JsonObject {
  if (struct === undefined) {
    throw new StructJsonError("message-invalid", "", "the message carries no Struct");
  }
  checkJsonObject(struct);
  return struct;
}
