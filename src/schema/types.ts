/** What a schema says about one number position: see the rules at the top of ./index.ts. */
export type NumberReading = "integer" | "number" | "ambiguous" | "unknown";

/** A finding of the schema reader, reported at the position the call was made for. */
export type SchemaNote =
  | "schema-ref-unresolved"
  | "schema-too-complex"
  | "schema-pattern-unevaluated";

/** Receives the reader's notes for the writer's current position. */
export type NoteSink = (code: SchemaNote) => void;

/** What branch filtering may ask of the object value at a position (the writer supplies it). */
export interface ObjectProbe {
  /** True when the object has this member (own keys only). */
  has(key: string): boolean;
  /** The member's value when it is a string, number, boolean or null; undefined when absent or a container. */
  primitive(key: string): string | number | boolean | null | undefined;
}

/** The schema of an object value's members. */
export interface ObjectScope {
  /** The node for the member `key`. */
  child(key: string): SchemaNode;
}

/** The schema of an array value's elements. */
export interface ArrayScope {
  /** The node for the element at `index`. */
  child(index: number): SchemaNode;
}

/** What the schema says at one value position; opaque apart from `isUnknown`. */
export interface SchemaNode {
  /** True: the schema describes nothing here, so the writer may skip every call below this position. */
  readonly isUnknown: boolean;
}
