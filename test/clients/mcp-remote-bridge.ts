// mcp-remote, the stdio bridge desktop hosts use, spawned as a host would and driven by the
// official SDK's client over stdio; its stderr is kept, since what it prints is part of the test.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const bridgeScript = createRequire(import.meta.url).resolve("mcp-remote/dist/proxy.js");

export interface Bridge {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the bridge printed on stderr so far. */
  log(): string;
  /** Closes the client and removes the bridge's own config folder. */
  close(): Promise<void>;
}

/** A bridge to `url` with `args` after it, its tokens kept in a fresh folder, never opening a browser. */
export function startBridge(url: string, args: string[] = []): Bridge {
  const configDir = mkdtempSync(join(tmpdir(), "mosaic-mcp-remote-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridgeScript, url, ...args],
    env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: "false" },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const client = new Client({ name: "desktop-host", version: "1.0.0" });
  return {
    client,
    transport,
    log: () => log,
    close: async () => {
      await client.close().catch(() => {});
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
