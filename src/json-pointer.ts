/** An RFC 6901 JSON Pointer ("" is the whole document, "/a/0" a member's element). */
export type JsonPointer = string;

/** Escapes one reference token: "~" becomes "~0" and "/" becomes "~1" (RFC 6901 §3). */
export function escapePointerToken(token: string): string {
  if (token.indexOf("~") === -1 && token.indexOf("/") === -1) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Undoes {@link escapePointerToken}: "~1" becomes "/" and "~0" becomes "~" (RFC 6901 §4). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Appends an object key or array index to a pointer. */
export function pointerAppend(pointer: JsonPointer, token: string | number): JsonPointer {
  return `${pointer}/${typeof token === "number" ? token : escapePointerToken(token)}`;
}

/** Joins reference tokens into a pointer. */
export function pointerFrom(tokens: readonly (string | number)[]): JsonPointer {
  let out = "";
  for (const t of tokens) out = pointerAppend(out, t);
  return out;
}

/**
 * Splits a pointer into its unescaped reference tokens; undefined when the text
 * is not a pointer (it must be empty or start with "/", and "~" must be followed
 * by "0" or "1").
 */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (pointer[0] !== "/") return undefined;
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (/~(?![01])/.test(t)) return undefined;
    tokens[i] = unescapePointerToken(t);
  }
  return tokens;
}
