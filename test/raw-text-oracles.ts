// Oracles of the raw-text and inspection tests, written here rather than
// taken from the package: a number text's wholeness by its digits, and JSON
// Pointer tokens.

/** True when a number text denotes a whole number exactly (`5.0`, `50e-1`, `0e-9`), by its digits. */
export function denotesWhole(text: string): boolean {
  const m = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  let digits = `${m[1]}${m[2] ?? ""}`.replace(/^0+/, "");
  if (digits === "") return true;
  let exponent = Number(m[3] ?? "0") - (m[2] ?? "").length;
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  return exponent >= 0;
}

/** A JSON Pointer token (RFC 6901). */
export function pointerToken(t: string | number): string {
  return String(t).replaceAll("~", "~0").replaceAll("/", "~1");
}
