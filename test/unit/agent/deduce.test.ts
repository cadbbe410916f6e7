// The reference agent's solver (agent/deduce.ts) on generated fields: sound (every proven cell is
// the solution's), exact for a tile alone, at least as strong as the referee's propagation and
// strictly stronger somewhere; its guess and commit-order choices.
import { describe, expect, it } from "vitest";
import { Board, type BoardTile } from "../../../agent/board";
import { chooseGuess, chooseReveal } from "../../../agent/choices";
import { Deducer } from "../../../agent/deduce";
import { orderForForcing } from "../../../agent/order";
import { generateField, rngFor, type Field } from "../../../src/engine";
import { Propagator } from "../../../src/engine/propagation";

const fields = new Map<string, Field>();
async function field(seed: string, G = 40): Promise<Field> {
  const key = `${seed}|${G}`;
  if (!fields.has(key)) fields.set(key, await generateField({ kind: "scatter", G, seed }));
  return fields.get(key) as Field;
}

/** A board as an agent would hold it: every tile's geometry, the given statuses, known cells = givens of revealed tiles and all cells of solved ones. */
function boardOf(f: Field, status: (id: number) => "hidden" | "revealed" | "solved"): Board {
  const board = new Board("m-0000000000000001/1");
  board.G = f.G;
  for (const t of f.tiles) board.upsertTile({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, cells: t.cellIds.length, m: t.m, status: status(t.id) });
  for (const t of f.tiles) {
    const s = status(t.id);
    if (s === "revealed") for (const c of t.givens) board.setKnown(c, f.solution[c] as 0 | 1);
    if (s === "solved") for (const c of t.cellIds) board.setKnown(c, f.solution[c] as 0 | 1);
  }
  board.frontier = f.tiles.filter((t) => status(t.id) === "revealed").map((t) => t.id);
  return board;
}

/** Random mid-game states: some tiles solved, some of their neighbours revealed. */
async function states(f: Field, count: number, label: string): Promise<Array<(id: number) => "hidden" | "revealed" | "solved">> {
  const rng = await rngFor(label, "agent-states");
  const out: Array<(id: number) => "hidden" | "revealed" | "solved"> = [];
  for (let k = 0; k < count; k++) {
    const status = new Map<number, "revealed" | "solved">();
    for (const t of f.tiles) if (rng.chance(1, 4)) status.set(t.id, "solved");
    for (const t of f.tiles) if (!status.has(t.id) && rng.chance(1, 2)) status.set(t.id, "revealed");
    out.push((id) => status.get(id) ?? "hidden");
  }
  return out;
}

describe("agent solver", () => {
  it("a revealed tile alone has at most m solutions, the truth among them; without neighbours' help exactly m", async () => {
    for (const seed of ["agent-a", "agent-b"]) {
      const f = await field(seed);
      for (const t of f.tiles) {
        const board = boardOf(f, (id) => (id === t.id ? "revealed" : "hidden"));
        const deducer = new Deducer(board);
        const sols = deducer.enumerate(board.tile(t.id) as BoardTile);
        expect(sols?.length, `tile ${t.id}`).toBe(t.m);
        const truth = Uint8Array.from(t.cellIds, (c) => f.solution[c]);
        expect(sols?.some((s) => s.every((v, i) => v === truth[i]))).toBe(true);
        const d = deducer.deduce([board.tile(t.id) as BoardTile]);
        const left = d.candidates.get(t.id) ?? [];
        expect(left.length).toBeGreaterThanOrEqual(1);
        expect(left.length).toBeLessThanOrEqual(t.m);
        expect(left.some((s) => s.every((v, i) => v === truth[i])), `tile ${t.id}: the truth survives pruning`).toBe(true);
      }
    }
  });

  it("proves only the solution's values, and every cell the referee's propagation forces", async () => {
    let proven = 0;
    let beyond = 0;
    for (const seed of ["agent-c", "agent-d"]) {
      const f = await field(seed);
      for (const status of await states(f, 6, seed)) {
        const board = boardOf(f, status);
        const work = board.workTiles();
        const d = new Deducer(board).deduce(work);
        expect(d.contradictions).toEqual([]);
        for (const [cell, v] of d.proven) expect(v, `cell ${cell}`).toBe(f.solution[cell]);

        // The referee's propagation over the same known cells and revealed tiles.
        const prop = new Propagator(f.G, 0);
        for (const t of f.tiles) prop.addTile(t);
        for (const t of f.tiles) if (status(t.id) !== "hidden") prop.reveal(t.id);
        for (const c of board.serverKnown) prop.setKnown(c, f.solution[c] as 0 | 1);
        for (const t of work) {
          for (const c of t.cellIds) {
            if (board.serverKnown.has(c)) continue;
            const forced = prop.forcedValue(c);
            if (forced) expect(d.proven.get(c), `cell ${c} forced by ${forced.rule}`).toBe(forced.value);
            if (d.proven.has(c)) proven++;
            if (d.proven.has(c) && !forced) beyond++;
          }
        }
      }
    }
    expect(proven).toBeGreaterThan(0);
    expect(beyond, "cells proven beyond the referee's propagation").toBeGreaterThan(0);
  });

  it("a solved neighbour pins a tile: cross-tile and completion pruning narrow the candidates", async () => {
    const f = await field("agent-e");
    let narrowed = 0;
    for (const t of f.tiles) {
      const neighbours = new Set<number>();
      for (const c of t.cellIds) for (const o of f.tiles) if (o.id !== t.id && o.cellIds.includes(c)) neighbours.add(o.id);
      if (neighbours.size === 0) continue;
      // All neighbours revealed (givens only): cross-tile consistency alone must keep the truth.
      const board = boardOf(f, (id) => (id === t.id || neighbours.has(id) ? "revealed" : "hidden"));
      const d = new Deducer(board).deduce(board.workTiles());
      for (const [cell, v] of d.proven) expect(v).toBe(f.solution[cell]);
      if ((d.candidates.get(t.id)?.length ?? t.m) < t.m) narrowed++;
    }
    expect(narrowed).toBeGreaterThan(0);
  });

  it("guesses on the tile with the fewest solutions, a cell where they disagree, with the majority value", async () => {
    const f = await field("agent-f");
    const t = f.tiles.find((x) => x.m === 3) ?? f.tiles[0];
    const board = boardOf(f, (id) => (id === t.id ? "revealed" : "hidden"));
    const deducer = new Deducer(board);
    const sols = deducer.enumerate(board.tile(t.id) as BoardTile) ?? [];
    const g = chooseGuess(board, new Map([[t.id, sols]]));
    expect(g).not.toBeNull();
    if (!g) return;
    expect(g.tile).toBe(t.id);
    const i = t.cellIds.indexOf(g.cell);
    const agree = sols.filter((s) => s[i] === g.value).length;
    expect(agree).toBe(g.agreeing);
    expect(agree).toBeGreaterThan(0);
    expect(agree).toBeLessThan(sols.length);
    expect(agree * 2).toBeGreaterThanOrEqual(sols.length);
    // A tile with one solution left is never guessed on.
    expect(chooseGuess(board, new Map([[t.id, sols.slice(0, 1)]]))).toBeNull();
    // A wrong guess teaches the other value: with two solutions the tile is then settled.
    if (sols.length === 2) {
      board.truth.set(g.cell, (1 - g.value) as 0 | 1);
      expect(new Deducer(board).enumerate(board.tile(t.id) as BoardTile)?.length).toBe(1);
    }
  });

  it("reveals the hidden frontier tile whose cells are most known first", async () => {
    const f = await field("agent-g");
    const board = boardOf(f, () => "hidden");
    const [a, b] = [f.tiles[0], f.tiles[1]];
    board.frontier = [a.id, b.id];
    const own = b.cellIds.find((c) => !a.cellIds.includes(c)) as number;
    board.truth.set(own, f.solution[own] as 0 | 1);
    expect(chooseReveal(board, board.hiddenFrontier(), "open")?.id).toBe(b.id);
    expect(chooseReveal(board, [], "open")).toBeNull();
  });

  it("orders a batch so the cells the referee's propagation forces come first, each counted once known", async () => {
    let forcedFirst = 0;
    let forcedSorted = 0;
    const f0 = await field("agent-h");
    // Mid-game states, and single tiles whose whole solution the agent has learned.
    const cases: Array<{ f: Field; board: Board }> = (await states(f0, 4, "agent-h")).map((status) => ({ f: f0, board: boardOf(f0, status) }));
    for (const t of f0.tiles) {
      const board = boardOf(f0, (id) => (id === t.id ? "revealed" : "hidden"));
      for (const c of t.cellIds) board.truth.set(c, f0.solution[c] as 0 | 1);
      cases.push({ f: f0, board });
    }
    {
      for (const { f, board } of cases) {
        const work = board.workTiles();
        const d = new Deducer(board).deduce(work);
        const batch = new Map([...d.proven].filter(([c]) => !board.serverKnown.has(c)));
        if (batch.size === 0) continue;
        const ordered = orderForForcing(board, work, batch);
        expect(new Set(ordered.map((c) => c.cell))).toEqual(new Set(batch.keys()));
        // Judge both orders as the referee does: forced = propagation over the known cells before it.
        const judge = (cells: Array<[number, 0 | 1]>): number => {
          const prop = new Propagator(f.G, 0);
          for (const t of f.tiles) prop.addTile(t);
          for (const t of work) prop.reveal(t.id);
          for (const c of board.serverKnown) prop.setKnown(c, f.solution[c] as 0 | 1);
          let forced = 0;
          for (const [c, v] of cells) {
            if (prop.forcedValue(c)?.value === v) forced++;
            prop.setKnown(c, v);
          }
          return forced;
        };
        const mine = judge(ordered.map((c) => [c.cell, c.value]));
        // The prediction is exact when the agent sees every revealed tile involved.
        expect(mine).toBe(ordered.filter((c) => c.forced).length);
        forcedFirst += mine;
        forcedSorted += judge([...batch].sort((x, y) => x[0] - y[0]));
        // With guesses rejected, only predicted-forced cells are sent.
        expect(orderForForcing(board, work, batch, true).every((c) => c.forced)).toBe(true);
      }
    }
    expect(forcedFirst).toBeGreaterThan(forcedSorted);
  });
});
