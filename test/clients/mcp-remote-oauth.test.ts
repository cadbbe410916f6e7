// mcp-remote at the signed-in URL with no header (SPEC §8.1): the 401 sends it into its own OAuth
// flow (discovery, registration, PKCE, a loopback callback); the URL it prints is driven in
// headless Chromium, where the person approves with the machine's token; then a host's model plays.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, openPage } from "../support/browser";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { playFromContent, ScriptedModel } from "./scripted-model";

const base = inject("baseUrl");
const bridge = createRequire(import.meta.url).resolve("mcp-remote/dist/proxy.js");
const browser = browserPerFile();

async function printedUrl(log: () => string): Promise<URL> {
  for (let i = 0; i < 600; i++) {
    const m = /Please authorize this client by visiting:\s*(\S+)/.exec(log());
    if (m) return new URL(m[1]);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`mcp-remote printed no authorization URL:\n${log()}`);
}

describe("mcp-remote at the signed-in URL", () => {
  it("completes its OAuth flow through the consent page and plays as the approving machine", async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const authDir = mkdtempSync(join(tmpdir(), "mosaic-mcp-remote-oauth-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bridge, `${base}/mcp/signed-in`],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: authDir, BROWSER: "false" },
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const client = new Client({ name: "desktop-host", version: "1.0.0" });
    try {
      const connected = client.connect(transport);
      const authUrl = await printedUrl(() => log);
      expect(authUrl.origin).toBe(base);
      expect(authUrl.pathname).toBe("/oauth/authorize");
      expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
      const consent = await openPage(browser(), base, authUrl.pathname + authUrl.search);
      await consent.page.fill("#token", token);
      await consent.page.click("#approve-token");
      await consent.page.waitForURL((u) => u.hostname === "localhost" || u.hostname === "127.0.0.1" ? u.origin !== base : false, { timeout: 30_000 });
      await consent.context.close();
      await connected;

      expect(client.getServerVersion()?.name).toBe("mosaic");
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      const player = new ScriptedModel({ G: 30, seed: "clients-mcp-remote-oauth", session: "mro", model: "scripted", harness: "my-desktop-agent" });
      await playFromContent(client, player);
      expectPlayedFromText(player, machine.machineId, { name: "my-desktop-agent", source: "argument" });
    } finally {
      await client.close().catch(() => {});
      rmSync(authDir, { recursive: true, force: true });
    }
    expect(log).toMatch(/Please authorize this client by visiting/);
  });
});
