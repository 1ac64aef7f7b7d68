// What the exact server transports do with each incoming message before the
// SDK's server sees it: a tools/call request keeps its arguments' exact text
// beside the parsed arguments, and a call whose arguments hold a number that a
// JavaScript number would change is refused (JSON-RPC -32602 naming the path)
// unless its tool reads exact numbers through exactToolHandler.

import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { invalidOption, makeOptions } from "../../options.js";
import { type MemberTextReader, memberTextReader } from "../json-span.js";
import { type NumberLoss, numberLosses, suspectNumbers } from "./number-loss.js";

/** The `_meta` key of a tools/call request under which the exact server transports put the arguments' exact JSON text. */
export const ARGUMENTS_JSON_META_KEY = "struct-json-bridge/argumentsJson";

// Marks the texts as put there by this transport (a client cannot know the value).
const NONCE_META_KEY = "struct-json-bridge/argumentsJsonNonce";

// The `_meta` object's own exact text, from the gate's reading before the
// SDK's to its decision after (never handed on).
const META_JSON_KEY = "struct-json-bridge/metaJson";

/**
 * The one member of a tools/call's arguments that the SDK's server never hands
 * on: zod drops an own `__proto__` member of the arguments object (and of
 * every object its schemas read), so the exact text would hold a member the
 * validated arguments lack.
 */
const DROPPED_MEMBER = "__proto__";

// Each `_meta` object a gate admitted with its exact text, and that text. The
// SDK hands a handler this very object (`extra._meta`): a string under the key
// in any other object (a client's own, behind a transport with no gate) is not
// trusted, whatever it says. One table per process, not per copy of this
// module: an app may load the transport through `require` and the handler
// through `import` (two builds), or hold two copies of the package.
const vetted: WeakMap<object, string> = sharedTable(
  Symbol.for("struct-json-bridge/vettedArgumentsJson"),
);

function sharedTable(key: symbol): WeakMap<object, string> {
  const holder = globalThis as { [k: symbol]: unknown };
  const existing = holder[key];
  if (existing instanceof WeakMap) return existing as WeakMap<object, string>;
  const table = new WeakMap<object, string>();
  // Not enumerable, not writable: code that copies globalThis or assigns over it does not replace the table.
  Object.defineProperty(holder, key, { value: table });
  return table;
}

/**
 * The arguments' exact text a gate admitted in `meta`, provided `meta` is that
 * very object and still holds that text under {@link ARGUMENTS_JSON_META_KEY}.
 */
export function vettedArgumentsJson(meta: unknown): string | undefined {
  if (meta === null || typeof meta !== "object") return undefined;
  const text = vetted.get(meta);
  return text !== undefined && (meta as JsonRecord)[ARGUMENTS_JSON_META_KEY] === text
    ? text
    : undefined;
}

/** The most losses named in one refusal's `data`, and the most path characters beyond the first. */
const MAX_REPORTED_LOSSES = 100;
const MAX_REPORTED_PATH_CHARS = 65_536;

/** Options shared by the exact server transports. */
export interface ExactServerOptions {
  /**
   * The tools whose handlers take exact numbers (wrapped in `exactToolHandler`):
   * their calls are passed on with integers beyond 2^53 intact for the handler
   * to read as `bigint` or text. A call of any other tool whose arguments hold
   * such an integer is refused with JSON-RPC -32602. Names, or a predicate.
   * Default: none.
   */
  exactTools: readonly string[] | ((toolName: string) => boolean);
}

const serverDefaults: Readonly<ExactServerOptions> = Object.freeze({ exactTools: [] });

const isString = (value: unknown): value is string => typeof value === "string";

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The losses a refusal names: bounded in count and in path characters, so a deep text cannot make it huge. */
function reported<Code extends string>(
  losses: readonly { readonly code: Code; readonly path: string }[],
): { code: Code; path: string }[] {
  const out: { code: Code; path: string }[] = [];
  let chars = 0;
  for (const { code, path } of losses.slice(0, MAX_REPORTED_LOSSES)) {
    chars += path.length;
    if (out.length > 0 && chars > MAX_REPORTED_PATH_CHARS) break;
    out.push({ code, path });
  }
  return out;
}

/** Why the gate refuses a tools/call: a number a JavaScript number would change, or a member the SDK drops. */
export type RefusalCode = NumberLoss["code"] | "member-dropped";

/** Where a refusal's paths point: into the arguments (default) or into the request's `_meta`. */
export type RefusalMember = "arguments" | "_meta";

const DETAILS: Readonly<Record<RefusalCode, string>> = {
  "number-out-of-range": "the number is beyond what a JavaScript number holds",
  "integer-precision-lost":
    "the integer cannot be held exactly by a JavaScript number, and this tool does not take exact integers",
  "member-dropped":
    "the SDK's server drops a member named __proto__ from the arguments, so the tool would not see what was sent",
};

const META_INTEGER_DETAIL =
  "the integer cannot be held exactly by a JavaScript number, and _meta reaches every handler as JavaScript numbers";

/**
 * The JSON-RPC -32602 response refusing request `id` for `losses` (all of one
 * kind, paths into `member`). Paths into `_meta` are marked as such in the
 * message and in each error (`member: "_meta"`), so that an argument named
 * `_meta` cannot be mistaken for the request's.
 */
export function refusal(
  id: string | number,
  losses: readonly { readonly code: RefusalCode; readonly path: string }[],
  member: RefusalMember = "arguments",
): JSONRPCErrorResponse {
  const first = losses[0]!;
  const inMeta = member === "_meta";
  const where = `${first.path === "" ? "(root)" : first.path}${inMeta ? " of _meta" : ""}`;
  const detail =
    inMeta && first.code === "integer-precision-lost" ? META_INTEGER_DETAIL : DETAILS[first.code];
  const errors = reported(losses).map((error) => (inMeta ? { ...error, member } : error));
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: -32602,
      message: `Invalid params: ${first.code} at ${where}: ${detail}`,
      data: { errors },
    },
  };
}

/** A transport's `onmessage`. */
export type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/** The exact transports' per-connection gate. */
export class RequestGate {
  private readonly nonce = globalThis.crypto.randomUUID();
  private readonly exactTool: (toolName: string) => boolean;

  constructor(options: Partial<ExactServerOptions> | undefined) {
    const { exactTools } = makeOptions(serverDefaults, options, (o) => {
      // A string would pass as a list (`"get_order".includes("get")`): refused, as is anything else.
      const names = o.exactTools;
      if (typeof names !== "function" && !(Array.isArray(names) && names.every(isString)))
        invalidOption("exactTools", "must be a list of tool names or a predicate");
    });
    if (typeof exactTools === "function") this.exactTool = exactTools;
    else {
      const names = new Set(exactTools);
      this.exactTool = (name) => names.has(name);
    }
  }

  /**
   * Before the SDK validates `message` (parsed from `text`; `at` locates it in
   * a batch, `read` cuts from `text`): a tools/call request gets its
   * arguments' exact text in `params._meta`, and any value a client put under
   * our keys is dropped.
   */
  annotate(
    message: unknown,
    text: string,
    at: readonly (string | number)[] = [],
    read: MemberTextReader = memberTextReader(text),
  ): void {
    if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params)) return;
    const params = message.params;
    if (params._meta !== undefined && !isRecord(params._meta)) return; // the SDK rejects it
    const meta: JsonRecord = { ...params._meta };
    delete meta[ARGUMENTS_JSON_META_KEY];
    delete meta[NONCE_META_KEY];
    delete meta[META_JSON_KEY];
    const argumentsText = isRecord(params.arguments)
      ? read([...at, "params", "arguments"])
      : undefined;
    const metaText = isRecord(params._meta) ? read([...at, "params", "_meta"]) : undefined;
    if (argumentsText !== undefined) meta[ARGUMENTS_JSON_META_KEY] = argumentsText;
    if (metaText !== undefined) meta[META_JSON_KEY] = metaText;
    if (argumentsText !== undefined || metaText !== undefined) meta[NONCE_META_KEY] = this.nonce;
    if (params._meta !== undefined || argumentsText !== undefined) params._meta = meta;
  }

  /** `handler` behind the gate: a refused message is answered with `refuse`, never handed on. */
  guard(
    handler: MessageHandler | undefined,
    refuse: (response: JSONRPCErrorResponse) => void,
  ): MessageHandler | undefined {
    if (handler === undefined) return undefined;
    return (message, extra) => {
      const refused = this.admit(message);
      if (refused === undefined) handler(message, extra);
      else refuse(refused);
    };
  }

  /** {@link annotate} for a whole HTTP body: one message or a batch. */
  annotateBody(body: unknown, text: string): void {
    // One parse of the body for the whole batch: a parse per call would make
    // a body of n calls cost n parses of it (quadratic: minutes for 4 MB).
    const read = memberTextReader(text);
    if (!Array.isArray(body)) this.annotate(body, text, [], read);
    else for (const [i, message] of body.entries()) this.annotate(message, text, [i], read);
  }

  /**
   * After the SDK validated `message`, before its server sees it: the refusal
   * to send instead, or undefined to pass the message on. Exact text this gate
   * did not put there is removed; without it, a big integer cannot be trusted.
   * The `_meta` object holding the text this gate put there is recorded: only
   * there does `exactArgumentsJson` read it.
   */
  admit(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
    if (!("method" in message) || message.method !== "tools/call" || !("id" in message))
      return undefined;
    const params = message.params;
    if (!isRecord(params)) return undefined;
    const meta = params._meta;
    let exactText: string | undefined;
    let metaText: string | undefined;
    if (isRecord(meta)) {
      const ours = meta[NONCE_META_KEY] === this.nonce;
      const text = meta[ARGUMENTS_JSON_META_KEY];
      if (ours && typeof text === "string") exactText = text;
      else delete meta[ARGUMENTS_JSON_META_KEY];
      const ownText = meta[META_JSON_KEY];
      if (ours && typeof ownText === "string") metaText = ownText;
      delete meta[META_JSON_KEY];
      delete meta[NONCE_META_KEY];
      // The object the SDK will hand the handler as `extra._meta` (a refused call never reaches one).
      if (exactText !== undefined) vetted.set(meta, exactText);
      else vetted.delete(meta);
    }
    const name = typeof params.name === "string" ? params.name : "";
    let losses: NumberLoss[];
    if (exactText !== undefined) {
      losses = numberLosses(exactText, MAX_REPORTED_LOSSES);
      if (this.exactTool(name))
        losses = losses.filter((loss) => loss.code !== "integer-precision-lost");
    } else {
      losses = suspectNumbers(params.arguments, MAX_REPORTED_LOSSES);
    }
    if (losses.length > 0) return refusal(message.id, losses);
    // The parsed arguments (JSON.parse keeps an own __proto__, however spelled) hold what the SDK will drop.
    if (isRecord(params.arguments) && Object.hasOwn(params.arguments, DROPPED_MEMBER)) {
      return refusal(message.id, [{ code: "member-dropped", path: `/${DROPPED_MEMBER}` }]);
    }
    // `_meta` reaches the handler as JSON.parse read it, for every tool: a
    // number it changed is refused (the SDK itself refuses a progressToken
    // beyond 2^53, before any gate runs).
    const metaLosses = !isRecord(meta)
      ? []
      : metaText !== undefined
        ? numberLosses(metaText, MAX_REPORTED_LOSSES)
        : suspectNumbers(meta, MAX_REPORTED_LOSSES);
    return metaLosses.length === 0 ? undefined : refusal(message.id, metaLosses, "_meta");
  }
}
