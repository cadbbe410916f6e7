/**
 * A fogged day played by a few agents, as the live feed would carry it: every event, in order,
 * with the tiles it made visible (the geometry a live message attaches), built with the shared
 * reducer over a generated field. The agents start at seeds spread over the field and work
 * outwards: reveal the nearest hidden tile of their reach (givens included), commit its unknown
 * cells a handful at a time (a wrong cell now and then), solve tiles, and meet when their areas
 * touch. The page benchmark takes a snapshot part-way through and streams the rest at a set rate.
 */
import type { Field, Tile } from "../../src/engine/types";
import { SpectatorModel, SOLVED, type PublicEvent, type TileGeometry } from "../../src/spectator";

export interface DayStep {
  event: PublicEvent;
  /** Tiles this event made visible to a spectator (reached under fog). */
  visible: number[];
}

export interface PlayedDay {
  gameId: string;
  /** The server's own model (every tile's geometry), at the end of the generated events. */
  model: SpectatorModel;
  steps: DayStep[];
}

export function geometryOf(t: Tile): TileGeometry {
  return { id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m };
}

/**
 * Plays `events` events on the field (fewer if every agent runs out of tiles). `beforeEach` sees
 * the model just before each event is applied (a snapshot at a chosen revision is taken there).
 */
export function playDay(field: Field, options: { gameId: string; agents: number; events: number; beforeEach?: (model: SpectatorModel) => void }): PlayedDay {
  const { gameId } = options;
  const model = new SpectatorModel({ gameId, G: field.G, fog: true, tilesTotal: field.tiles.length, rules: { guess: "accept", depth: 0, fog: true } });
  model.addTiles(field.tiles.map(geometryOf));
  const steps: DayStep[] = [];
  let at = 1_800_000_000_000;
  const apply = (e: Omit<PublicEvent, "rev" | "at">): void => {
    options.beforeEach?.(model);
    const event = { ...e, rev: model.revision + 1, at: (at += 170) } as PublicEvent;
    steps.push({ event, visible: model.apply(event) });
  };

  const G = field.G;
  const known = new Uint8Array(G * G);
  const left = field.tiles.map((t) => t.cellIds.length);
  const covering: number[][] = Array.from({ length: G * G }, () => []);
  for (const t of field.tiles) for (const c of t.cellIds) covering[c].push(t.id);
  const learn = (c: number, out: number[]): void => {
    if (known[c]) return;
    known[c] = 1;
    for (const t of covering[c]) if (--left[t] === 0 && model.tileStatus[t] !== 0 && model.tileStatus[t] !== SOLVED && !out.includes(t)) out.push(t);
  };
  const reward = (ids: number[]): number => ids.reduce((s, id) => s + field.tiles[id].cellIds.length, 0);

  // Seeds spread over the field: the tile nearest each point of a small grid.
  const side = Math.ceil(Math.sqrt(options.agents));
  const nearest = (x: number, y: number): number => {
    let best = 0;
    let bestD = Infinity;
    for (const t of field.tiles) {
      const d = (t.x0 + t.w / 2 - x) ** 2 + (t.y0 + t.h / 2 - y) ** 2;
      if (d < bestD) (bestD = d), (best = t.id);
    }
    return best;
  };
  interface Player {
    agent: string;
    seed: number;
    /** Tiles reached, nearest to the seed first (a simple priority by distance). */
    queue: number[];
    queued: Set<number>;
    met: Set<string>;
  }
  const players: Player[] = [];
  for (let i = 0; i < options.agents; i++) {
    const x = ((i % side) + 0.5) * (G / side);
    const y = (Math.floor(i / side) + 0.5) * (G / side);
    const machine = `m-${(0xa100 + i).toString(16).padStart(16, "0")}`;
    const agent = `${machine}/1`;
    const seed = nearest(x, y);
    players.push({ agent, seed, queue: [seed], queued: new Set([seed]), met: new Set() });
    apply({ type: "join", agent, machine, session: "1", name: `Bench ${i + 1}`, model: "bench", harness: "bench-live-page", harness_source: "argument", tags: {}, verified: false, seed_tile: seed } as Omit<PublicEvent, "rev" | "at">);
  }
  const owner = new Map<number, Player>();
  const distance = (p: Player, id: number): number => {
    const s = field.tiles[p.seed];
    const t = field.tiles[id];
    return (s.x0 - t.x0) ** 2 + (s.y0 - t.y0) ** 2;
  };
  const nextTile = (p: Player): number | undefined => {
    p.queue = p.queue.filter((id) => model.tileStatus[id] === 0);
    p.queue.sort((a, b) => distance(p, a) - distance(p, b));
    return p.queue.shift();
  };
  const meetsOf = (p: Player, tile: number): Array<{ with: string[] }> => {
    const out: Array<{ with: string[] }> = [];
    for (const n of model.neighbours(tile)) {
      const other = owner.get(n);
      if (!other || other === p || p.met.has(other.agent)) continue;
      p.met.add(other.agent);
      other.met.add(p.agent);
      out.push({ with: [other.agent] });
    }
    return out;
  };

  let commits = 0;
  /** One agent's play, an event at a time (the agents take turns, as writers racing a server do). */
  function* play(p: Player): Generator<Omit<PublicEvent, "rev" | "at">> {
    for (let tile = nextTile(p); tile !== undefined; tile = nextTile(p)) {
      const t = field.tiles[tile];
      owner.set(tile, p);
      // The tile is revealed as its givens are learnt: it and any revealed tile they complete are solved.
      const solvedNow: number[] = [];
      const givens = t.givens.map((c) => [c, field.solution[c]] as [number, number]);
      for (const [c] of givens) {
        if (known[c]) continue;
        known[c] = 1;
        for (const ct of covering[c]) if (--left[ct] === 0 && ct !== tile && model.tileStatus[ct] === 1 && !solvedNow.includes(ct)) solvedNow.push(ct);
      }
      if (left[tile] === 0) solvedNow.push(tile);
      yield { type: "reveal", agent: p.agent, intent: `reveal ${tile}: nearest hidden tile of my reach`, tile, givens, solved: solvedNow, meets: meetsOf(p, tile), reward: reward(solvedNow) } as Omit<PublicEvent, "rev" | "at">;
      for (const n of model.neighbours(tile)) {
        if (!p.queued.has(n)) {
          p.queued.add(n);
          p.queue.push(n);
        }
      }
      const cells = t.cellIds.filter((c) => !known[c]);
      for (let i = 0; i < cells.length; ) {
        const size = 6 + ((commits * 7) % 19);
        const batch = cells.slice(i, i + size).filter((c) => !known[c]);
        i += size;
        commits++;
        if (!batch.length) continue;
        const wrong = commits % 23 === 0 ? batch.splice(0, 1) : [];
        const solved: number[] = [];
        for (const c of batch) learn(c, solved);
        yield {
          type: "commit",
          agent: p.agent,
          intent: `tile ${tile}: ${batch.length} cells forced by its lines`,
          accepted: batch.map((c) => ({ id: c, v: field.solution[c], class: c % 5 ? "forced" : "guess" })),
          rejected: wrong.map((id) => ({ id, reason: "wrong" })),
          ignored: [],
          unevaluated: [],
          solved,
          meets: [],
          reward: reward(solved),
        } as Omit<PublicEvent, "rev" | "at">;
        // A wrong cell is committed again, right, with a later batch.
        if (wrong.length) cells.push(...wrong);
      }
    }
  }
  const turns = players.map(play);
  while (steps.length < options.events && turns.length) {
    for (let i = 0; i < turns.length && steps.length < options.events; i++) {
      const next = turns[i].next();
      if (next.done) turns.splice(i--, 1);
      else apply(next.value);
    }
  }
  return { gameId, model, steps };
}
