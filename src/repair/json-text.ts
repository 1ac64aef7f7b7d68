// JSON number text read by index arithmetic, never by a regex: linear in the
// text's length by construction, however many digits or zeros it has.

/** True when `s` is exactly one JSON number (RFC 8259 grammar, no whitespace). */
export function isJsonNumberText(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (s.charCodeAt(i) === 0x2d) i++;
  if (s.charCodeAt(i) === 0x30) i++;
  else if (isDigit1to9(s.charCodeAt(i))) i = digitsEnd(s, i + 1);
  else return false;
  if (s.charCodeAt(i) === 0x2e) {
    const end = digitsEnd(s, i + 1);
    if (end === i + 1) return false;
    i = end;
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = s.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    const end = digitsEnd(s, i);
    if (end === i) return false;
    i = end;
  }
  return i === n;
}

function isDigit1to9(c: number): boolean {
  return c >= 0x31 && c <= 0x39;
}

/** The index after the run of ASCII digits starting at `i`. */
export function digitsEnd(s: string, i: number): number {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i;
}
