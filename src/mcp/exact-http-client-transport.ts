// The SDK's StreamableHTTPClientTransport reads every response with
// JSON.parse (a JSON body or each SSE event's data) and writes each request
// with JSON.stringify. This transport IS the SDK's (a subclass: the same
// session, SSE, reconnection, auth and error handling), given a fetch that
// (a) puts the exact JSON text of each message in the request body, and
// (b) records, in every response message, the exact text of a tool result's
// structuredContent before the SDK parses it.

import {
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mediaTypeEssence } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { RawText } from "../struct/exact-number-text.js";
import { writeJsonText } from "../struct/json-text-writer.js";
import { setOwnProperty } from "../struct/own-property.js";
import { serializeExactMessage } from "./exact-number.js";
import { recordStructuredContentText, STRUCTURED_CONTENT_JSON_META_KEY } from "./exact-result.js";
import { memberTextReader } from "./json-span.js";

/** True for a result holding structuredContent, or a value under our `_meta` key, to record or drop. */
function mayHoldResult(message: unknown): boolean {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(message) || !isObject(message.result)) return false;
  const { result } = message;
  return (
    Object.hasOwn(result, "structuredContent") ||
    (isObject(result._meta) && Object.hasOwn(result._meta, STRUCTURED_CONTENT_JSON_META_KEY))
  );
}

/** The JSON text of `message` with each result's structuredContent text recorded; `text` when nothing changes. */
export function exactResponseText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text; // The SDK reports it, as it would have.
  }
  // Cheap test first: most messages are not tool results. Asked of the parsed
  // value, not the text: a key may be spelled with escapes
  // ("structured\u0043ontent"), and a server's own value under our key must be
  // dropped however it is spelled.
  if (!(Array.isArray(parsed) ? parsed.some(mayHoldResult) : mayHoldResult(parsed))) return text;
  if (Array.isArray(parsed)) {
    // One parse of the text for the whole batch (a parse per message would be quadratic).
    const read = memberTextReader(text);
    for (const [i, m] of parsed.entries()) recordStructuredContentText(m, text, [i], read);
  } else recordStructuredContentText(parsed, text);
  return jsonTextOf(parsed);
}

/**
 * JSON text that JSON.parse reads as `value` (a value JSON.parse produced,
 * then annotated). JSON.stringify would write -0 as 0 and ±Infinity (from
 * 1e400) as null, changing what the SDK reads, and cannot go deeper than its
 * stack (where handing on the text as it came would keep a server's own claim
 * under our key): those messages are written by the iterative writer.
 */
function jsonTextOf(value: unknown): string {
  const holder = { value };
  let special = false;
  const stack: object[] = [holder];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    for (const key of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[key];
      if (typeof child === "number") {
        const text = Object.is(child, -0)
          ? "-0"
          : child === Number.POSITIVE_INFINITY
            ? "1e400"
            : child === Number.NEGATIVE_INFINITY
              ? "-1e400"
              : undefined;
        if (text !== undefined) {
          setOwnProperty(v, key, new RawText(text));
          special = true;
        }
      } else if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  if (!special) {
    try {
      return JSON.stringify(holder.value);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error; // deeper than JSON.stringify's stack
    }
  }
  return writeJsonText(holder.value, "", false);
}

/** A UTF-8 BOM read as Latin-1, which the SDK's SSE parser drops from the start of a stream. */
const LATIN1_BOM = "\u00ef\u00bb\u00bf";

/**
 * Rewrites an SSE byte stream: each event's data is passed through
 * {@link exactResponseText}; every other line is passed on unchanged (line ends
 * become LF, which SSE reads alike). What the SDK never reads at the end of the
 * stream (an unfinished event, a line without its end) is never read here.
 */
export function exactEventStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  let waiting: string[] = [];
  let data: string[] = [];
  const lineOut = (line: string, out: string[]): void => {
    if (line === "") {
      if (data.length > 0) {
        const joined = data.join("\n");
        const exact = exactResponseText(joined);
        if (exact === joined) for (const d of data) out.push(`data: ${d}\n`);
        else out.push(`data: ${exact}\n`);
        data = [];
      }
      out.push("\n");
      return;
    }
    if (line.startsWith("data:")) {
      data.push(line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5));
      return;
    }
    if (line === "data") {
      data.push(""); // a field without a colon: an empty data line, in its place
      return;
    }
    out.push(`${line}\n`);
  };
  // Read as the SDK reads (TextDecoderStream, then eventsource-parser), and
  // written so that it reads what this reading saw: its parser drops "ï»¿" (a
  // BOM read as Latin-1) from the first text its decoder gives it, has no
  // flush (an unterminated last line, a final CR included, is never read),
  // and its decoder drops a BOM at the start of what is written here.
  let started = false;
  let wrote = false;
  const text = (decoded: string): string => {
    if (started || decoded === "") return decoded;
    started = true;
    return decoded.startsWith(LATIN1_BOM) ? decoded.slice(LATIN1_BOM.length) : decoded;
  };
  const write = (out: string, controller: TransformStreamDefaultController<Uint8Array>): void => {
    if (out === "") return;
    // A comment line first, so that neither drops what this reading kept.
    const first = !wrote && (out.startsWith("\ufeff") || out.startsWith(LATIN1_BOM));
    wrote = true;
    controller.enqueue(encoder.encode(first ? `:\n${out}` : out));
  };
  const drain = (): string => {
    const out: string[] = [];
    let start = 0;
    for (let i = 0; i < pending.length; i++) {
      const c = pending.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      // A CR at the very end may be the first half of CRLF: wait for more (at the end too: see above).
      if (c === 0x0d && i === pending.length - 1) break;
      lineOut(pending.slice(start, i), out);
      if (c === 0x0d && pending.charCodeAt(i + 1) === 0x0a) i++;
      start = i + 1;
    }
    pending = pending.slice(start);
    return out.join("");
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const decoded = text(decoder.decode(chunk, { stream: true }));
        // Text without a line end waits, unread (as eventsource-parser's does):
        // scanning the whole unfinished line again for each chunk of a long
        // event would be quadratic (seconds for 4 MB in 8 KB chunks).
        if (decoded.indexOf("\n") === -1 && decoded.indexOf("\r") === -1) {
          waiting.push(decoded);
          return;
        }
        pending += waiting.join("") + decoded;
        waiting = [];
        write(drain(), controller);
      },
      flush(controller) {
        // What the SDK's parser never reads (it has no flush): an unfinished
        // event, and a last line without its end. Passed on, save the text
        // after a CR that ends the last chunk read: there, the SDK would read
        // the CR as a line end (and dispatch an event it never reads).
        const tail = waiting.join("") + text(decoder.decode());
        const last = pending.endsWith("\r") ? pending : pending + tail;
        write(data.map((d) => `data: ${d}\n`).join("") + last, controller);
        data = [];
        waiting = [];
        pending = "";
      },
    }),
  );
}

/**
 * A response like `response` whose JSON or SSE body goes through the exact
 * readers, read as the SDK reads it: a GET's body is always an SSE stream (the
 * SDK does not look at its content type), a POST's by its content type. A JSON
 * body is read only when the SDK reads it (it cancels the body of an answer to
 * a notification, which may never end).
 */
function exactResponse(response: Response, method: string | undefined): Response {
  if (!response.ok || response.body === null) return response;
  const type =
    method?.toUpperCase() === "GET"
      ? "text/event-stream"
      : mediaTypeEssence(response.headers.get("content-type"));
  if (type !== "application/json" && type !== "text/event-stream") return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  const init = { status: response.status, statusText: response.statusText, headers };
  if (type === "text/event-stream") return new Response(exactEventStream(response.body), init);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Decoded as the SDK's reader (response.json()) decodes, BOMs dropped
        // as it drops them; passed on byte for byte when nothing changes, so
        // that the SDK's reader drops them again, no more.
        const bytes = new Uint8Array(await response.arrayBuffer());
        const text = await new Response(bytes).text();
        const exact = exactResponseText(text);
        controller.enqueue(exact === text ? bytes : new TextEncoder().encode(exact));
        controller.close();
      },
      // (Once the SDK reads, it never cancels: a body being read is left to its reader.)
      cancel: (reason) => (response.bodyUsed ? undefined : response.body?.cancel(reason)),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, init);
}

/** Only the MCP endpoint's own requests accept an event stream; OAuth requests are left alone. */
function isMcpRequest(init: RequestInit | undefined): boolean {
  return new Headers(init?.headers).get("accept")?.includes("text/event-stream") === true;
}

const standIns = new WeakMap<object, JSONRPCMessage>();

/**
 * A drop-in replacement for the SDK's `StreamableHTTPClientTransport` (a
 * subclass, same constructor and behaviour): requests carry exact numbers
 * from `toolCallArguments` (and `bigint`s) on every Node version, and each
 * tool result's exact structuredContent text is recorded (see
 * `structuredContentJson`). A `fetch` given in the options is still used.
 */
export class ExactStreamableHTTPClientTransport extends StreamableHTTPClientTransport {
  /** Request bodies to send instead of a stand-in's JSON text, by that text. */
  private readonly exactBodies: Map<string, string>;

  constructor(url: URL, options?: StreamableHTTPClientTransportOptions) {
    const exactBodies = new Map<string, string>();
    const base: FetchLike | undefined = options?.fetch;
    const exactFetch: FetchLike = async (url, init) => {
      const body = init?.body;
      const exact = typeof body === "string" ? exactBodies.get(body) : undefined;
      const response = await (base ?? fetch)(
        url,
        exact === undefined ? init : { ...init, body: exact },
      );
      return isMcpRequest(init) ? exactResponse(response, init?.method) : response;
    };
    super(url, { ...options, fetch: exactFetch });
    this.exactBodies = exactBodies;
  }

  /**
   * Sends a message as the SDK does; its body is the message's exact JSON text.
   * (The SDK serializes with JSON.stringify after an await, so the message is
   * handed on as a stand-in whose JSON text names the exact body.)
   */
  override async send(
    message: JSONRPCMessage,
    options?: Parameters<StreamableHTTPClientTransport["send"]>[1],
  ): Promise<void> {
    const original = standIns.get(message) ?? message;
    let exact: string;
    try {
      exact = serializeExactMessage(original);
    } catch (error) {
      // Where the SDK's send fails to serialize: reported through onerror, then thrown.
      this.onerror?.(error as Error);
      throw error;
    }
    const key = JSON.stringify(`struct-json-bridge/exact-body/${globalThis.crypto.randomUUID()}`);
    // A batch stays an array: the SDK looks for requests in it.
    const copy = Array.isArray(original) ? [...(original as unknown[])] : { ...original };
    const standIn = Object.defineProperty(copy, "toJSON", {
      value: () => JSON.parse(key) as string,
      enumerable: false,
    }) as unknown as JSONRPCMessage;
    standIns.set(standIn, original);
    this.exactBodies.set(key, exact);
    try {
      await super.send(standIn, options);
    } finally {
      this.exactBodies.delete(key);
    }
  }
}
