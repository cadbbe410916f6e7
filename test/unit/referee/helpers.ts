import type { Field } from "../../../src/engine/types";
import { Referee } from "../../../src/referee/referee";
import type { FieldRules, WriteInput, WriteResult } from "../../../src/referee/types";
import type { ForcingOracleFactory } from "../../../src/referee/forcing";
import { expect } from "vitest";
import { gridField } from "./fixtures";

export const T0 = 1_800_000_000_000;

/** A small deterministic generator for random play: `rnd(n)` is an integer in [0, n). */
export function lcg(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

export function makeReferee(field: Field, rules: Partial<FieldRules> = {}, forcing?: ForcingOracleFactory, seed = "seed-1"): Referee {
  return new Referee({ gameId: "test-game", seed, field, rules: { guess: "accept", depth: 0, fog: false, ...rules }, forcing });
}

export function joinInput(machineId: string, session = "1"): WriteInput {
  return { type: "join", machineId, session, name: `${machineId} bot`, model: "test-model", harness: "vitest", harnessSource: "argument", tags: {}, verified: true };
}

/** Apply and insist on success; returns the answer. */
export function ok(ref: Referee, input: WriteInput, at = T0): Record<string, unknown> {
  const r = ref.apply(input, at);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.answer;
}

export function expectError(r: WriteResult): { code: string; message: string; revision?: number } {
  if (r.ok) throw new Error(`expected an error, got ok: ${JSON.stringify(r.answer).slice(0, 200)}`);
  return r.error;
}

export function machineOf(agent: string): string {
  return agent.slice(0, agent.lastIndexOf("/"));
}

export function reveal(ref: Referee, agent: string, tile: number, expectedRevision = ref.revision): WriteResult {
  return ref.apply({ type: "reveal", machineId: machineOf(agent), agent, expectedRevision, tile, intent: `reveal ${tile}` }, T0);
}

export function commit(ref: Referee, agent: string, cells: Array<[number, 0 | 1]>, expectedRevision = ref.revision, at = T0): WriteResult {
  return ref.apply({ type: "commit", machineId: machineOf(agent), agent, expectedRevision, cells, intent: `commit ${cells.length}` }, at);
}

export function retract(ref: Referee, agent: string, cells: number[], expectedRevision = ref.revision): WriteResult {
  return ref.apply({ type: "retract", machineId: machineOf(agent), agent, expectedRevision, cells, intent: `retract ${cells.length}` }, T0);
}

/** Unknown cells of a tile with their true values. */
export function unknownCellsOf(ref: Referee, field: Field, tile: number): Array<[number, 0 | 1]> {
  const out: Array<[number, 0 | 1]> = [];
  for (const c of field.tiles[tile].cellIds) if (ref.cell(c)?.value === -1) out.push([c, field.solution[c] as 0 | 1]);
  return out;
}

/**
 * One move of an honest player: reveal the lowest hidden frontier tile, else commit the true
 * values of the lowest revealed frontier tile. Returns false when the agent has nothing to do.
 */
export function honestStep(ref: Referee, field: Field, agent: string): boolean {
  const frontier = ref.frontier(agent) ?? [];
  for (const t of frontier) {
    if (ref.tileStatus(t)?.status === "hidden") {
      const r = reveal(ref, agent, t);
      if (!r.ok) throw new Error(`reveal ${t} failed: ${r.error.message}`);
      return true;
    }
  }
  for (const t of frontier) {
    const cells = unknownCellsOf(ref, field, t);
    if (cells.length === 0) continue;
    const r = commit(ref, agent, cells);
    if (!r.ok) throw new Error(`commit on ${t} failed: ${r.error.message}`);
    return true;
  }
  return false;
}

/** Let the agents play honestly in turn until none can move. */
export function playOut(ref: Referee, field: Field, agents: string[], maxSteps = 10_000): void {
  for (let step = 0; step < maxSteps; step++) {
    let moved = false;
    for (const a of agents) moved = honestStep(ref, field, a) || moved;
    if (!moved) return;
  }
  throw new Error("play did not finish");
}

/** Two machines on a grid, played until their groups met: they share one frontier. */
export function groupMates(): { field: Field; ref: Referee; a: string; b: string } {
  const field = gridField(4, 5, { givenEvery: 4 });
  const ref = makeReferee(field);
  const a = ok(ref, joinInput("m-a")).agent as string;
  const b = ok(ref, joinInput("m-b")).agent as string;
  for (let i = 0; i < 200 && (ref.groupOf(a) as string[]).length < 2; i++) {
    honestStep(ref, field, a);
    if ((ref.groupOf(a) as string[]).length < 2) honestStep(ref, field, b);
  }
  expect(ref.groupOf(a)).toEqual([a, b].sort());
  return { field, ref, a, b };
}
