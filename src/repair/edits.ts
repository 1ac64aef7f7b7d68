// Repairs as edits of the argument text: everything an edit does not touch
// keeps its bytes (key order, number texts, string escapes, whitespace).

import type { ObjectNode } from "./json-tree.js";

/** A change to the text: drop a member of an object, or replace a span. */
export type Edit =
  | { readonly type: "omit"; readonly object: ObjectNode; readonly index: number }
  | {
      readonly type: "replace";
      readonly start: number;
      readonly end: number;
      readonly text: string;
    };

/**
 * Applies edits to `text`. Edits never overlap: each is at a distinct failing
 * leaf, and dropping members only removes text between values.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const spans: { start: number; end: number; text: string }[] = [];
  const omitted = new Map<ObjectNode, Set<number>>();
  for (const e of edits) {
    if (e.type === "replace") {
      spans.push(e);
    } else {
      let set = omitted.get(e.object);
      if (set === undefined) {
        set = new Set();
        omitted.set(e.object, set);
      }
      set.add(e.index);
    }
  }
  for (const [object, drop] of omitted) {
    const m = object.members;
    const n = m.length;
    for (let i = 0; i < n; ) {
      if (!drop.has(i)) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < n && drop.has(j + 1)) j++;
      if (i > 0) {
        // Kept member before: remove from its value's end (takes the comma before).
        spans.push({ start: m[i - 1]!.value.end, end: m[j]!.value.end, text: "" });
      } else if (j + 1 < n) {
        // First members: remove up to the next kept key (takes the comma after).
        spans.push({ start: m[i]!.keyStart, end: m[j + 1]!.keyStart, text: "" });
      } else {
        spans.push({ start: m[0]!.keyStart, end: m[n - 1]!.value.end, text: "" });
      }
      i = j + 1;
    }
  }
  spans.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + text.slice(at);
}
