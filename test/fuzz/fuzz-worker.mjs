// Worker threads do not inherit the runner's `--import tsx` on Node 20: this
// plain-JS entry registers tsx in the worker, then loads the TypeScript loop.
import { register } from "tsx/esm/api";

register();
await import("./fuzz-worker.ts");
