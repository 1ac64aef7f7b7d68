// DEPRECATED (issue 13): the decoder no longer uses this shape heuristic; it
// tests patterns only through a linear-time engine (src/patterns). Kept only
// because repair's validator (src/repair/validator.ts) still imports it; delete
// it once repair uses src/patterns.
//
// `patternProperties` regexes come from untrusted servers, and JavaScript's
// backtracking engine cannot be interrupted, so a pattern is only run when it
// cannot backtrack catastrophically on the keys it is tested against.
//
// Policy:
// - rejected (never matches; `objectScope` notes `schema-too-complex` at the
//   object's position): longer than MAX_PATTERN_LENGTH, a backreference, a
//   repeated group that contains a quantifier or an alternation (`(a+)+`,
//   `(a|aa)*`: exponential), more than three unbounded quantifiers, more than
//   MAX_CHOICES ways to choose among its bounded quantifiers and alternatives
//   (`a?a?…a?aa…a`, `a{0,30}` eight times, `(a|a)` thirty times: each is
//   exponential in the count, whatever the key), or not a valid regex
//   (compiled with the `u` flag, else without it);
// - polynomial backtracking is bounded by the key length: a key longer than the
//   pattern's limit (4096 code units with at most one unbounded quantifier, 256
//   with two, 48 with three; lower when bounded choices multiply the cost, so
//   that about STEP_BUDGET steps suffice) is not tested, and that member's
//   position reads as too complex.

/** Longest pattern text run at all. */
export const MAX_PATTERN_LENGTH = 256;

const KEY_LIMITS = [4096, 4096, 256, 48];
const MAX_UNBOUNDED = 3;
/** Most ways a pattern may choose among bounded quantifiers (`?`, `{1,3}`) and alternatives. */
export const MAX_CHOICES = 4096;
/** Backtracking steps allowed per key (keyLength^(unbounded+1) × choices): 4096² as before. */
const STEP_BUDGET = 2 ** 24;

/** A pattern judged safe to run. */
export interface SafePattern {
  /** Whether `key` matches; undefined when the key is too long to test safely. */
  test(key: string): boolean | undefined;
}

/** Compiles a `patternProperties` pattern under the policy above; undefined when rejected. */
export function compileSafePattern(source: string): SafePattern | undefined {
  if (source.length > MAX_PATTERN_LENGTH) return undefined;
  const cost = backtrackingCost(source);
  if (cost === undefined) return undefined;
  const re = compile(source);
  if (re === undefined) return undefined;
  const { unbounded, choices } = cost;
  const limit = Math.min(
    KEY_LIMITS[unbounded]!,
    Math.floor((STEP_BUDGET / choices) ** (1 / (unbounded + 1))),
  );
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
  /** Alternatives directly in this group (1 + its `|`s). */
  alternatives: number;
}

/** What backtracking may cost: unbounded quantifiers, and the product of every other choice. */
interface Cost {
  unbounded: number;
  choices: number;
}

/** The pattern's backtracking cost, or undefined when the pattern is rejected. */
function backtrackingCost(p: string): Cost | undefined {
  const stack: Group[] = [{ quantified: false, alternation: false, alternatives: 1 }];
  let unbounded = 0;
  let choices = 1;
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    let atomEnd = i + 1;
    let closed: Group | undefined;
    if (c === "\\") {
      const n = p[i + 1];
      if (n === undefined) return undefined;
      if ((n >= "1" && n <= "9") || n === "k") return undefined; // backreference
      atomEnd = i + 2;
      if ((n === "u" || n === "p" || n === "P") && p[i + 2] === "{") {
        const close = p.indexOf("}", i + 3);
        if (close < 0) return undefined;
        atomEnd = close + 1;
      }
    } else if (c === "[") {
      let j = i + 1;
      while (j < p.length && p[j] !== "]") j += p[j] === "\\" ? 2 : 1;
      if (j >= p.length) return undefined;
      atomEnd = j + 1;
    } else if (c === "(") {
      stack.push({ quantified: false, alternation: false, alternatives: 1 });
      i = p[i + 1] === "?" ? skipGroupPrefix(p, i + 2) : i + 1;
      continue;
    } else if (c === ")") {
      if (stack.length < 2) return undefined;
      closed = stack.pop()!;
      choices *= closed.alternatives;
    } else if (c === "|") {
      const g = stack[stack.length - 1]!;
      g.alternation = true;
      g.alternatives++;
      i++;
      continue;
    }
    const q = readQuantifier(p, atomEnd);
    const top = stack[stack.length - 1]!;
    if (closed !== undefined) {
      if (q?.repeats && (closed.quantified || closed.alternation)) return undefined;
      top.quantified ||= closed.quantified;
      top.alternation ||= closed.alternation;
    }
    if (q !== undefined) {
      top.quantified = true;
      if (q.unbounded) {
        if (++unbounded > MAX_UNBOUNDED) return undefined;
      } else {
        choices *= q.choices;
      }
      if (choices > MAX_CHOICES) return undefined;
      i = q.end;
    } else {
      i = atomEnd;
    }
  }
  if (stack.length !== 1) return undefined;
  choices *= stack[0]!.alternatives;
  return choices > MAX_CHOICES ? undefined : { unbounded, choices };
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
  /** For a bounded quantifier: how many counts it may match (max − min + 1). */
  choices: number;
}

/** Bounded repetitions above this count are treated as unbounded. */
const LARGE_REPEAT = 32;

function readQuantifier(p: string, i: number): Quantifier | undefined {
  const c = p[i];
  let q: Quantifier | undefined;
  if (c === "*" || c === "+") q = { end: i + 1, repeats: true, unbounded: true, choices: 1 };
  else if (c === "?") q = { end: i + 1, repeats: false, unbounded: false, choices: 2 };
  else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
    if (m === null) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
    q = {
      end: i + m[0].length,
      repeats: max > 1,
      unbounded: max > LARGE_REPEAT,
      choices: max >= min ? max - min + 1 : 1,
    };
  }
  if (q !== undefined && p[q.end] === "?") q.end++;
  return q;
}
