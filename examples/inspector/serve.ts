// `npm run inspector`: builds the inspector page with Vite, serves the built
// page on 127.0.0.1 (vite preview), and starts the demo's web server
// (Connect + gRPC-Web) so that the page's live panel has a stream to read.
//
// node --import tsx examples/inspector/serve.ts [--port N] [--no-live]

import { fileURLToPath } from "node:url";
import { build, preview } from "vite";
import { demoWebActions, startWebToolCallServer } from "../demo/web-server.js";

const CONFIG = fileURLToPath(new URL("vite.config.ts", import.meta.url));

/** Options of {@link startInspector}. */
export interface InspectorServerOptions {
  /** Port of the page on 127.0.0.1; 0 picks a free one. Default 4173. */
  port: number;
  /** Fail when `port` is taken, instead of trying the next ones. Default false. */
  strictPort: boolean;
  /** Where the page is built; default examples/inspector/dist. */
  outDir: string | undefined;
  /** Also start the demo's web server for the live panel. Default true. */
  live: boolean;
}

const inspectorDefaults: Readonly<InspectorServerOptions> = Object.freeze({
  port: 4173,
  strictPort: false,
  outDir: undefined,
  live: true,
});

/** A served inspector. */
export interface InspectorServer {
  /** The page's URL, with `?server=` set when the live server runs. */
  readonly url: string;
  /** The demo web server's base URL, when it runs. */
  readonly liveUrl: string | undefined;
  /** Stops both servers. */
  close(): Promise<void>;
}

/** Builds the page and serves it (and, unless `live` is false, the demo web server). */
export async function startInspector(
  options?: Partial<InspectorServerOptions>,
): Promise<InspectorServer> {
  const opts = { ...inspectorDefaults, ...options };
  const outDir = opts.outDir === undefined ? {} : { outDir: opts.outDir };
  await build({ configFile: CONFIG, logLevel: "warn", build: { ...outDir } });
  const page = await preview({
    configFile: CONFIG,
    logLevel: "warn",
    build: { ...outDir },
    preview: { host: "127.0.0.1", port: opts.port, strictPort: opts.strictPort, open: false },
  });
  const live = opts.live ? await startWebToolCallServer(demoWebActions()) : undefined;
  const base = page.resolvedUrls?.local[0];
  if (base === undefined) throw new Error("vite preview reported no URL");
  // Left unencoded so the printed link stays readable; ":" and "/" are valid in a query.
  const url = live === undefined ? base : `${base}?server=${live.url}`;
  return {
    url,
    liveUrl: live?.url,
    close: async () => {
      await live?.close();
      await page.close();
    },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const i = args.indexOf("--port");
  const port = i === -1 ? inspectorDefaults.port : Number(args[i + 1]);
  const unknown = args.filter(
    (a, k) => !(a === "--no-live" || a === "--port" || (i !== -1 && k === i + 1)),
  );
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535 || unknown.length > 0) {
    console.error("usage: npm run inspector -- [--port N] [--no-live]");
    process.exit(2);
  }
  const server = await startInspector({
    port,
    strictPort: i !== -1,
    live: !args.includes("--no-live"),
  });
  console.log(`Inspector:  ${server.url}`);
  if (server.liveUrl !== undefined) {
    console.log(`Live demo:  ${server.liveUrl} (Connect + gRPC-Web; press Subscribe in the page)`);
  }
  console.log("Ctrl-C stops both.");
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
