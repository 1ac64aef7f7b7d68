// What every provider adapter returns, and the one place where a tool call's
// argument text is assembled from a provider's deltas. The adapters read the
// SDKs' objects by shape, so no provider SDK is imported (each is an optional
// peer dependency) and the adapters run wherever the SDKs run.

import { StructJsonError, type StructJsonErrorCode } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";

/** One tool call as the provider sent it, ready for `toolCallFromJson`. */
export interface ProviderToolCall {
  /**
   * The provider's id for the call (OpenAI Chat `tool_calls[].id`, Responses
   * `call_id`, Anthropic `tool_use.id`): the tool's result goes back under it.
   */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /**
   * The arguments' JSON text exactly as the provider sent it (streamed deltas
   * joined in order), not parsed or checked here: `toolCallFromJson` does that.
   */
  readonly argumentsJson: string;
}

/** The codes the provider adapters throw (listed with every other code in src/codes.ts). */
export type ProviderErrorCode = Extract<
  StructJsonErrorCode,
  "provider-text-unavailable" | "provider-response-invalid"
>;

/** A StructJsonError with a provider code; `path` points into the provider's (assembled) result. */
export function providerError(
  code: ProviderErrorCode,
  path: JsonPointer,
  detail: string,
): StructJsonError {
  return new StructJsonError(code, path, detail);
}

/** True for a stream the SDKs return (`Stream`, `MessageStream`, `ChatCompletionStream`, …). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/**
 * A stream's items, as `for await` gives them, except that an iterator that
 * breaks the protocol (not an object, no `next`, a result that is not an
 * object) is refused with `provider-response-invalid` instead of a TypeError.
 * Left early (an adapter refuses an item), the stream is released through
 * its iterator's `return`, as `for await` does.
 */
export async function* streamItems(stream: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  const iterator = stream[Symbol.asyncIterator]() as Partial<AsyncIterator<unknown>> | null;
  if (typeof iterator !== "object" || iterator === null || typeof iterator.next !== "function") {
    throw providerError("provider-response-invalid", "", "the stream's iterator is not one");
  }
  // True while the consumer holds an item: leaving then (early) closes the
  // iterator, as for-await does; one that ended or failed is not closed.
  let holding = false;
  try {
    for (;;) {
      const result: unknown = await iterator.next();
      if (typeof result !== "object" || result === null) {
        throw providerError(
          "provider-response-invalid",
          "",
          "the stream's iterator gave no result object",
        );
      }
      const { done, value } = result as IteratorResult<unknown>;
      if (done) return;
      holding = true;
      yield value;
      holding = false;
    }
  } finally {
    if (holding && typeof iterator.return === "function") {
      try {
        await iterator.return();
      } catch {
        // As for-await: the adapter's own error is the one to report.
      }
    }
  }
}

/**
 * True for one of the SDKs' helper streams (`ChatCompletionStream`,
 * `ResponseStream`, `MessageStream`: it has the method `finalMethod`) that has
 * emitted events already: it has `ended`, or its getter `snapshot` holds what
 * a first event started. Such a stream's iterator sees only the events
 * emitted after it is made (none once the stream ended: the SDKs' iterators
 * then give nothing, or wait forever), so iterating it would miss calls.
 */
export function helperStreamStarted(
  stream: object,
  finalMethod: string,
  snapshot?: string,
): boolean {
  const helper = stream as Record<string, unknown>;
  if (typeof helper[finalMethod] !== "function") return false;
  if (helper.ended === true) return true;
  return snapshot !== undefined && helper[snapshot] !== undefined && helper[snapshot] !== null;
}

/**
 * `value` when it is an object (not null, not an array); else
 * `provider-response-invalid` at `path`. A result or a stream's item that is
 * not one is not the provider's shape: read as "no tool call" (or skipped,
 * in a stream, where it may have held a piece of a text), it gave a wrong
 * answer silently.
 */
export function expectObject(value: unknown, path: JsonPointer, what: string): object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw providerError("provider-response-invalid", path, `expected ${what}`);
  }
  return value;
}

/** A plain object's property, or undefined for anything else (null, arrays, primitives). */
export function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * `value` when it is an array, else an empty one (absent lists are empty in
 * every provider shape), unless `required`: a result's own list (`choices`,
 * `output`), whose absence says it is not that result (another provider's, or
 * none), which read as "no tool call" gave a wrong answer silently.
 */
export function listField(
  value: unknown,
  key: string,
  path: JsonPointer,
  required = false,
): readonly unknown[] {
  const list = field(value, key);
  if ((list === undefined || list === null) && !required) return [];
  if (!Array.isArray(list)) {
    throw providerError("provider-response-invalid", `${path}/${key}`, "expected an array");
  }
  return list;
}

/** A documented index (of a choice, tool call, output item or content block): a whole number ≥ 0. */
export function indexField(value: unknown, key: string, path: JsonPointer): number {
  const index = field(value, key);
  if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) {
    throw providerError("provider-response-invalid", `${path}/${key}`, "expected an index ≥ 0");
  }
  return index;
}

/**
 * The longest argument text a call may have: the longest string every
 * JavaScript engine holds (V8's, 2^29 − 24 UTF-16 code units). Counted as
 * deltas arrive, so a longer stream stops there with a clear error (not a
 * RangeError at the join, nor memory growing for a stream that never ends).
 */
const MAX_ARGUMENTS_LENGTH = 2 ** 29 - 24;

interface PendingCall {
  id: string | undefined;
  name: string | undefined;
  readonly parts: string[];
  /** The parts' total length. */
  length: number;
  /** Texts the provider says the whole arguments are (a "done" event); each must equal the join. */
  readonly finals: string[];
}

/**
 * Collects tool calls by the provider's index: ids and names as they first
 * appear (a repeat must agree), argument deltas joined in arrival order.
 */
export class ToolCallAssembler {
  private readonly pending = new Map<number, PendingCall | "ignored">();

  /** @param pathOf where the call with this index sits in the provider's assembled result. */
  constructor(private readonly pathOf: (index: number) => JsonPointer) {}

  /** Notes a call's id and name (either may be absent in a delta). */
  identify(index: number, id: unknown, name: unknown): void {
    // A call announced (by its id or name) at an index another kind of item
    // holds: refused, as `ignore` refuses the other order; skipping it, as a
    // continuation of the ignored item, dropped the call silently.
    if (this.pending.get(index) === "ignored" && (isAnnounced(id) || isAnnounced(name))) {
      throw providerError(
        "provider-response-invalid",
        this.pathOf(index),
        "one index holds two kinds of item",
      );
    }
    const call = this.call(index);
    if (call === undefined) return;
    call.id = this.agree(index, "id", call.id, id);
    call.name = this.agree(index, "name", call.name, name);
  }

  /** Marks an index as not a JSON tool call (a custom tool, a server tool): its deltas are skipped. */
  ignore(index: number): void {
    if (this.pending.has(index) && this.pending.get(index) !== "ignored") {
      throw providerError(
        "provider-response-invalid",
        this.pathOf(index),
        "one index holds two kinds of item",
      );
    }
    this.pending.set(index, "ignored");
  }

  /**
   * Refuses a call's text sent to an index another kind of item holds (where
   * only a call's text can be meant): skipped, it dropped a piece silently.
   */
  refuseIfIgnored(index: number): void {
    if (this.pending.get(index) === "ignored") {
      throw providerError(
        "provider-response-invalid",
        this.pathOf(index),
        "argument text for an item that is not a function call",
      );
    }
  }

  /** Appends one delta of the call's argument text. */
  append(index: number, delta: unknown, key: string): void {
    const call = this.call(index);
    if (call === undefined) return;
    const text = this.text(index, delta, key);
    call.length += text.length;
    if (call.length > MAX_ARGUMENTS_LENGTH) {
      throw providerError(
        "provider-response-invalid",
        this.pathOf(index),
        `the call's argument text passes ${MAX_ARGUMENTS_LENGTH} characters, the longest string every JavaScript engine holds`,
      );
    }
    call.parts.push(text);
  }

  /** Records the provider's own whole text for the call, checked against the deltas at the end. */
  final(index: number, text: unknown, key: string): void {
    const call = this.call(index);
    if (call !== undefined && text !== undefined) call.finals.push(this.text(index, text, key));
  }

  private text(index: number, value: unknown, key: string): string {
    if (typeof value === "string") return value;
    const path = `${this.pathOf(index)}/${key}`;
    if (typeof value === "object" && value !== null) {
      // Some OpenAI-compatible servers send the arguments parsed: the text is gone.
      throw providerError(
        "provider-text-unavailable",
        path,
        "the arguments arrived as a parsed object, not as JSON text",
      );
    }
    throw providerError("provider-response-invalid", path, "expected a string");
  }

  /**
   * The calls in index order. `whenNoDeltas` gives the text of a call that
   * streamed no delta (undefined: no text, which throws). `finished` says
   * whether a call ended whole: then an empty text (what OpenAI sends for a
   * tool without parameters) is `{}`, its one reading; a call that may have
   * been cut keeps `""`, which `toolCallFromJson` refuses.
   */
  calls(
    whenNoDeltas: (index: number) => string | undefined = () => undefined,
    finished: (index: number) => boolean = () => false,
  ): ProviderToolCall[] {
    const indexes = [...this.pending.keys()].sort((a, b) => a - b);
    const out: ProviderToolCall[] = [];
    for (const index of indexes) {
      const call = this.pending.get(index)!;
      if (call === "ignored") continue;
      const path = this.pathOf(index);
      if (call.id === undefined || call.name === undefined) {
        throw providerError(
          "provider-response-invalid",
          path,
          `the call has no ${call.id === undefined ? "id" : "name"}`,
        );
      }
      let text: string;
      if (call.parts.length > 0) text = call.parts.join("");
      else {
        const fallback = call.finals[0] ?? whenNoDeltas(index);
        if (fallback === undefined) {
          throw providerError(
            "provider-text-unavailable",
            path,
            "the stream carried no argument text for this call",
          );
        }
        text = fallback;
      }
      if (call.finals.some((f) => f !== text)) {
        throw providerError(
          "provider-response-invalid",
          path,
          "the streamed argument deltas disagree with the stream's final arguments",
        );
      }
      out.push({
        id: call.id,
        name: call.name,
        argumentsJson: text === "" && finished(index) ? "{}" : text,
      });
    }
    return out;
  }

  private call(index: number): PendingCall | undefined {
    let call = this.pending.get(index);
    if (call === "ignored") return undefined;
    if (call === undefined) {
      call = { id: undefined, name: undefined, parts: [], length: 0, finals: [] };
      this.pending.set(index, call);
    }
    return call;
  }

  private agree(
    index: number,
    key: "id" | "name",
    known: string | undefined,
    seen: unknown,
  ): string | undefined {
    // An absent or empty repeat says nothing (some compatible servers send "" after the first delta).
    if (seen === undefined || seen === null || (seen === "" && known !== undefined)) return known;
    if (typeof seen !== "string") {
      throw providerError(
        "provider-response-invalid",
        `${this.pathOf(index)}/${key}`,
        "expected a string",
      );
    }
    if (known !== undefined && known !== seen) {
      throw providerError(
        "provider-response-invalid",
        `${this.pathOf(index)}/${key}`,
        `the stream changes the call's ${key}`,
      );
    }
    return seen;
  }
}

/** An id or a name a delta carries (absent, null and "" say nothing: see `agree`). */
function isAnnounced(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}
