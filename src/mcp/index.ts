// struct-json-bridge/mcp: exact tool-call arguments and results through the
// official MCP TypeScript SDK (an optional peer dependency of this package).

export { ExactNumber, hasNativeRawJson, isRawJson, serializeExactMessage } from "./exact-number.js";
export {
  deserializeExactMessage,
  ExactStdioClientTransport,
  STRUCTURED_CONTENT_JSON_META_KEY,
  structuredContentJson,
} from "./exact-stdio-client-transport.js";
export { exactJsonArguments, toolCallArguments } from "./tool-call-arguments.js";
