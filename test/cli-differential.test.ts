// The CLI is a thin shell over the library: for a seeded corpus of argument
// texts, messages (binary and ProtoJSON) and schemas, each command's stdout
// is byte for byte what the library call it wraps returns (plus the one
// newline that ends the output), and its stderr is the library's diagnostics,
// one "path<TAB>code" line each, in order. Run in-process (runCli on files in
// a temporary directory), so that hundreds of cases take seconds.

import {
  create,
  type DescMessage,
  fromBinary,
  fromJsonString,
  type JsonObject,
  type JsonValue,
  toBinary,
  toJson,
  toJsonString,
} from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type ClientAction,
  ClientActionSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { displayPath } from "../src/cli/display.js";
import { checkJsonSchema } from "../src/cli/schema-check.js";
import {
  type Diagnostic,
  inspectNumbers,
  isStructJsonError,
  type JsonSchema,
  toolCallFromJson,
  toolCallToJson,
  toolResultFromJson,
  toolResultToJson,
} from "../src/index.js";
import { type Outcome, runInProcess, tempFiles } from "./cli-helpers.js";
import { argumentsText, runs } from "./property-arbitraries.js";
import { rootSchemaArb } from "./schema-arbitraries.js";
import vectorFile from "./vectors/decoder-vectors.json" with { type: "json" };

const { file } = tempFiles("sjb-cli-differential-");
const run = (argv: readonly string[]) => runInProcess(argv);

const diagnosticLines = (list: readonly Diagnostic[]) =>
  list.map((d) => `${displayPath(d.path)}\t${d.code}\n`).join("");

/** What the library does, as the CLI would print it. */
function expected(call: () => string, diagnostics: Diagnostic[]): Outcome {
  try {
    const out = call();
    return { status: 0, stdout: `${out}\n`, stderr: diagnosticLines(diagnostics) };
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    const at = e.path === "" ? "(root)" : displayPath(e.path);
    return { status: 1, stdout: "", stderr: `struct-json-bridge: ${e.code} at ${at}: ` };
  }
}

/**
 * The CLI's outcome with its one error line cut after "code at path: " (the
 * sentence is the library's, but `expected` does not rebuild it).
 */
function reduced(o: Outcome, want: Outcome): Outcome {
  const oneLine = o.stderr.endsWith("\n") && o.stderr.indexOf("\n") === o.stderr.length - 1;
  if (o.status === 0 || !oneLine || !o.stderr.startsWith(want.stderr)) return o;
  return { ...o, stderr: want.stderr };
}

type DecodeOptions = {
  readonly rawJson?: "verify" | "trust" | "ignore";
  readonly wholeFloats?: "decimal" | "integer";
};

function decodeArgv(o: DecodeOptions): string[] {
  return [
    ...(o.rawJson === undefined ? [] : ["--raw", o.rawJson]),
    ...(o.wholeFloats === undefined ? [] : ["--whole-floats", o.wholeFloats]),
  ];
}

/** The forms a message can reach the CLI in: binary and ProtoJSON, as such or inside a ClientAction. */
interface MessageForm {
  readonly label: string;
  readonly type: "action" | "call" | "result";
  readonly bytes: Uint8Array | string;
  /** The call or result as protobuf-es reads these bytes. */
  readonly read: () => CallMCPTool | MCPToolResult;
}

function messageForms(message: CallMCPTool | MCPToolResult): MessageForm[] {
  const forms: MessageForm[] = [];
  const add = <T extends DescMessage>(
    type: MessageForm["type"],
    label: string,
    desc: T,
    value: never,
    pick: (m: never) => CallMCPTool | MCPToolResult,
  ) => {
    const binary = toBinary(desc, value);
    forms.push({
      type,
      label: `binary ${label}`,
      bytes: binary,
      read: () => pick(fromBinary(desc, binary) as never),
    });
    let text: string | undefined;
    try {
      text = toJsonString(desc, value);
    } catch {
      // NaN and unset values have no ProtoJSON form.
    }
    if (text !== undefined) {
      const t = text;
      forms.push({
        type,
        label: `ProtoJSON ${label}`,
        bytes: t,
        read: () => pick(fromJsonString(desc, t) as never),
      });
    }
  };
  if (message.$typeName === "toolbridge.v1.CallMCPTool") {
    add("call", "CallMCPTool", CallMCPToolSchema, message as never, (m) => m);
    const action = create(ClientActionSchema, {
      actionId: "a",
      action: { case: "callMcpTool", value: message },
    });
    add("action", "ClientAction", ClientActionSchema, action as never, (m: ClientAction) =>
      m.action.case === "callMcpTool" ? m.action.value : (undefined as never),
    );
  } else {
    add("result", "MCPToolResult", MCPToolResultSchema, message as never, (m) => m);
  }
  return forms;
}

/**
 * Runs `argv` on the form's bytes, type detected; where the bytes read as
 * several types (message-ambiguous), again with the type given.
 */
function runTyped(form: MessageForm, argv: readonly string[]): Outcome {
  const input = file(form.bytes);
  const detected = run([...argv, input]);
  if (!detected.stderr.startsWith("struct-json-bridge: message-ambiguous: ")) return detected;
  expect(detected.status).toBe(1);
  return run([...argv, "--type", form.type, input]);
}

/** decode on every form of `message` is what toolCallToJson / toolResultToJson return. */
function checkDecode(
  message: CallMCPTool | MCPToolResult,
  schema: JsonSchema | undefined,
  options: DecodeOptions,
): void {
  const schemaArgs =
    schema === undefined ? [] : ["--schema", file(JSON.stringify(schema, specPrefixItems))];
  for (const form of messageForms(message)) {
    const read = form.read();
    const diagnostics: Diagnostic[] = [];
    const libOptions = { ...options, onDiagnostic: (d: Diagnostic) => diagnostics.push(d) };
    const want = expected(
      () =>
        read.$typeName === "toolbridge.v1.CallMCPTool"
          ? toolCallToJson(read, schema ?? null, libOptions)
          : toolResultToJson(read, schema ?? null, libOptions),
      diagnostics,
    );
    const got = runTyped(form, ["decode", ...decodeArgv(options), ...schemaArgs]);
    // The warning about a schema that describes no number is the CLI's own.
    const withoutWarning = {
      ...got,
      stderr: got.stderr.replace(/^struct-json-bridge: warning: .*\n/m, ""),
    };
    expect(reduced(withoutWarning, want), form.label).toEqual(want);
  }
}

/** True when a -0 is anywhere in `value` (JSON.stringify would write it as 0). */
function hasNegativeZero(value: unknown): boolean {
  let found = false;
  JSON.stringify(value, (_key, v: unknown) => {
    if (Object.is(v, -0)) found = true;
    return v;
  });
  return found;
}

/** inspect's table is inspectNumbers' list, with the raw text's spelling of each number. */
function checkInspect(message: CallMCPTool | MCPToolResult, schema: JsonSchema): void {
  const schemaFile = file(JSON.stringify(schema, specPrefixItems));
  for (const form of messageForms(message)) {
    const read = form.read();
    const readFields =
      read.$typeName === "toolbridge.v1.CallMCPTool" ? read.args : read.structuredContent;
    const numbers = inspectNumbers(readFields ?? {}, schema, {
      nonFinite: "null",
      unsetValue: "null",
    });
    const got = runTyped(form, ["inspect", "--schema", schemaFile]);
    expect(got.status, form.label).toBe(0);
    const rows = got.stdout.split("\n");
    expect(rows[0]).toBe("path\tstruct\traw\treading\toutput\tcodes");
    expect(rows.at(-1)).toBe("");
    const table = rows.slice(1, -1).map((r) => {
      const [path, value, , reading, output, codes] = r.split("\t");
      return [path, value, reading, output, codes];
    });
    expect(table, form.label).toEqual(
      numbers.map((n) => [
        displayPath(n.path),
        Object.is(n.value, -0) ? "-0" : String(n.value),
        n.reading,
        n.text,
        n.codes.length === 0 ? "-" : n.codes.join(","),
      ]),
    );
  }
}

/**
 * The generators write `"prefixItems": []`, which the library reads as no
 * constraint and JSON Schema forbids (the CLI's --schema check rejects it):
 * written without it, the schema means the same.
 */
function specPrefixItems(key: string, value: unknown): unknown {
  return key === "prefixItems" && Array.isArray(value) && value.length === 0 ? undefined : value;
}

function passesSchemaCheck(schema: JsonSchema): boolean {
  try {
    checkJsonSchema(schema as JsonValue, "", "the --schema file");
    return true;
  } catch {
    return false;
  }
}

const vectors = vectorFile.vectors as readonly {
  name: string;
  target: string;
  args?: string;
  raw?: string;
  base64?: string;
  schema?: JsonSchema;
  options?: Record<string, unknown>;
}[];

/** The vectors the CLI can express: calls and results, with options the CLI has. */
const cliVectors = vectors.filter(
  (v) =>
    v.target !== "struct" &&
    Object.keys(v.options ?? {}).every((k) => k === "rawJson" || k === "wholeFloats"),
);

function vectorMessage(v: (typeof vectors)[number]): CallMCPTool | MCPToolResult {
  const desc = v.target === "call" ? CallMCPToolSchema : MCPToolResultSchema;
  if (v.base64 !== undefined) return fromBinary(desc, Buffer.from(v.base64, "base64")) as never;
  const content = JSON.parse(v.args!) as JsonObject;
  return v.target === "call"
    ? create(CallMCPToolSchema, {
        name: "vector",
        args: content,
        ...(v.raw === undefined ? {} : { rawArgsJson: v.raw }),
      })
    : create(MCPToolResultSchema, {
        actionId: "vector",
        structuredContent: content,
        ...(v.raw === undefined ? {} : { rawStructuredContentJson: v.raw }),
      });
}

describe("decode is the library's toolCallToJson / toolResultToJson", () => {
  test.each(cliVectors.map((v) => [v.name, v] as const))("vector: %s", (_name, v) => {
    checkDecode(vectorMessage(v), v.schema, (v.options ?? {}) as DecodeOptions);
  });

  test("generated argument texts, schemas and options", () => {
    fc.assert(
      fc.property(
        argumentsText,
        fc.constantFrom("always", "when-lossy", "never"),
        fc.constantFrom(undefined, "verify", "trust", "ignore"),
        fc.constantFrom(undefined, "decimal", "integer"),
        fc.boolean(),
        (gen, rawArgsJson, rawJson, wholeFloats, asResult) => {
          const message = asResult
            ? toolResultFromJson(
                { structuredContentJson: gen.text },
                { rawStructuredContentJson: rawArgsJson },
              )
            : toolCallFromJson({ name: "t", argumentsJson: gen.text }, { rawArgsJson });
          checkDecode(message, gen.schema, {
            ...(rawJson === undefined ? {} : { rawJson }),
            ...(wholeFloats === undefined ? {} : { wholeFloats }),
          } as DecodeOptions);
        },
      ),
      runs(60, 4101),
    );
  });

  test("generated schemas", () => {
    fc.assert(
      fc.property(argumentsText, rootSchemaArb, (gen, schema) => {
        // Object cycles have no JSON text; the CLI reads schemas from files.
        let text: string;
        try {
          text = JSON.stringify(schema);
        } catch {
          return;
        }
        const parsed = JSON.parse(text, specPrefixItems) as JsonSchema;
        // The CLI's --schema gate (schema-check.ts) is stricter than the library.
        fc.pre(passesSchemaCheck(parsed));
        const message = toolCallFromJson({ name: "t", argumentsJson: gen.text });
        checkDecode(message, parsed, {});
      }),
      runs(60, 4102),
    );
  });
});

describe("inspect is the library's inspectNumbers", () => {
  test.each(cliVectors.filter((v) => v.schema !== undefined).map((v) => [v.name, v] as const))(
    "vector: %s",
    (_name, v) => {
      checkInspect(vectorMessage(v), v.schema!);
    },
  );

  test("generated argument texts", () => {
    fc.assert(
      fc.property(argumentsText, (gen) => {
        checkInspect(toolCallFromJson({ name: "t", argumentsJson: gen.text }), gen.schema);
      }),
      runs(60, 4103),
    );
  });
});

describe("encode is the library's toolCallFromJson", () => {
  test("generated argument texts, every --raw and --format", () => {
    fc.assert(
      fc.property(
        argumentsText,
        fc.constantFrom(undefined, "always", "when-lossy", "never"),
        fc.constantFrom(undefined, "json", "binary"),
        (gen, raw, format) => {
          const diagnostics: Diagnostic[] = [];
          const call = toolCallFromJson(
            { name: "t", argumentsJson: gen.text, serverId: "s" },
            {
              onDiagnostic: (d) => diagnostics.push(d),
              ...(raw === undefined ? {} : { rawArgsJson: raw }),
            },
          );
          const action = create(ClientActionSchema, {
            actionId: "a",
            action: { case: "callMcpTool", value: call },
          });
          const stdout =
            format === "binary"
              ? Buffer.from(toBinary(ClientActionSchema, action)).toString("latin1")
              : `${toJsonString(ClientActionSchema, action)}\n`;
          const got = run([
            "encode",
            "--name",
            "t",
            "--server-id",
            "s",
            "--action-id",
            "a",
            ...(raw === undefined ? [] : ["--raw", raw]),
            ...(format === undefined ? [] : ["--format", format]),
            file(gen.text),
          ]);
          if (format !== "binary" && hasNegativeZero(toJson(ClientActionSchema, action))) {
            // toJsonString writes -0 as 0; encode writes "-0", which reads back as -0.
            expect(got.stdout.indexOf("\n")).toBe(got.stdout.length - 1);
            expect(JSON.parse(got.stdout)).toEqual(toJson(ClientActionSchema, action));
            expect(got.stderr).toBe(diagnosticLines(diagnostics));
            return;
          }
          expect(got).toEqual({ status: 0, stdout, stderr: diagnosticLines(diagnostics) });
        },
      ),
      runs(60, 4104),
    );
  });
});
