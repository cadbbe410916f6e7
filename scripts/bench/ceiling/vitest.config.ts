import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";

const root = fileURLToPath(new URL("../../../", import.meta.url));

// The in-process ceiling of one field object (npm run bench:load runs it): the Worker's own
// wrangler.toml in workerd through the vitest plugin; not part of `npm test`.
export default defineConfig({
  root,
  plugins: [cloudflareTest({ wrangler: { configPath: `${root}wrangler.toml` } })],
  test: {
    include: ["scripts/bench/ceiling/*.bench-run.ts"],
    testTimeout: 900_000,
  },
});
