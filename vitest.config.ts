import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";

// Three projects: pure code in plain Node, the Worker inside workerd, and the
// whole service over HTTP against `wrangler dev`.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
      },
      {
        // MOSAIC_FAULTS: the objects' failure-injection hook, for tests only (src/game/fault-hook.ts).
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" }, miniflare: { bindings: { MOSAIC_FAULTS: "1" } } })],
        test: { name: "workers", include: ["test/workers/**/*.test.ts"], testTimeout: 60_000 },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/clients/*.test.ts"],
          environment: "node",
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
