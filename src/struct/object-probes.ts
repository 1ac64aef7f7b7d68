// What the schema reader may ask of an object value while choosing among
// anyOf/oneOf branches, for both forms a Struct takes in protobuf-es.

import type { Value } from "@bufbuild/protobuf/wkt";
import type { ObjectProbe } from "../schema/index.js";

/**
 * Probes an object's members in either form (`msg`: a Struct message's fields,
 * else the JsonObject form: protobuf-es's Struct fields, parsed raw text).
 */
export class MemberProbe implements ObjectProbe {
  constructor(
    private readonly fields: Record<string, unknown>,
    private readonly msg: boolean,
  ) {}
  has(key: string): boolean {
    return Object.hasOwn(this.fields, key);
  }
  primitive(key: string): string | number | boolean | null | undefined {
    return Object.hasOwn(this.fields, key)
      ? memberPrimitive(this.fields[key], this.msg)
      : undefined;
  }
}

/**
 * What {@link ObjectProbe.primitive} gives for a member, from the member
 * itself (`msg`: a Struct message's Value): for a check of a known content
 * that makes no probe.
 */
export function memberPrimitive(
  member: unknown,
  msg: boolean,
): string | number | boolean | null | undefined {
  return msg ? messagePrimitive(member as Value | undefined) : plainPrimitive(member);
}

function messagePrimitive(v: Value | undefined): string | number | boolean | null | undefined {
  const kind = v?.kind;
  switch (kind?.case) {
    case "stringValue":
    case "numberValue":
    case "boolValue":
      return kind.value;
    case "nullValue":
      return null;
    default:
      return undefined;
  }
}

function plainPrimitive(v: unknown): string | number | boolean | null | undefined {
  return typeof v === "object" && v !== null
    ? undefined
    : (v as string | number | boolean | null | undefined);
}
