/**
 * A day on a field played with the real referee by scripted machines: joins, reveals, commits
 * (mostly true values, some wrong ones, a machine that commits wrong cells until it dies),
 * retractions, rings grown and a close. Every event is chained as the field object chains it.
 */
import type { Field } from "../../../src/engine/types";
import { chainEvent } from "../../../src/game/chain";
import { Referee } from "../../../src/referee/referee";
import type { FieldRules, RefereeEvent, WriteInput } from "../../../src/referee/types";
import type { PublicEvent } from "../../../src/spectator";
import { lcg, T0 } from "../referee/helpers";

export interface DayOptions {
  gameId?: string;
  rules: FieldRules;
  /** Tile counts after each ring (growth), the initial count first. */
  rings?: number[];
  steps: number;
  seed: number;
  close?: boolean;
}

export interface PlayedDay {
  referee: Referee;
  events: PublicEvent[];
  seedCommit: string;
  /** Cells whose last verdict was a rejection (wrong or refused guess), by reason. */
  lastRejected: Map<number, "wrong" | "guess">;
}

export function playDay(whole: Field, opts: DayOptions, afterEvent?: (ref: Referee, event: PublicEvent) => void): PlayedDay {
  const rings = opts.rings ?? [whole.tiles.length];
  const field: Field = { G: whole.G, tiles: whole.tiles.slice(0, rings[0]), solution: whole.solution };
  const referee = new Referee({ gameId: opts.gameId ?? "spectator-day", seed: "spectator-seed", field, rules: opts.rules });
  const seedCommit = "0".repeat(63) + "1";
  let prev = seedCommit;
  const events: PublicEvent[] = [];
  const lastRejected = new Map<number, "wrong" | "guess">();
  const rnd = lcg(opts.seed);
  let at = T0;

  const record = (event: RefereeEvent | null): void => {
    if (!event) return;
    const chained = chainEvent(prev, event);
    prev = chained.hash;
    const e = JSON.parse(JSON.stringify(chained.event)) as PublicEvent;
    events.push(e);
    afterEvent?.(referee, e);
  };
  const write = (input: WriteInput): Record<string, unknown> | null => {
    at += 1 + rnd(500);
    const r = referee.apply(input, at);
    if (!r.ok) return null;
    record(r.event);
    return r.answer;
  };

  const machines = ["m-aaaa", "m-bbbb", "m-cccc", "m-dddd", "m-eeee"];
  const doomed = "m-eeee";
  for (let i = 0; i < opts.steps && referee.status !== "closed"; i++) {
    const ring = referee.grown + 1;
    if (ring < rings.length && (rnd(40) === 0 || referee.status === "solved")) {
      at += 1 + rnd(500);
      const tiles = whole.tiles.slice(referee.tilesTotal(), rings[ring]);
      const g = referee.grow({ ring, tiles, solution: whole.solution }, at);
      if (g.ok) record(g.event);
      continue;
    }
    if (referee.status === "solved") break;
    const seated = referee.agents().map((a) => String(a.id));
    if (seated.length < 3 || rnd(30) === 0) {
      const m = machines[rnd(machines.length)];
      write({ type: "join", machineId: m, session: String(1 + rnd(3)), name: `${m} bot`, model: ["alpha", "beta"][rnd(2)], harness: ["h1", "h2"][rnd(2)], harnessSource: "argument", tags: rnd(2) ? { fast: "" } : {}, verified: true });
      continue;
    }
    const agent = seated[rnd(seated.length)];
    const machineId = agent.slice(0, agent.lastIndexOf("/"));
    const frontier = referee.frontier(agent) ?? [];
    if (frontier.length === 0) continue;
    const tile = frontier[rnd(frontier.length)];
    const status = referee.tileStatus(tile)?.status;
    const base = { machineId, agent, expectedRevision: referee.revision };
    if (status === "hidden") {
      write({ ...base, type: "reveal", tile, intent: `reveal ${tile}` });
      continue;
    }
    const unknown = whole.tiles[tile].cellIds.filter((c) => referee.cell(c)?.value === -1);
    if (machineId === doomed && rnd(3) === 0) {
      // Wrong values until the machine dies (30 wrong cells in a short window).
      const cells = unknown.slice(0, 12).map((c) => [c, 1 - whole.solution[c]] as [number, 0 | 1]);
      if (cells.length) commitTracked(write, base, cells, lastRejected);
      continue;
    }
    const k = rnd(10);
    if (k === 0 && referee.cell(unknown[0] ?? -1) !== null) {
      commitTracked(write, base, [[unknown[0], (1 - whole.solution[unknown[0]]) as 0 | 1]], lastRejected);
    } else if (k <= 2) {
      const mine = whole.tiles[tile].cellIds.filter((c) => referee.cell(c)?.origin === machineId);
      if (mine.length) write({ ...base, type: "retract", cells: mine.slice(0, 1 + rnd(mine.length)), intent: "undo" });
    } else {
      const take = k < 8 ? unknown.slice(0, 1 + rnd(4)) : unknown;
      const cells = take.map((c) => [c, whole.solution[c]] as [number, 0 | 1]);
      if (rnd(8) === 0 && cells.length > 1) cells[1] = [cells[1][0], (1 - cells[1][1]) as 0 | 1];
      if (cells.length) commitTracked(write, base, cells, lastRejected);
    }
  }
  if (opts.close) {
    at += 1;
    record(referee.close(at));
  }
  return { referee, events, seedCommit, lastRejected };
}

function commitTracked(
  write: (input: WriteInput) => Record<string, unknown> | null,
  base: { machineId: string; agent: string; expectedRevision: number },
  cells: Array<[number, 0 | 1]>,
  lastRejected: Map<number, "wrong" | "guess">,
): void {
  const answer = write({ ...base, type: "commit", cells, intent: `commit ${cells.length} <b>cells</b>` });
  // A commit that changed nothing (only refused guesses) leaves no event, so no public mark.
  if (!answer || answer.revision !== base.expectedRevision + 1) return;
  for (const r of answer.rejected as Array<{ id: number; reason: "wrong" | "guess" }>) lastRejected.set(r.id, r.reason);
  for (const a of answer.accepted as Array<{ id: number }>) lastRejected.delete(a.id);
}
