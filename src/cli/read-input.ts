// Reading the CLI's inputs: a file, or stdin for "-".

import { readFileSync } from "node:fs";
import { inputError } from "./cli-error.js";

/** Where the input comes from: a file path, or "-" for stdin. */
export type InputName = string;

function describe(name: InputName): string {
  return name === "-" ? "stdin" : name;
}

/** All bytes of a file, or of stdin for "-". */
export function readBytes(name: InputName): Uint8Array {
  try {
    // fd 0 reads stdin to its end, whether a pipe, a file or a terminal.
    return new Uint8Array(readFileSync(name === "-" ? 0 : name));
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : typeof code === "string"
              ? code
              : "unreadable";
    throw inputError(`cannot read ${describe(name)}: ${why}`, e);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The input as UTF-8 text, byte for byte (a BOM is kept, so that JSON parsing reports it). */
export function readText(name: InputName): string {
  const bytes = readBytes(name);
  try {
    return utf8.decode(bytes);
  } catch (e) {
    throw inputError(`${describe(name)} is not valid UTF-8 text`, e);
  }
}
