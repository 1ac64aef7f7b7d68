// Which JS objects a Struct's JsonObject form may hold as a JSON object. What
// JSON.parse and protobuf-es build has Object.prototype (or null) as its
// prototype; an object from another realm (an iframe, a vm context) or a
// class instance keeps its data in own members too, and is read as
// JSON.stringify reads it. An object with a kind of its own (a Date, a Map, a
// Set, a RegExp, an Error, a boxed primitive, a typed array, a class instance
// with a Symbol.toStringTag) keeps its data elsewhere: read as its own members
// it would come out as `{}` (or as its indices), a value changed silently, so
// the writers refuse it as they refuse `undefined` (value-unset). Told apart
// by Object.prototype.toString, which names every built-in kind, across realms.

const OBJECT_PROTOTYPE = Object.prototype;
const objectTag = Object.prototype.toString;

/**
 * True when the non-array object `o` is data the writers may read as a JSON
 * object (see above). One prototype read for what JSON.parse and protobuf-es
 * build; the tag, which a proxy's trap or a getter may compute, only for others.
 */
export function isObjectData(o: object): boolean {
  const p: unknown = Object.getPrototypeOf(o);
  return p === OBJECT_PROTOTYPE || p === null || objectTag.call(o) === "[object Object]";
}

/** True when `x` is a JSON object's data: a non-null, non-array object as {@link isObjectData} says. */
export function isDataObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x) && isObjectData(x);
}
