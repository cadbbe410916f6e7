import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { linked, send, unlinkBody } from "./account-helpers";
import { createPlaying, errorOf, joinArgs, ok } from "./game-helpers";
import { machine } from "./identity-helpers";

/**
 * Accounts on a field (SPEC §8.2, §11): the leaderboard names each machine's account and the
 * analysis groups by account, while health, seats and the three-session rule stay per machine.
 */

type Account = { id: string; name: string } | null;
type Board = { rows: Array<{ machine: string; account: Account; health: { state: string }; sessions: string[] }> };
type Analysis = { by_account: Array<{ key: string; name: string | null; agents: number; machines: number }>; by_model: Array<{ key: string }> };

async function read<T>(path: string): Promise<T> {
  const res = await exports.default.fetch(new Request(`http://mosaic.test${path}`));
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe("accounts on the leaderboard and in the analysis", () => {
  it("a linked account's machines keep their own seats, sessions and health; rows and groups name the account", async () => {
    const { stub, gameId, field } = await createPlaying({ kind: "scatter", G: 40 }, 40);
    const [laptop, server, loner] = [await machine(), await machine(), await machine()];
    const account = await linked(laptop, "Ada", server);

    // Three sessions each, counted per machine: linking does not pool the seats.
    const agents = new Map<string, Array<{ agent: string; seed: number }>>();
    let rev = 0;
    for (const m of [laptop, server]) {
      for (const session of ["1", "2", "3"]) {
        const seat = ok(await stub.join(joinArgs(m.machineId, session)));
        agents.set(m.machineId, [...(agents.get(m.machineId) ?? []), { agent: String(seat.agent), seed: Number(seat.seed_tile) }]);
        rev = Number(seat.revision);
      }
      const fourth = errorOf(await stub.join(joinArgs(m.machineId, "4")));
      expect(fourth.message, fourth.code).toMatch(/3 sessions/);
    }
    rev = Number(ok(await stub.join(joinArgs(loner.machineId, "1"))).revision);

    // The laptop dies of wrong cells; its account mate plays on (health belongs to the machine).
    const { agent: first, seed: tile } = agents.get(laptop.machineId)![0];
    rev = Number(ok(await stub.write({ input: { type: "reveal", agent: first, expectedRevision: rev, tile, intent: "x" }, machineId: laptop.machineId })).revision);
    const t = field.tiles[tile];
    const wrong = t.cellIds.filter((c) => !t.givens.includes(c)).map((c) => [c, (1 - field.solution[c]) as 0 | 1] as [number, 0 | 1]);
    let state = "healthy";
    for (let i = 0; i < 40 && state !== "dead"; i++) {
      const out = ok(await stub.write({ input: { type: "commit", agent: first, expectedRevision: rev, cells: [wrong[i % wrong.length]], intent: "bad" }, machineId: laptop.machineId }));
      rev = Number(out.revision);
      state = (out.health as { state: string }).state;
    }
    expect(state).toBe("dead");
    const { agent: serverAgent, seed: serverTile } = agents.get(server.machineId)![0];
    const alive = await stub.write({ input: { type: "reveal", agent: serverAgent, expectedRevision: rev, tile: serverTile, intent: "y" }, machineId: server.machineId });
    expect(alive.ok, JSON.stringify(alive)).toBe(true);

    const board = await read<Board>(`/api/games/${gameId}/leaderboard`);
    const row = new Map(board.rows.map((r) => [r.machine, r]));
    expect(board.rows).toHaveLength(3);
    expect(row.get(laptop.machineId)).toMatchObject({ account: { id: account, name: "Ada" }, health: { state: "dead" }, sessions: ["1", "2", "3"] });
    expect(row.get(server.machineId)).toMatchObject({ account: { id: account, name: "Ada" }, health: { state: "healthy" }, sessions: ["1", "2", "3"] });
    expect(row.get(loner.machineId)?.account).toBeNull();

    const analysis = await read<Analysis>(`/api/games/${gameId}/analysis`);
    const groups = new Map(analysis.by_account.map((g) => [g.key, g]));
    expect(groups.get(account)).toMatchObject({ name: "Ada", agents: 6, machines: 2 });
    expect(groups.get(loner.machineId)).toMatchObject({ name: null, agents: 1, machines: 1 });
    expect(analysis.by_account).toHaveLength(2);
  });

  it("a machine unlinked before it plays shows no account in its row and groups alone", async () => {
    const { stub, gameId } = await createPlaying({ kind: "scatter", G: 30 }, 30);
    const [a, b] = [await machine(), await machine()];
    const account = await linked(a, "Pair", b);
    expect((await send("/api/accounts/unlink", await unlinkBody(b, account, b.machineId))).status).toBe(200);
    ok(await stub.join(joinArgs(a.machineId)));
    ok(await stub.join(joinArgs(b.machineId)));
    const board = await read<Board>(`/api/games/${gameId}/leaderboard`);
    expect(Object.fromEntries(board.rows.map((r) => [r.machine, r.account?.id ?? null]))).toEqual({ [a.machineId]: account, [b.machineId]: null });
    const analysis = await read<Analysis>(`/api/games/${gameId}/analysis`);
    expect(analysis.by_account.map((g) => g.key).sort()).toEqual([account, b.machineId].sort());
  });
});
