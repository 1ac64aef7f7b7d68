import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The browser tests need Debian's Chromium: `npm run test:browser` runs them
    // (and .ci/run installs Chromium first), so `npm test` works on any machine.
    exclude: ["test/browser/**", "**/node_modules/**"],
    // Tests that spawn processes or build big inputs need more than the default.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: forks keep each file's heap separate, which the hostile-input tests rely on.
    pool: "forks",
  },
});
