// struct-json-bridge/mcp/server: exact numbers for TypeScript MCP servers built
// on the official MCP SDK (an optional peer dependency of this package).

export {
  ExactStreamableHTTPServerTransport,
  type ExactStreamableHTTPServerTransportOptions,
} from "./exact-http-server-transport.js";
export {
  ExactStdioServerTransport,
  type ExactStdioServerTransportOptions,
} from "./exact-stdio-server-transport.js";
export {
  type ExactArguments,
  type ExactToolCallback,
  type ExactToolHandlerOptions,
  type ExactToolResult,
  exactArgumentsJson,
  exactToolHandler,
  type JsonRecord,
  type ToolHandlerExtra,
} from "./exact-tool-handler.js";
export {
  ExactWebStandardStreamableHTTPServerTransport,
  type ExactWebStandardStreamableHTTPServerTransportOptions,
} from "./exact-web-standard-server-transport.js";
export type { NumberLoss, NumberLossCode } from "./number-loss.js";
export {
  ARGUMENTS_JSON_META_KEY,
  type ExactServerOptions,
  type MessageHandler,
} from "./request-gate.js";
