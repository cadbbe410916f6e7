import { fileURLToPath } from "node:url";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * A benchmark that runs inside workerd: the Worker's own wrangler.toml through the vitest plugin,
 * the files matching `include` (relative to the repository), never part of `npm test`.
 */
export function inWorkerd(include: string): ViteUserConfig {
  return defineConfig({
    root,
    plugins: [cloudflareTest({ wrangler: { configPath: `${root}wrangler.toml` } })],
    test: { include: [include], testTimeout: 900_000 },
  });
}
