/**
 * A late-day spectator state over a real generated field, for the site benchmark: 40 machines
 * (120 agents) have revealed every tile and solved most, with wrong cells rejected here and there.
 * Built by feeding the shared reducer the public events such a day produces, so the snapshot is
 * byte for byte what the server would serve for that state.
 */
import type { Field } from "../../src/engine/types";
import { SpectatorModel, type PublicEvent } from "../../src/spectator";

export function lateDayModel(field: Field, gameId: string, solvedShare = 0.9): SpectatorModel {
  const model = new SpectatorModel({ gameId, G: field.G, fog: false, tilesTotal: field.tiles.length, rules: { guess: "accept", depth: 0, fog: false } });
  model.addTiles(field.tiles.map((t) => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m })));
  let rev = 0;
  let at = 1_800_000_000_000;
  const apply = (e: Omit<PublicEvent, "rev" | "at">): void => {
    model.apply({ ...e, rev: ++rev, at: (at += 40) } as PublicEvent);
  };
  const agents: string[] = [];
  for (let i = 0; i < 120; i++) {
    const machine = `m-${(i % 40).toString(16).padStart(4, "0")}${"ab".repeat(6)}`;
    const session = String(Math.floor(i / 40) + 1);
    agents.push(`${machine}/${session}`);
    apply({ type: "join", agent: `${machine}/${session}`, machine, session, name: `bot ${i % 40}`, model: `model-${i % 5}`, harness: `harness-${i % 3}`, harness_source: "argument", tags: { team: `t${i % 7}` }, verified: true, seed_tile: (i * 97) % field.tiles.length } as Omit<PublicEvent, "rev" | "at">);
  }
  // Territories: tiles go to the agent whose seed is nearest, so machines own contiguous regions.
  const seeds = agents.map((_, i) => field.tiles[(i * 97) % field.tiles.length]);
  const owner = (t: Field["tiles"][number]): string => {
    let best = 0;
    let bestD = Infinity;
    for (let i = 0; i < seeds.length; i++) {
      const d = (seeds[i].x0 - t.x0) ** 2 + (seeds[i].y0 - t.y0) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return agents[best];
  };
  const known = new Uint8Array(field.G * field.G);
  const left = field.tiles.map((t) => t.cellIds.length);
  const revealed = new Uint8Array(field.tiles.length);
  const solved = new Uint8Array(field.tiles.length);
  const covering: number[][] = Array.from({ length: field.G * field.G }, () => []);
  for (const t of field.tiles) for (const c of t.cellIds) covering[c].push(t.id);
  const learn = (c: number, out: number[]): void => {
    if (known[c]) return;
    known[c] = 1;
    for (const t of covering[c]) if (--left[t] === 0 && revealed[t] && !solved[t]) (solved[t] = 1), out.push(t);
  };
  const reward = (ids: number[]): number => ids.reduce((s, id) => s + field.tiles[id].cellIds.length, 0);
  for (const t of field.tiles) {
    revealed[t.id] = 1;
    const now: number[] = [];
    const givens = t.givens.map((c) => [c, field.solution[c]] as [number, number]);
    for (const [c] of givens) learn(c, now);
    if (left[t.id] === 0 && !solved[t.id]) (solved[t.id] = 1), now.push(t.id);
    apply({ type: "reveal", agent: owner(t), intent: `reveal ${t.id}`, tile: t.id, givens, solved: now, meets: [], reward: reward(now) } as Omit<PublicEvent, "rev" | "at">);
  }
  const unsolvedEvery = Math.max(2, Math.round(1 / (1 - solvedShare)));
  for (const t of field.tiles) {
    if (solved[t.id]) continue;
    const cells = t.cellIds.filter((c) => !known[c]);
    if (t.id % unsolvedEvery === 0) {
      const wrong = cells.slice(0, 3).map((id) => ({ id, reason: "wrong" as const }));
      if (wrong.length) apply({ type: "commit", agent: owner(t), intent: "try <b>three</b>", accepted: [], rejected: wrong, ignored: [], unevaluated: [], solved: [], meets: [], reward: 0 } as Omit<PublicEvent, "rev" | "at">);
      continue;
    }
    const now: number[] = [];
    const accepted = cells.map((c) => ({ id: c, v: field.solution[c], class: (c % 3 ? "forced" : "guess") as "forced" | "guess" }));
    for (const c of cells) learn(c, now);
    for (let i = 0; i < accepted.length; i += 512) {
      const last = i + 512 >= accepted.length;
      apply({ type: "commit", agent: owner(t), intent: `fill tile ${t.id}`, accepted: accepted.slice(i, i + 512), rejected: [], ignored: [], unevaluated: [], solved: last ? now : [], meets: [], reward: last ? reward(now) : 0 } as Omit<PublicEvent, "rev" | "at">);
    }
  }
  return model;
}
