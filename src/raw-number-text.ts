// Getting number texts that JSON.stringify cannot produce (`1.0`, the exact
// digits of 2**60) into its output without giving up its native speed.

/** Collects number texts during a walk and turns the walked value into JSON text. */
export interface RawTextSink {
  /** A stand-in for `text` to put in the walked value. */
  text(text: string): unknown;
  /** The JSON text of `value`; undefined when the stand-ins could not be told apart from the data. */
  finish(value: unknown, indent: number | string): string | undefined;
}

type RawJsonFn = (text: string) => unknown;
const nativeRawJson: RawJsonFn | undefined = (JSON as unknown as { rawJSON?: RawJsonFn }).rawJSON;

const nativeSink: RawTextSink = {
  text: (text) => nativeRawJson!(text),
  finish: (value, indent) => JSON.stringify(value, null, indent),
};

/** Uses `JSON.rawJSON` (Node ≥ 21, recent browsers); undefined where the runtime lacks it. */
export function rawTextNative(): RawTextSink | undefined {
  return nativeRawJson === undefined ? undefined : nativeSink;
}

// A marker is the string "\u0080" + index. U+0080 (a C1 control) is written
// by JSON.stringify as itself, so markers stay on its fast path and keep
// Latin-1 output one-byte; and `"\u0080` (quote, U+0080) can only arise from
// a string that starts with it: one of our markers, or a data string that
// happens to look like one. JSON.stringify visits values in the order the walk
// created them, so the markers appear in index order; any occurrence that is
// not the next marker, or one too many, means a look-alike, and the caller
// falls back to the slow path (exactly one occurrence per marker proves there
// was none).
const MARKER_CHAR = "\u0080";
const MARKER_START = `"${MARKER_CHAR}`;

/** Marker strings swapped for their texts after `JSON.stringify` (runtimes without `JSON.rawJSON`). */
export function rawTextMarkers(): RawTextSink {
  const texts: string[] = [];
  return {
    text(text) {
      texts.push(text);
      return `${MARKER_CHAR}${texts.length - 1}`;
    },
    finish(value, indent) {
      const json = JSON.stringify(value, null, indent);
      const n = texts.length;
      if (n === 0) return json;
      // Marker k must be the next occurrence, whole (`"\uE000k"`); any other
      // occurrence, or one more after the last, means a data string looked like
      // a marker. String concatenation builds a rope: far cheaper here than
      // split/join or an array of parts (measured on a 5 MB row set).
      let out = "";
      let from = 0;
      const skip = MARKER_START.length;
      for (let k = 0; k < n; k++) {
        const at = json.indexOf(MARKER_START, from);
        if (at === -1) return undefined;
        const tail = `${k}"`;
        if (!json.startsWith(tail, at + skip)) return undefined;
        out += json.slice(from, at) + texts[k];
        from = at + skip + tail.length;
      }
      if (json.indexOf(MARKER_START, from) !== -1) return undefined;
      return out + json.slice(from);
    },
  };
}

/** A number's text, as written by {@link writeJsonText}. */
export class RawText {
  constructor(readonly text: string) {}
}

/** Stand-ins that only {@link writeJsonText} understands (the slow, always-correct path). */
export function rawTextObjects(): RawTextSink {
  return {
    text: (text) => new RawText(text),
    finish: (value, indent) =>
      writeJsonText(value, typeof indent === "number" ? " ".repeat(indent) : indent, false),
  };
}

/**
 * Writes a walked value as JSON text: strings and numbers exactly as
 * JSON.stringify does, {@link RawText} as its text, keys in order or sorted by
 * UTF-16 code units (RFC 8785), indented like JSON.stringify when `indent` is set.
 */
export function writeJsonText(value: unknown, indent: string, sortKeys: boolean): string {
  const parts: string[] = [];
  write(value, parts, indent, "\n", sortKeys);
  return parts.join("");
}

function write(v: unknown, out: string[], indent: string, nl: string, sortKeys: boolean): void {
  if (v === null || typeof v !== "object") {
    out.push(JSON.stringify(v) ?? "null");
    return;
  }
  if (v instanceof RawText) {
    out.push(v.text);
    return;
  }
  const inner = indent === "" ? "" : nl + indent;
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push("[]");
      return;
    }
    out.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(",");
      out.push(inner);
      write(v[i], out, indent, inner, sortKeys);
    }
    out.push(indent === "" ? "]" : `${nl}]`);
    return;
  }
  const keys = Object.keys(v);
  if (sortKeys) keys.sort();
  if (keys.length === 0) {
    out.push("{}");
    return;
  }
  out.push("{");
  const colon = indent === "" ? ":" : ": ";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out.push(",");
    out.push(inner, JSON.stringify(k), colon);
    write((v as Record<string, unknown>)[k], out, indent, inner, sortKeys);
  }
  out.push(indent === "" ? "}" : `${nl}}`);
}
