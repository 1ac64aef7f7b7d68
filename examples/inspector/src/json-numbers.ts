// Finds every number literal in a JSON text with its JSON Pointer, so the page
// can mark the exact characters the decoder wrote. The text may be anything
// (rawJson "trust" returns the sender's text unchecked): on malformed input the
// scan stops and reports what it found so far, never throws.

/** One number literal in a JSON text. */
export interface NumberToken {
  /** Offset of its first character. */
  readonly start: number;
  /** Offset just past its last character. */
  readonly end: number;
  /** Where it is, as an RFC 6901 JSON Pointer. */
  readonly path: string;
}

/** Escapes one reference token of a JSON Pointer (RFC 6901 §3). */
export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SPACE = /[ \t\n\r]*/y;

/** Every number literal of `text` with its path; stops quietly at the first syntax error. */
export function numberTokens(text: string): NumberToken[] {
  const out: NumberToken[] = [];
  // One frame per open container: the path to it, and for arrays the next index.
  const stack: { path: string; index: number; isArray: boolean }[] = [];
  let pos = 0;
  let pendingKey: string | undefined;

  const skipSpace = () => {
    SPACE.lastIndex = pos;
    SPACE.exec(text);
    pos = SPACE.lastIndex;
  };
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m === null) return undefined;
    pos = re.lastIndex;
    return m[0];
  };
  /** The path of the value about to be read. */
  const valuePath = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return "";
    if (top.isArray) return `${top.path}/${top.index}`;
    return `${top.path}/${escapeToken(pendingKey ?? "")}`;
  };

  // A small state machine over the grammar: "value" expects a value, "after"
  // expects "," or a closing bracket, "key" expects a member name.
  let expect: "value" | "after" | "key" | "key-or-close" | "value-or-close" = "value";
  for (let steps = 0; steps <= text.length + 1; steps++) {
    skipSpace();
    if (pos >= text.length) break;
    const c = text[pos]!;
    if (expect === "value" || expect === "value-or-close") {
      if (expect === "value-or-close" && c === "]") {
        stack.pop();
        pos++;
        expect = "after";
        continue;
      }
      if (c === "{" || c === "[") {
        stack.push({ path: valuePath(), index: 0, isArray: c === "[" });
        pos++;
        expect = c === "{" ? "key-or-close" : "value-or-close";
        continue;
      }
      const start = pos;
      if (c === "-" || (c >= "0" && c <= "9")) {
        if (match(NUMBER) === undefined) break;
        out.push({ start, end: pos, path: valuePath() });
      } else if (c === '"') {
        if (match(STRING) === undefined) break;
      } else if (text.startsWith("true", pos)) pos += 4;
      else if (text.startsWith("false", pos)) pos += 5;
      else if (text.startsWith("null", pos)) pos += 4;
      else break;
      expect = "after";
      continue;
    }
    if (expect === "key" || expect === "key-or-close") {
      if (expect === "key-or-close" && c === "}") {
        stack.pop();
        pos++;
        expect = "after";
        continue;
      }
      const key = match(STRING);
      if (key === undefined) break;
      pendingKey = JSON.parse(key) as string;
      skipSpace();
      if (text[pos] !== ":") break;
      pos++;
      expect = "value";
      continue;
    }
    // expect === "after"
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    if (c === ",") {
      pos++;
      if (top.isArray) {
        top.index++;
        expect = "value";
      } else expect = "key";
    } else if (c === (top.isArray ? "]" : "}")) {
      stack.pop();
      pos++;
      expect = "after";
    } else break;
  }
  return out;
}
