// Identity at `join` over MCP (SPEC §8): proof joins are single-use and bound to their key; bad
// bearer tokens are refused with the token code and a "mint again" message.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { joinProofArgs, mintToken, newMachine } from "../support/identity";
import { connectClient, type McpClient } from "../support/mcp-clients";

const base = inject("baseUrl");
let anonymous: McpClient;
let gameId = "";

beforeAll(async () => {
  anonymous = await connectClient(base, { flavour: "v2-modern" });
  const started = await anonymous.callTool("start_mosaic", { kind: "grid", G: 27, n: 14, seed: `identity-join-${Date.now()}` });
  expect(started.isError, started.text).toBe(false);
  gameId = String(started.structuredContent?.game_id);
  for (let i = 0; i < 600; i++) {
    const o = await anonymous.callTool("observe", { game_id: gameId, rect: [0, 0, 1, 1] });
    const status = (o.structuredContent?.observation as { status?: string } | undefined)?.status;
    if (status === "playing") return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the field did not start playing");
});
afterAll(async () => anonymous?.close());

function errorOf(r: { isError: boolean; structuredContent?: Record<string, unknown> }): { code: string; message: string } {
  expect(r.isError).toBe(true);
  return (r.structuredContent?.error ?? {}) as { code: string; message: string };
}

describe("join and identity", () => {
  it("a proof join seats the machine once; the same proof again is refused as replayed", async () => {
    const m = newMachine();
    const args = { game_id: gameId, model: "scripted", ...joinProofArgs(m, gameId, "1") };
    const first = await anonymous.callTool("join", args);
    expect(first.isError, first.text).toBe(false);
    expect(first.structuredContent).toMatchObject({ agent: `${m.machineId}/1`, verified: true, agent_secret: expect.any(String) });
    const replay = await anonymous.callTool("join", args);
    const e = errorOf(replay);
    expect(e.code).toBe("proof");
    expect(e.message).toMatch(/^replayed proof: this join proof was already used/);
    expect(replay.text).toContain("replayed proof");
  });

  it("accepts the key as SPKI PEM; refuses a machine id that is not the key's", async () => {
    const m = newMachine();
    const pem = await anonymous.callTool("join", { game_id: gameId, ...joinProofArgs(m, gameId, "pem"), public_key: m.publicKeyPem });
    expect(pem.isError, pem.text).toBe(false);
    expect(pem.structuredContent?.agent).toBe(`${m.machineId}/pem`);
    const other = newMachine();
    const e = errorOf(await anonymous.callTool("join", { game_id: gameId, ...joinProofArgs(m, gameId, "2"), machine_id: other.machineId }));
    expect(e).toEqual({ code: "identity", message: `machine_id ${other.machineId} does not match public_key, whose machine id is ${m.machineId}` });
  });

  it("a stale proof is refused", async () => {
    const m = newMachine();
    const minute = Math.floor(Date.now() / 60_000) - 3;
    const e = errorOf(await anonymous.callTool("join", { game_id: gameId, ...joinProofArgs(m, gameId, "1", minute) }));
    expect(e.code).toBe("proof");
    expect(e.message).toMatch(new RegExp(`^stale proof: it was signed for unix minute ${minute}`));
  });

  it("a replaced token and a token the server never minted are refused with 'mint again'", async () => {
    const m = newMachine();
    const old = await mintToken(base, m);
    const current = await mintToken(base, m);
    for (const [token, message] of [
      [old, /replaced by a newer one.*Mint a new one: POST \/api\/keys\/auth/],
      [`msc_${m.machineId.slice(2)}_${"Q".repeat(43)}`, /^Unknown bearer token: this server did not mint it/],
    ] as const) {
      const client = await connectClient(base, { flavour: "v2-modern", headers: { Authorization: `Bearer ${token}` } });
      try {
        const e = errorOf(await client.callTool("join", { game_id: gameId, session: "1" }));
        expect(e.code).toBe("token");
        expect(e.message).toMatch(message);
      } finally {
        await client.close();
      }
    }
    const ok = await connectClient(base, { flavour: "v2-modern", headers: { Authorization: `Bearer ${current}` } });
    try {
      const joined = await ok.callTool("join", { game_id: gameId, session: "1" });
      expect(joined.isError, joined.text).toBe(false);
      expect(joined.structuredContent).toMatchObject({ agent: `${m.machineId}/1`, verified: true });
    } finally {
      await ok.close();
    }
  });
});
