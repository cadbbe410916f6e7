import { defineConfig } from "vitest/config";

// The long fault suite (`npm run test:faults`, also run by CI): 10,000 hostile requests against its
// own `wrangler dev`; kept out of `npm test` for time (docs/faults.md).
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
