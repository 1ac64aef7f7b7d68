// Positions as the nodes of a tree of JSON Pointer segments, so that repair
// keeps and compares positions by node (object identity), never by pointer
// string. V8 hashes a string past 16,383 characters by its length alone: the
// pointers under one long key (`/<key>/0`, `/<key>/1`, ...) all collided in a
// Map or Set keyed by them (2,000 items under a 20,000-character key took 4 s
// to repair and 8 s to reject, quadratic in the count). In the tree, the long
// key is one segment, held once by its parent.

import type { JsonPointer } from "../json-pointer.js";
import type { Failure } from "./validator.js";

/** One position; two pointers have the same position exactly when they are equal strings. */
export interface Position {
  /** The position of the pointer up to its last "/" (undefined for ""). */
  readonly parent: Position | undefined;
  /** The positions one segment further, by their segment as the pointer writes it (escaped). */
  children: Map<string, Position> | undefined;
}

/**
 * The positions of one repair call. A pointer is read segment by segment as
 * it is written (split at "/", never unescaped), so equal positions are
 * exactly equal strings, whatever the escaping. Reading one costs its length.
 */
export class Positions {
  // Above "" (not a position): a pointer's first segment is "" ("/a" is "" then "a").
  private readonly top: Position = { parent: undefined, children: undefined };

  /** The position of `pointer`, made if new. */
  of(pointer: JsonPointer): Position {
    let at = this.top;
    let start = 0;
    for (;;) {
      const slash = pointer.indexOf("/", start);
      const segment = slash === -1 ? pointer.slice(start) : pointer.slice(start, slash);
      let next = at.children?.get(segment);
      if (next === undefined) {
        next = { parent: at === this.top ? undefined : at, children: undefined };
        at.children ??= new Map();
        at.children.set(segment, next);
      }
      at = next;
      if (slash === -1) return at;
      start = slash + 1;
    }
  }

  /** The position of `pointer` if it was made, else undefined. */
  find(pointer: JsonPointer): Position | undefined {
    let at: Position | undefined = this.top;
    let start = 0;
    for (;;) {
      const slash = pointer.indexOf("/", start);
      const segment = slash === -1 ? pointer.slice(start) : pointer.slice(start, slash);
      at = at.children?.get(segment);
      if (at === undefined || slash === -1) return at;
      start = slash + 1;
    }
  }

  /** The position one `segment` (escaped, as in a pointer) below `at`, if it was made. */
  child(at: Position, segment: string): Position | undefined {
    return at.children?.get(segment);
  }
}

/** A validation's failures with their positions, grouped by position. */
export class LocatedFailures {
  /** Each failure's position, in the failures' order. */
  readonly at: readonly Position[];
  /** The failures at each position, in their order. */
  readonly byPosition = new Map<Position, Failure[]>();
  /** Every position some failure is strictly below; made when first asked. */
  private above: Set<Position> | undefined;

  constructor(
    readonly list: readonly Failure[],
    positions: Positions,
  ) {
    this.at = list.map((f) => positions.of(f.path));
    list.forEach((f, i) => {
      const p = this.at[i]!;
      const here = this.byPosition.get(p);
      if (here === undefined) this.byPosition.set(p, [f]);
      else here.push(f);
    });
  }

  /** True when some failure's path starts with the pointer of `p` followed by "/". */
  failsBelow(p: Position): boolean {
    if (this.above === undefined) {
      // Each position is added once: a walk up stops at one already added.
      const above = new Set<Position>();
      for (const at of this.byPosition.keys()) {
        for (let q = at.parent; q !== undefined && !above.has(q); q = q.parent) above.add(q);
      }
      this.above = above;
    }
    return this.above.has(p);
  }
}
