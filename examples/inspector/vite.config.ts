// Vite builds the inspector into one self-contained static page (no CDN, no
// external fonts), served on 127.0.0.1 only.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  // Relative asset URLs: the built page also works from any folder or file server.
  base: "./",
  clearScreen: false,
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173 },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: true },
});
