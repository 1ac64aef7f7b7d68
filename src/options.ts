// Options: every public function takes `Partial<XOptions>` and resolves it
// here, over its frozen private defaults, with one rule for every function:
// a member that is absent or explicitly `undefined` takes its default (as
// protobuf-es reads its options); a member the function does not know is
// ignored (so a caller may pass one options object to several functions).

import { StructJsonError } from "./errors.js";

/** Merges `options` over `defaults` (absent or `undefined` → the default), then runs `check`. */
export function makeOptions<T extends object>(
  defaults: Readonly<T>,
  options: Partial<T> | undefined,
  check?: (resolved: T) => void,
): T {
  const resolved = { ...defaults } as T;
  if (options !== undefined && options !== null) {
    for (const key of Object.keys(defaults) as (keyof T)[]) {
      const value = options[key];
      if (value !== undefined) resolved[key] = value as T[keyof T];
    }
  }
  check?.(resolved);
  return resolved;
}

/** Throws `option-invalid` naming the option and its rule, never the value. */
export function invalidOption(name: string, rule: string): never {
  throw new StructJsonError("option-invalid", "", `option ${name} ${rule}`);
}

/** Checks that a string option is one of its documented values. */
export function checkOneOf(name: string, value: unknown, allowed: readonly string[]): void {
  if (!allowed.includes(value as string)) {
    const listed = allowed.map((a) => `"${a}"`);
    const last = listed.pop();
    invalidOption(name, `must be ${listed.length > 0 ? `${listed.join(", ")} or ` : ""}${last}`);
  }
}

/** Checks a nesting limit: a positive safe integer. */
export function checkLimit(name: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    invalidOption(name, "must be a positive integer");
  }
}

/** Checks that a callback option is a function. */
export function checkFunction(name: string, value: unknown): void {
  if (typeof value !== "function") invalidOption(name, "must be a function");
}
