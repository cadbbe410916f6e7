// mcp-remote, the stdio bridge desktop hosts use for remote servers: spawned with a static bearer
// header, driven over stdio by an MCP client as a desktop host would; every HTTP exchange is
// recorded on the way to the server. It must connect and never be pushed into OAuth.
import { describe, expect, inject, it } from "vitest";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { startBridge } from "./mcp-remote-bridge";
import { recordingProxy } from "./recording-proxy";
import { playFromContent, ScriptedModel } from "./scripted-model";

const base = inject("baseUrl");

describe("mcp-remote", () => {
  it("connects with a static bearer header, is never answered 401 nor sent to OAuth, and a host's model plays from the content", async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const proxy = await recordingProxy(base);
    const bridge = startBridge(`${proxy.url}/mcp`, ["--header", `Authorization: Bearer ${token}`]);
    const { client, transport } = bridge;
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe("mosaic");
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      for (const t of tools.tools) expect(t.inputSchema, t.name).toMatchObject({ type: "object" });
      const rules = await client.readResource({ uri: "mosaic://rules" });
      expect((rules.contents[0] as { text?: string }).text).toContain("MOSAIC RULES");

      // A desktop host shows its model the content blocks.
      const player = new ScriptedModel({ G: 30, seed: "clients-mcp-remote", session: "mr", model: "scripted", harness: "my-desktop-agent" });
      await playFromContent(client, player);
      // A 2025-era host: the stateless server cannot keep its initialize-time name, so the argument names it.
      await expectPlayedFromText(player, machine.machineId, { name: "my-desktop-agent", source: "argument" }, base);
    } finally {
      await bridge.close();
      await proxy.close();
    }
    const log = bridge.log();

    const mcp = proxy.exchanges.filter((e) => e.path === "/mcp" || e.path.startsWith("/mcp?"));
    expect(mcp.filter((e) => e.method === "POST").length).toBeGreaterThan(10);
    // The static header rides on every request to the endpoint, and nothing is ever answered 401.
    expect(mcp.every((e) => e.authorization)).toBe(true);
    expect(proxy.exchanges.filter((e) => e.status === 401)).toEqual([]);
    // No OAuth flow: no client registration, authorisation or token request, no "authentication required".
    expect(proxy.exchanges.filter((e) => /\/(register|authorize|token|oauth\/)/.test(e.path))).toEqual([]);
    expect(log).not.toMatch(/Authentication required|authorize this client|Waiting for authorization/i);
    expect(log).toContain("Using custom headers: Authorization");
  });
});
