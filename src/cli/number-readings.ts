// The numbers of a message's Struct as the schema reads them: inspect's
// table, and decode's check that the --schema file describes any of them.

import type { JsonObject } from "@bufbuild/protobuf";
import { inspectNumbers, type NumberInspection, type SchemaArg } from "../struct/to-json.js";
import { PROGRAM } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import type { PickedSchema } from "./schema-input.js";

/**
 * Every number of `fields` (the JsonObject protobuf-es keeps in a Struct
 * field) with its reading. inspectNumbers takes that form as data: members a
 * model wrote (`$typeName`, `fields`) are never a sign of another form, so
 * what inspect shows is what decode sends.
 */
export function numberReadings(fields: JsonObject, schema: SchemaArg): NumberInspection[] {
  // NaN and unset values are shown (output "null", with their code), not
  // refused: inspect is where one looks for them; decode still rejects them.
  return inspectNumbers(fields, schema, { nonFinite: "null", unsetValue: "null" });
}

/**
 * Warns on stderr when a --schema was given, the message carries finite
 * numbers, and the schema gives every one of them the reading "unknown": then
 * it is most likely the wrong schema (or the wrong tool's).
 */
export function warnIfSchemaDescribesNoNumber(
  io: CliIo,
  picked: PickedSchema | undefined,
  numbers: readonly NumberInspection[],
): void {
  if (picked === undefined) return;
  // NaN and Infinity read "unknown" whatever the schema says: they do not count.
  const finite = numbers.filter((n) => Number.isFinite(n.value));
  if (finite.length === 0 || finite.some((n) => n.reading !== "unknown")) return;
  const count = `${finite.length} number${finite.length === 1 ? "" : "s"}`;
  const detail =
    picked.missing === undefined
      ? `the schema describes none of the message's ${count} (each reads "unknown")`
      : `${picked.missing}, so none of the message's ${count} is described (each reads "unknown")`;
  io.stderr(`${PROGRAM}: warning: schema-describes-no-number: ${detail}`);
}
