import { describe, expect, inject, it } from "vitest";
import { callToolStructured, CLIENT_FLAVOURS, withClient, type ClientFlavour } from "../support/mcp-clients";

const EXPECTED_VERSION: Record<ClientFlavour, string> = { v1: "2025-11-25", "v2-legacy": "2025-11-25", "v2-modern": "2026-07-28" };

describe("official MCP SDK clients against wrangler dev", () => {
  const base = inject("baseUrl");

  for (const flavour of CLIENT_FLAVOURS) {
    it(`${flavour}: connects on ${EXPECTED_VERSION[flavour]}, lists tools, reads the rules, calls list_games`, async () => {
      await withClient(base, { flavour }, async (client) => {
        expect(client.protocolVersion).toBe(EXPECTED_VERSION[flavour]);
        expect(client.serverName).toBe("mosaic");

        const tools = await client.listTools();
        expect(tools.map((t) => t.name)).toContain("list_games");
        for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();

        const rules = await client.readResource("mosaic://rules");
        expect(rules).toHaveLength(1);
        expect(rules[0].mimeType).toBe("text/plain");
        expect(rules[0].text).toContain("MOSAIC RULES");

        const listed = await callToolStructured<{ games: unknown[] }>(client, "list_games");
        expect(Array.isArray(listed.games)).toBe(true);
      });
    });

    it(`${flavour}: sends extra headers (Authorization) on every request`, async () => {
      await withClient(base, { flavour, headers: { Authorization: "Bearer msc_not_a_real_token" } }, async (client) => {
        const listed = await callToolStructured<{ games: unknown[] }>(client, "list_games");
        expect(Array.isArray(listed.games)).toBe(true);
      });
    });
  }

  it("v2 pinned to 2026-07-28 connects without any fallback", async () => {
    await withClient(base, { flavour: "v2-modern", pin: "2026-07-28" }, async (client) => {
      expect(client.protocolVersion).toBe("2026-07-28");
      expect((await client.listTools()).map((t) => t.name)).toContain("list_games");
    });
  });

  it("serves many clients of every flavour at once (no session state to share)", async () => {
    const runs = Array.from({ length: 6 }, (_, i) =>
      withClient(base, { flavour: CLIENT_FLAVOURS[i % CLIENT_FLAVOURS.length] }, async (client) => {
        for (let k = 0; k < 3; k++) await callToolStructured(client, "list_games");
        return client.flavour;
      }),
    );
    expect((await Promise.all(runs)).sort()).toEqual([...CLIENT_FLAVOURS, ...CLIENT_FLAVOURS].sort());
  });
});
