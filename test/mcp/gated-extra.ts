// The `extra` a tool handler gets for a tools/call that came through an exact
// server transport, made the way the transports make it: a real RequestGate
// annotates the line, the SDK's schema parses it, the gate admits it. A
// string put under ARGUMENTS_JSON_META_KEY by hand is not trusted (only the
// `_meta` object a gate admitted is), so tests that need the exact text to be
// trusted get their `extra` here.

import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { RequestGate } from "../../src/mcp/server/request-gate.js";

/** A handler's `extra` (its `_meta`, as the SDK hands it on) for a call of `name` with arguments `argumentsText`. */
export function gatedExtra(argumentsText: string, name = "t"): { _meta: Record<string, unknown> } {
  const gate = new RequestGate({ exactTools: [name] });
  const line = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}`;
  const parsed: unknown = JSON.parse(line);
  gate.annotate(parsed, line);
  const message = JSONRPCMessageSchema.parse(parsed) as {
    params: { _meta: Record<string, unknown> };
  };
  // A refusal (a number beyond float64's range) is ignored here: the handler's own checks are under test.
  gate.admit(message as never);
  return { _meta: message.params._meta };
}
