// mcp-remote at the signed-in URL with no header (SPEC §8.1): the 401 sends it into its own OAuth
// flow (discovery, registration, PKCE, a loopback callback); the URL it prints is driven in
// headless Chromium, where the person approves with the machine's token; then a host's model plays.
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, openPage } from "../support/browser";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { startBridge } from "./mcp-remote-bridge";
import { playFromContent, ScriptedModel } from "./scripted-model";

const base = inject("baseUrl");
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
    const bridge = startBridge(`${base}/mcp/signed-in`);
    const { client, transport } = bridge;
    try {
      const connected = client.connect(transport);
      const authUrl = await printedUrl(bridge.log);
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
      await expectPlayedFromText(player, machine.machineId, { name: "my-desktop-agent", source: "argument" }, base);
    } finally {
      await bridge.close();
    }
    expect(bridge.log()).toMatch(/Please authorize this client by visiting/);
  });
});
