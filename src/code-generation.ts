// Whether this runtime runs code made at run time (`new Function`). Asked
// once, lazily, for the whole package: under a Content-Security-Policy without
// 'unsafe-eval' every probe is a violation report, so there is one probe, and
// none at import. The compiled writer (struct/writer-code.ts) and the schema
// cache's comparators (schema/compile-schema.ts) both ask here, and fall back
// to interpreting the same data where the answer is no.

let allowed: boolean | undefined;

/** True when `new Function` works here; tried once, on the first question. */
export function runtimeAllowsCode(): boolean {
  if (allowed === undefined) {
    try {
      allowed = new Function("return 1")() === 1;
    } catch {
      allowed = false;
    }
  }
  return allowed;
}

/** For tests: forget the answer, so that the next question tries again. */
export function resetCodeDetection(): void {
  allowed = undefined;
}
