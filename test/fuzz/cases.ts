// Fuzz cases: each a pure function of (seed, target, iteration), so the runner,
// its worker thread and the reproducer all build the same input.
import { corpus } from "./corpus.js";
import { mutateJson } from "./mutate-json.js";
import { mutateClientAction } from "./mutate-protobuf.js";
import { caseSeed, Rng } from "./rng.js";
import { type Finding, jsonCase, protobufCase, type Tally } from "./targets.js";

/** The fuzz targets, by name. */
export const TARGETS = ["protobuf", "json"] as const;
/** A target's name. */
export type TargetName = (typeof TARGETS)[number];

/** One case's input, in a form that can be printed and replayed. */
export type CaseInput =
  | { readonly target: "protobuf"; readonly bytes: Uint8Array; readonly seedIndex: number }
  | { readonly target: "json"; readonly text: string };

/** Builds the input of one case. */
export function buildCase(target: TargetName, seed: number, iteration: number): CaseInput {
  const rng = new Rng(caseSeed(seed, TARGETS.indexOf(target), iteration));
  const seeds = corpus();
  const seedIndex = rng.int(seeds.length);
  const s = seeds[seedIndex]!;
  if (target === "protobuf") return { target, bytes: mutateClientAction(s, rng), seedIndex };
  return { target, text: mutateJson(s.text, rng) };
}

/** Runs one case; a finding or undefined. */
export function runCase(input: CaseInput, tally?: Tally): Finding | undefined {
  if (input.target === "protobuf") {
    return protobufCase(input.bytes, corpus()[input.seedIndex]!.schema, tally);
  }
  return jsonCase(input.text, tally);
}

/** A reproducer: the command that replays the case, and the input itself. */
export function describeCase(input: CaseInput, seed: number, iteration: number): string {
  const replay = `npm run fuzz -- --seed ${seed} --target ${input.target} --iteration ${iteration}`;
  const data =
    input.target === "protobuf"
      ? `bytes (base64, ${input.bytes.length} bytes): ${Buffer.from(input.bytes).toString("base64").slice(0, 4000)}`
      : `text (JSON-quoted, ${input.text.length} code units): ${JSON.stringify(input.text).slice(0, 4000)}`;
  return `${replay}\n${data}`;
}
