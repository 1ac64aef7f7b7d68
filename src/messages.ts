// Entry point "struct-json-bridge/messages": the generated toolbridge.v1
// messages and service (from proto/toolbridge/v1/toolbridge.proto), for apps
// that use this package's copy rather than generating their own from the
// .proto it ships. A subpath, so the root stays the bridge's functions.

export * from "../gen/toolbridge/v1/toolbridge_pb.js";
