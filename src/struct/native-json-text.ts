// The runtime's JSON.rawJSON / JSON.isRawJSON (Node ≥ 21, recent browsers):
// values that every JSON.stringify writes as the given number text. Looked up
// here, for the whole package.

/** `JSON.rawJSON`, or undefined where the runtime lacks it. */
export const nativeJsonText: ((text: string) => unknown) | undefined = (
  JSON as unknown as { rawJSON?: (text: string) => unknown }
).rawJSON;

/** True for a value made by `JSON.rawJSON` (always false where the runtime lacks it). */
export function isNativeJsonText(value: unknown): boolean {
  // Looked up here rather than at import: a bundle that never asks reads no member of JSON.
  return (
    (JSON as unknown as { isRawJSON?: (value: unknown) => boolean }).isRawJSON?.(value) === true
  );
}
