import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect } from "vitest";
import { generateField, type FieldParams } from "../../src/engine";
import type { Field } from "../../src/engine/types";
import type { FieldObject, FieldShape, JoinArgs, Outcome } from "../../src/game/field-object";
import type { FieldRules } from "../../src/referee/types";

/** Helpers for driving a FieldObject directly over RPC, as the MCP tools do. */

export type RawStub = ReturnType<typeof env.FIELDS.getByName>;
/** The object's RPC surface with its declared types (RPC stubs erase `unknown` fields). */
export type Stub = Pick<FieldObject, "create" | "join" | "write" | "observe" | "status" | "manifest" | "events" | "close" | "closeDay" | "publicRead">;

export function fieldApi(raw: RawStub): Stub {
  return raw as unknown as Stub;
}
export type Answer = Record<string, unknown>;

export const RULES: FieldRules = { guess: "accept", depth: 0, fog: false };

let counter = 0;
export function uniqueId(label: string): string {
  return `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
}

export function machineId(n: number): string {
  return "m-" + n.toString(16).padStart(16, "0");
}

export function joinArgs(machine: string, session = "1"): JoinArgs {
  return {
    machineId: machine,
    session,
    name: `tester ${machine.slice(-4)}`,
    model: "script",
    harness: "vitest",
    harnessSource: "argument",
    tags: { test: "" },
    verified: true,
    issueSecret: false,
  };
}

/** The answer of an outcome that must have succeeded. */
export function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.answer;
}

export function errorOf<T>(outcome: Outcome<T>): { code: string; message: string; revision?: number } {
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.answer).slice(0, 300)}`);
  return outcome.error;
}

/** Creates a field and runs its generation alarm until it is playing; returns the stub and the oracle. */
export async function createPlaying(
  params: FieldShape,
  G: number,
  options: { rules?: FieldRules; seed?: string; gameId?: string; grow?: { every_minutes?: number; frontier_coverage?: number } } = {},
): Promise<{ stub: Stub; raw: RawStub; gameId: string; field: Field; seed: string }> {
  const gameId = options.gameId ?? uniqueId(params.kind);
  const seed = options.seed ?? `seed-${gameId}`;
  const raw = env.FIELDS.getByName(gameId);
  const stub = fieldApi(raw);
  ok(await stub.create({ gameId, params, rules: options.rules ?? RULES, G, seed, grow: options.grow }));
  await waitPlaying(raw);
  // The oracle: generation is a pure function of (seed, params), so the test can know the solution.
  const field = await generateField({ ...params, seed } as FieldParams);
  return { stub, raw, gameId, field, seed };
}

export async function waitPlaying(raw: RawStub, timeoutMs = 50_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const stub = fieldApi(raw);
  await runDurableObjectAlarm(raw);
  for (;;) {
    const s = await stub.status();
    if (s.status !== "generating") {
      expect(s.status, s.failure).toBe("playing");
      return;
    }
    if (Date.now() > deadline) throw new Error("generation did not finish in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface ObservedTile {
  id: number;
  status: "hidden" | "revealed" | "solved";
}

/**
 * A scripted agent that knows the solution (the oracle field): for every tile on its frontier it
 * reveals the tile if hidden and commits its remaining cells. When no agent can progress, a new
 * machine joins (seed tiles are far from other agents), until the referee reports the field solved.
 */
export class ScriptedPlayers {
  readonly agents: string[] = [];
  revision = 0;
  private nextMachine: number;

  constructor(
    private readonly stub: Stub,
    private readonly field: Field,
    firstMachine = 1,
  ) {
    this.nextMachine = firstMachine;
  }

  /** Seats one more machine; `overrides` change its join (a declared model, say). */
  async join(overrides: Partial<JoinArgs> = {}): Promise<string> {
    const a = ok(await this.stub.join({ ...joinArgs(machineId(this.nextMachine++)), ...overrides }));
    this.revision = Math.max(this.revision, Number(a.revision));
    this.agents.push(String(a.agent));
    return String(a.agent);
  }

  /** One pass over every agent's frontier; returns how many tiles were played. */
  async pass(maxTiles = Infinity): Promise<number> {
    let played = 0;
    for (const agent of this.agents) {
      const observation = ok(await this.stub.observe({ agent })).observation as { frontier: number[]; tiles: ObservedTile[]; revision: number };
      this.revision = Math.max(this.revision, observation.revision);
      const status = new Map(observation.tiles.map((t) => [t.id, t.status]));
      for (const tileId of observation.frontier) {
        if (played >= maxTiles) return played;
        await this.playTile(agent, tileId, status.get(tileId) ?? "hidden");
        played++;
      }
    }
    return played;
  }

  async playTile(agent: string, tileId: number, status: string): Promise<void> {
    if (status === "hidden") {
      const r = ok(await this.stub.write({ input: { type: "reveal", agent, expectedRevision: this.revision, tile: tileId, intent: `reveal ${tileId}` }, machineId: agent.split("/")[0] }));
      this.revision = Number(r.revision);
    }
    const tile = this.field.tiles[tileId];
    const given = new Set(tile.givens);
    const cells = tile.cellIds.filter((c) => !given.has(c)).map((c) => [c, this.field.solution[c] as 0 | 1] as [number, 0 | 1]);
    for (let i = 0; i < cells.length; i += 512) {
      const r = ok(
        await this.stub.write({
          input: { type: "commit", agent, expectedRevision: this.revision, cells: cells.slice(i, i + 512), intent: `solve ${tileId}` },
          machineId: agent.split("/")[0],
        }),
      );
      expect(r.rejected).toEqual([]);
      this.revision = Number(r.revision);
    }
  }

  /** Plays until the field is solved. */
  async playToEnd(maxRounds = 500): Promise<void> {
    if (this.agents.length === 0) await this.join();
    for (let round = 0; round < maxRounds; round++) {
      if ((await this.stub.status()).status === "solved") return;
      if ((await this.pass()) === 0) await this.join();
    }
    throw new Error("the field was not solved");
  }
}
