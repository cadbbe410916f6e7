import { defineConfig } from "vitest/config";

// The long fault suites (`npm run test:faults`, also run by CI): each starts its own
// `wrangler dev`, kills it, or floods it; kept out of `npm test` for time (docs/faults.md).
export default defineConfig({
  test: {
    name: "faults",
    include: ["test/faults/**/*.test.ts"],
    environment: "node",
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
