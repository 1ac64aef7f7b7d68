// Reading the CLI's inputs: a file, or stdin for "-". Messages name the
// input by its role ("the input", "the --schema file"), never by the path
// given on the command line.

import { readFileSync } from "node:fs";
import { inputError } from "./cli-error.js";

/** Where the input comes from: a file path, or "-" for stdin. */
export type InputName = string;

/** What an input is for, as messages name it: "the input", "the --schema file". */
export type InputRole = string;

/** All bytes of a file, or of stdin for "-". */
export function readBytes(name: InputName, role: InputRole): Uint8Array {
  try {
    // fd 0 reads stdin to its end, whether a pipe, a file or a terminal.
    return new Uint8Array(readFileSync(name === "-" ? 0 : name));
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : typeof code === "string" && /^E[A-Z0-9]{1,20}$/.test(code)
              ? code
              : "unreadable";
    throw inputError("input-unreadable", `cannot read ${role}: ${why}`, { cause: e });
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The input as UTF-8 text, byte for byte (a BOM is kept, so that JSON parsing reports it). */
export function readText(name: InputName, role: InputRole): string {
  const bytes = readBytes(name, role);
  try {
    return utf8.decode(bytes);
  } catch (e) {
    throw inputError("invalid-unicode", `${role} is not valid UTF-8 text`, { cause: e });
  }
}
