// `patternProperties` regexes come from untrusted servers, and JavaScript's
// backtracking engine cannot be interrupted, so a pattern is only run when it
// cannot backtrack catastrophically on the keys it is tested against.
//
// Policy:
// - rejected (never matches; `objectScope` notes `schema-too-complex` at the
//   object's position): longer than MAX_PATTERN_LENGTH, a backreference, a
//   repeated group that contains a quantifier or an alternation (`(a+)+`,
//   `(a|aa)*`: exponential), more than three unbounded quantifiers, or not a
//   valid regex (compiled with the `u` flag, else without it);
// - polynomial backtracking is bounded by the key length: a key longer than the
//   pattern's limit (4096 code units with at most one unbounded quantifier, 256
//   with two, 48 with three) is not tested, and that member's position reads
//   as too complex.

/** Longest pattern text run at all. */
export const MAX_PATTERN_LENGTH = 256;

const KEY_LIMITS = [4096, 4096, 256, 48];
const MAX_UNBOUNDED = 3;

/** A pattern judged safe to run. */
export interface SafePattern {
  /** Whether `key` matches; undefined when the key is too long to test safely. */
  test(key: string): boolean | undefined;
}

/** Compiles a `patternProperties` pattern under the policy above; undefined when rejected. */
export function compileSafePattern(source: string): SafePattern | undefined {
  if (source.length > MAX_PATTERN_LENGTH) return undefined;
  const unbounded = countUnboundedIfSafe(source);
  if (unbounded < 0) return undefined;
  const re = compile(source);
  if (re === undefined) return undefined;
  const limit = KEY_LIMITS[unbounded]!;
  return { test: (key) => (key.length > limit ? undefined : re.test(key)) };
}

function compile(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "u");
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return undefined;
    }
  }
}

interface Group {
  quantified: boolean;
  alternation: boolean;
}

/** Number of unbounded quantifiers, or -1 when the pattern is rejected. */
function countUnboundedIfSafe(p: string): number {
  const stack: Group[] = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    let atomEnd = i + 1;
    let closed: Group | undefined;
    if (c === "\\") {
      const n = p[i + 1];
      if (n === undefined) return -1;
      if ((n >= "1" && n <= "9") || n === "k") return -1; // backreference
      atomEnd = i + 2;
      if ((n === "u" || n === "p" || n === "P") && p[i + 2] === "{") {
        const close = p.indexOf("}", i + 3);
        if (close < 0) return -1;
        atomEnd = close + 1;
      }
    } else if (c === "[") {
      let j = i + 1;
      while (j < p.length && p[j] !== "]") j += p[j] === "\\" ? 2 : 1;
      if (j >= p.length) return -1;
      atomEnd = j + 1;
    } else if (c === "(") {
      stack.push({ quantified: false, alternation: false });
      i = p[i + 1] === "?" ? skipGroupPrefix(p, i + 2) : i + 1;
      continue;
    } else if (c === ")") {
      if (stack.length < 2) return -1;
      closed = stack.pop()!;
    } else if (c === "|") {
      stack[stack.length - 1]!.alternation = true;
      i++;
      continue;
    }
    const q = readQuantifier(p, atomEnd);
    const top = stack[stack.length - 1]!;
    if (closed !== undefined) {
      if (q?.repeats && (closed.quantified || closed.alternation)) return -1;
      top.quantified ||= closed.quantified;
      top.alternation ||= closed.alternation;
    }
    if (q !== undefined) {
      top.quantified = true;
      if (q.unbounded && ++unbounded > MAX_UNBOUNDED) return -1;
      i = q.end;
    } else {
      i = atomEnd;
    }
  }
  return stack.length === 1 ? unbounded : -1;
}

function skipGroupPrefix(p: string, i: number): number {
  // (?: (?= (?! (?<= (?<! (?<name>
  if (p[i] === "<" && p[i + 1] !== "=" && p[i + 1] !== "!") {
    const close = p.indexOf(">", i);
    return close < 0 ? p.length : close + 1;
  }
  return p[i] === "<" ? i + 2 : i + 1;
}

interface Quantifier {
  end: number;
  repeats: boolean;
  unbounded: boolean;
}

/** Bounded repetitions above this count are treated as unbounded. */
const LARGE_REPEAT = 32;

function readQuantifier(p: string, i: number): Quantifier | undefined {
  const c = p[i];
  let q: Quantifier | undefined;
  if (c === "*" || c === "+") q = { end: i + 1, repeats: true, unbounded: true };
  else if (c === "?") q = { end: i + 1, repeats: false, unbounded: false };
  else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
    if (m === null) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
    q = { end: i + m[0].length, repeats: max > 1, unbounded: max > LARGE_REPEAT };
  }
  if (q !== undefined && p[q.end] === "?") q.end++;
  return q;
}
