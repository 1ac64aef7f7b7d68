// struct-json-bridge/mcp: exact tool-call arguments and results through the
// official MCP TypeScript SDK's client (an optional peer dependency of this
// package). Server transports are in struct-json-bridge/mcp/server.

export { ExactStreamableHTTPClientTransport } from "./exact-http-client-transport.js";
export { ExactNumber, hasNativeRawJson, isRawJson, serializeExactMessage } from "./exact-number.js";
export {
  deserializeExactMessage,
  STRUCTURED_CONTENT_JSON_META_KEY,
  structuredContentJson,
} from "./exact-result.js";
export { ExactStdioClientTransport } from "./exact-stdio-client-transport.js";
export { exactJsonArguments, toolCallArguments } from "./tool-call-arguments.js";
