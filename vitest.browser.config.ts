import { defineConfig } from "vitest/config";

// The tests that drive a real Chromium (playwright-core + /usr/bin/chromium).
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
