import { expect } from "vitest";
import { generateField, type FieldParams } from "../../src/engine";
import type { Field } from "../../src/engine/types";
import { callToolStructured, connectClient, type ClientFlavour, type McpClient } from "../support/mcp-clients";
import { mintToken, newMachine, type TestMachine } from "../support/identity";

/** A machine with its bearer token and a connected MCP client that sends it. */
export interface Player {
  machine: TestMachine;
  client: McpClient;
}

export async function newPlayer(baseUrl: string, flavour: ClientFlavour = "v2-modern"): Promise<Player> {
  const machine = newMachine();
  const token = await mintToken(baseUrl, machine);
  const client = await connectClient(baseUrl, { flavour, headers: { Authorization: `Bearer ${token}` }, clientInfo: { name: "play-e2e", version: "1.0.0" } });
  return { machine, client };
}

/** start_mosaic with a known seed, then polls observe until the field is playing. Returns the oracle too. */
export async function startPlaying(client: McpClient, args: Record<string, unknown> & { kind: FieldParams["kind"] }): Promise<{ gameId: string; field: Field; G: number }> {
  const seed = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const started = await callToolStructured<{ game_id: string; status: string; G: number; kind: string; spectator_url: string }>(client, "start_mosaic", { ...args, seed });
  expect(started.status).toBe("generating");
  expect(started.game_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(started.spectator_url).toContain(started.game_id);
  for (let i = 0; ; i++) {
    const o = await client.callTool("observe", { game_id: started.game_id, rect: [0, 0, 1, 1] });
    expect(o.isError, o.text).toBe(false);
    const status = (o.structuredContent?.observation as { status?: string } | undefined)?.status;
    if (status === "playing") break;
    expect(status).toBe("generating");
    if (i > 600) throw new Error("generation did not finish");
    await new Promise((r) => setTimeout(r, 100));
  }
  const { kind, G, n, chunks, chunk_g } = args as { kind: FieldParams["kind"]; G?: number; n?: number; chunks?: number; chunk_g?: number };
  const params: FieldParams = { kind, seed, ...(kind !== "field" && G !== undefined ? { G } : {}), ...(n ? { n } : {}), ...(chunks ? { chunks } : {}), ...(chunk_g ? { chunk_g } : {}) };
  return { gameId: started.game_id, field: await generateField(params), G: started.G };
}

interface Observation {
  status: string;
  revision: number;
  frontier: number[];
  tiles: Array<{ id: number; status: string }>;
}

/**
 * Agents that know the solution and play through the MCP tools: reveal each frontier tile, commit
 * its cells. When nobody can progress, another machine joins (its seed tile lies elsewhere).
 */
export class McpTeam {
  readonly seats: Array<{ player: Player; agent: string }> = [];
  readonly meets: unknown[] = [];
  revision = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly gameId: string,
    private readonly field: Field,
  ) {}

  async add(player?: Player, session = "1"): Promise<{ player: Player; agent: string }> {
    const p = player ?? (await newPlayer(this.baseUrl));
    const joined = await callToolStructured<{ agent: string; revision: number; seed_tile: number; verified: boolean; harness: string; harness_source: string }>(p.client, "join", {
      game_id: this.gameId,
      session,
      model: "scripted",
    });
    expect(joined.agent).toBe(`${p.machine.machineId}/${session}`);
    expect(joined.verified).toBe(true);
    this.revision = Math.max(this.revision, joined.revision);
    const seat = { player: p, agent: joined.agent };
    this.seats.push(seat);
    return seat;
  }

  async observe(seat: { player: Player; agent: string }): Promise<Observation> {
    const o = await callToolStructured<{ observation: Observation }>(seat.player.client, "observe", { game_id: this.gameId, agent: seat.agent });
    this.revision = Math.max(this.revision, o.observation.revision);
    return o.observation;
  }

  async playTile(seat: { player: Player; agent: string }, tileId: number, status: string): Promise<void> {
    const { client } = seat.player;
    if (status === "hidden") {
      const r = await callToolStructured<{ revision: number; givens: unknown[] }>(client, "reveal", {
        game_id: this.gameId, agent: seat.agent, expected_revision: this.revision, tile: tileId, intent: `reveal ${tileId}`,
      });
      this.revision = r.revision;
    }
    const tile = this.field.tiles[tileId];
    const given = new Set(tile.givens);
    const cells = tile.cellIds.filter((c) => !given.has(c)).map((c) => [c, this.field.solution[c]]);
    for (let i = 0; i < cells.length; i += 512) {
      const r = await callToolStructured<{ revision: number; rejected: unknown[]; meets: unknown[] }>(client, "commit", {
        game_id: this.gameId, agent: seat.agent, expected_revision: this.revision, cells: cells.slice(i, i + 512), intent: `solve tile ${tileId}`,
      });
      expect(r.rejected).toEqual([]);
      this.meets.push(...r.meets);
      this.revision = r.revision;
    }
  }

  async pass(): Promise<number> {
    let played = 0;
    for (const seat of this.seats) {
      const o = await this.observe(seat);
      const status = new Map(o.tiles.map((t) => [t.id, t.status]));
      for (const tileId of o.frontier) {
        await this.playTile(seat, tileId, status.get(tileId) ?? "hidden");
        played++;
      }
    }
    return played;
  }

  async playToEnd(maxRounds = 400): Promise<void> {
    if (this.seats.length === 0) await this.add();
    for (let round = 0; round < maxRounds; round++) {
      const o = await this.observe(this.seats[0]);
      if (o.status === "solved") return;
      if ((await this.pass()) === 0) await this.add();
    }
    throw new Error("the field was not solved");
  }

  async close(): Promise<void> {
    await Promise.all(this.seats.map((s) => s.player.client.close().catch(() => {})));
  }
}
