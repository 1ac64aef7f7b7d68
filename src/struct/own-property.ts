// Member names come from the input, so "__proto__" is an ordinary name: plain
// assignment `object["__proto__"] = v` would set the object's prototype
// instead of a member (and drop the member). Every object the package builds
// from input gets its members through this one function.

/** Sets `key` as an own, enumerable, writable data member of `target`, "__proto__" included. */
export function setOwnProperty(target: object, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    (target as Record<string, unknown>)[key] = value;
  }
}
