import { describe, expect, inject, it } from "vitest";
import { callToolStructured, connectClient, type ClientFlavour, type McpClient } from "../support/mcp-clients";
import { mintToken, newMachine } from "../support/identity";

// SPEC §6: the harness is taken from the transport when the client identifies itself (2026-07-28
// clientInfo), else from join's `harness` argument, else `unknown`; the source is recorded.
// Each case is a different machine with its own bearer token, playing one small field.

async function player(base: string, flavour: ClientFlavour, clientInfo: { name: string; version: string }): Promise<McpClient> {
  const token = await mintToken(base, newMachine());
  return connectClient(base, { flavour, clientInfo, headers: { Authorization: `Bearer ${token}` } });
}

async function untilPlaying(client: McpClient, gameId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const o = await client.callTool("observe", { game_id: gameId, rect: [0, 0, 1, 1] });
    const status = (o.structuredContent?.observation as { status?: string } | undefined)?.status;
    if (status === "playing") return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`field ${gameId} never started playing`);
}

interface Joined {
  agent: string;
  harness: string;
  harness_source: string;
}

describe("harness recording through real SDK clients", () => {
  const base = inject("baseUrl");

  it("records the transport's clientInfo, else the argument, else unknown — with the source", async () => {
    const modern = await player(base, "v2-modern", { name: "harness-under-test", version: "9.9.9" });
    const v1 = await player(base, "v1", { name: "v1-client-name-not-kept", version: "1.0.0" });
    const legacy = await player(base, "v2-legacy", { name: "legacy-client-name-not-kept", version: "1.0.0" });
    try {
      const { game_id } = await callToolStructured<{ game_id: string }>(modern, "start_mosaic", { kind: "grid", n: 6, G: 11, seed: `harness-${Date.now()}` });
      await untilPlaying(modern, game_id);

      const fromTransport = await callToolStructured<Joined>(modern, "join", { game_id, harness: "typed-by-the-model" });
      expect(fromTransport.harness).toBe("harness-under-test/9.9.9");
      expect(fromTransport.harness_source).toBe("transport");

      // 2025-era clients sent clientInfo only in initialize, which a stateless server does not keep.
      const fromArgument = await callToolStructured<Joined>(v1, "join", { game_id, harness: "my-agent-loop" });
      expect(fromArgument.harness).toBe("my-agent-loop");
      expect(fromArgument.harness_source).toBe("argument");

      const unknown = await callToolStructured<Joined>(legacy, "join", { game_id });
      expect(unknown.harness).toBe("unknown");
      expect(unknown.harness_source).toBe("unknown");

      // A 2026-07-28 client named like the server (Mastra, OpenAI Agents) or with an SDK's default
      // name identifies nothing: the argument wins, else unknown (SPEC §6).
      for (const [name, argument] of [["mosaic", "labelled-by-user"], ["ai-sdk-mcp-client", undefined]] as const) {
        const labelled = await player(base, "v2-modern", { name, version: "1.0.0" });
        try {
          const joined = await callToolStructured<Joined>(labelled, "join", { game_id, ...(argument ? { harness: argument } : {}) });
          expect(joined.harness, name).toBe(argument ?? "unknown");
          expect(joined.harness_source, name).toBe(argument ? "argument" : "unknown");
        } finally {
          await labelled.close();
        }
      }
    } finally {
      await Promise.all([modern.close(), v1.close(), legacy.close()]);
    }
  });
});
