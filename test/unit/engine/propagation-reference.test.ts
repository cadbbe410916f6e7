import { describe, expect, it } from "vitest";
import { Propagator } from "../../../src/engine/propagation";
import type { Forcing, PropagationDepth } from "../../../src/engine/propagation/types";
import { ReferencePropagator } from "../../../src/engine/propagation-reference";
import { randomField, Rng, type TestField } from "./propagation-fixtures";

/** The reference is slow by design; leave room on a busy machine. */
const SLOW = 180_000;

/**
 * Property tests: the incremental propagator and the from-scratch reference must give the
 * same verdict (value and rule) for every cell, after every kind of change, on random fields.
 */

function snapshot(p: { forcedValue(cell: number): Forcing | null }, G: number): (Forcing | null)[] {
  const out: (Forcing | null)[] = [];
  for (let c = 0; c < G * G; c++) out.push(p.forcedValue(c));
  return out;
}

function expectSame(inc: Propagator, ref: ReferencePropagator, G: number, what: string): Map<number, Forcing> | "contradiction" {
  const solved = ref.solve();
  const expected = snapshot({ forcedValue: (c) => (solved === "contradiction" ? null : (solved.get(c) ?? null)) }, G);
  expect(inc.contradiction, `${what}: contradiction flag`).toBe(solved === "contradiction");
  expect(snapshot(inc, G), what).toEqual(expected);
  return solved;
}

interface Scenario {
  field: TestField;
  inc: Propagator;
  ref: ReferencePropagator;
  added: number;
}

function start(seed: number, depth: PropagationDepth, G: number, tiles: number, initialTiles: number): Scenario & { rng: Rng } {
  const rng = new Rng(seed);
  const field = randomField(rng, G, tiles);
  const inc = new Propagator(G, depth);
  const ref = new ReferencePropagator(G, depth);
  for (const t of field.tiles.slice(0, initialTiles)) {
    inc.addTile(t);
    ref.addTile(t);
  }
  return { rng, field, inc, ref, added: initialTiles };
}

/** Random play: reveals, commits of true values (forced ones and guesses), retractions, growth. */
function play(seed: number, depth: PropagationDepth, steps: number, G = 10, tiles = 4): number {
  const sc = start(seed, depth, G, tiles, Math.max(1, tiles - 1));
  const { rng, field, inc, ref } = sc;
  const revealed: number[] = [];
  const known = new Set<number>();
  let forcedSeen = 0;
  for (let step = 0; step < steps; step++) {
    // Propagation worked out early (as the field object does between writes) must change nothing.
    if (step % 4 === 1) inc.settle();
    const roll = rng.int(10);
    const unrevealed = field.tiles.slice(0, sc.added).filter((t) => !revealed.includes(t.id));
    if (roll === 0 && sc.added < field.tiles.length) {
      const t = field.tiles[sc.added++]; // growth: a tile appended later
      inc.addTile(t);
      ref.addTile(t);
    } else if (roll <= 2 && unrevealed.length > 0) {
      const t = rng.pick(unrevealed);
      revealed.push(t.id);
      inc.reveal(t.id);
      ref.reveal(t.id);
      // Givens: a few true cells of the tile.
      for (const c of rng.shuffle([...t.cellIds]).slice(0, rng.int(4))) {
        inc.setKnown(c, field.solution[c] as 0 | 1);
        ref.setKnown(c, field.solution[c] as 0 | 1);
        known.add(c);
      }
    } else if (roll <= 3 && known.size > 0) {
      for (const c of rng.shuffle([...known]).slice(0, 1 + rng.int(3))) {
        inc.clearKnown(c);
        ref.clearKnown(c);
        known.delete(c);
      }
    } else if (revealed.length > 0) {
      // A commit batch judged the referee's way: classify, then accept.
      const cells = [...new Set(revealed.flatMap((id) => field.tiles[id].cellIds))].filter((c) => !known.has(c));
      for (const c of rng.shuffle(cells).slice(0, 1 + rng.int(6))) {
        const got = inc.forcedValue(c);
        expect(got, `seed ${seed} step ${step} cell ${c}`).toEqual(ref.forcedValue(c));
        if (got) {
          forcedSeen++;
          expect(got.value, "a forced value is the true value").toBe(field.solution[c]);
        }
        inc.setKnown(c, field.solution[c] as 0 | 1);
        ref.setKnown(c, field.solution[c] as 0 | 1);
        known.add(c);
      }
    }
    if (step % 3 === 2) {
      const solved = expectSame(inc, ref, G, `seed ${seed} step ${step}`);
      expect(solved, "true known cells never contradict").not.toBe("contradiction");
    }
  }
  return forcedSeen;
}

describe("incremental propagation agrees with the from-scratch reference", () => {
  it("depth 0: random play on random fields (reveals, commits, retractions, growth)", () => {
    let forced = 0;
    for (let seed = 1; seed <= 40; seed++) forced += play(seed, 0, 30);
    expect(forced).toBeGreaterThan(50); // the scenarios really exercise forcing
  }, SLOW);

  it("depth 0: larger fields with more tiles", () => {
    let forced = 0;
    for (let seed = 100; seed <= 105; seed++) forced += play(seed, 0, 40, 14, 7);
    expect(forced).toBeGreaterThan(50);
  }, SLOW);

  it("depth 1: random play", () => {
    let forced = 0;
    for (let seed = 200; seed <= 215; seed++) forced += play(seed, 1, 20);
    expect(forced).toBeGreaterThan(10);
  }, SLOW);

  it("depth 2: random play (small)", () => {
    // 18 steps a field: with 12, these seeds forced only 37 cells in all (81 now).
    let forced = 0;
    for (let seed = 300; seed <= 304; seed++) forced += play(seed, 2, 18, 8, 3);
    expect(forced).toBeGreaterThan(50);
  }, SLOW);

  it("all rules and bifurcation occur, and bifurcation fixes cells depth 0 leaves open", () => {
    const rules = new Set<string>();
    let extra = 0;
    for (let seed = 400; seed < 420; seed++) {
      const rng = new Rng(seed);
      const field = randomField(rng, 10, 3);
      const ps = ([0, 1] as const).map((d) => new Propagator(10, d));
      for (const p of ps) for (const t of field.tiles) p.addTile(t);
      for (const p of ps) for (const t of field.tiles) p.reveal(t.id);
      // Commit every cell in a random order, classifying each just before, as the referee does.
      for (const c of rng.shuffle([...new Set(field.tiles.flatMap((t) => t.cellIds))])) {
        const [f0, f1] = ps.map((p) => p.forcedValue(c));
        if (f0) rules.add(f0.rule);
        if (f1) rules.add(f1.rule);
        // Depth 1 fixes everything depth 0 fixes (the rule may differ: it is read off the
        // larger closure, where a higher-priority rule can apply).
        if (f0) expect(f1?.value, "depth 1 fixes everything depth 0 fixes").toBe(f0.value);
        if (f1) expect(f1.value, "a forced value is the true value").toBe(field.solution[c]);
        if (!f0 && f1) extra++;
        for (const p of ps) p.setKnown(c, field.solution[c] as 0 | 1);
      }
    }
    expect([...rules].sort()).toEqual(["balance", "bifurcation", "run", "unique"]);
    expect(extra).toBeGreaterThan(0);
  });
});

describe("contradictory input", () => {
  it("random (mostly wrong) known cells: same contradiction verdicts, no throw, no loop", () => {
    let contradictions = 0;
    for (let seed = 500; seed < 520; seed++) {
      const depth = (seed % 5 === 0 ? 2 : seed % 2) as PropagationDepth;
      const G = depth === 2 ? 6 : 10;
      const sc = start(seed, depth, G, depth === 2 ? 2 : 3, depth === 2 ? 2 : 3);
      const { rng, field, inc, ref } = sc;
      for (const t of field.tiles) {
        inc.reveal(t.id);
        ref.reveal(t.id);
      }
      const cells = [...new Set(field.tiles.flatMap((t) => t.cellIds))];
      const set: number[] = [];
      for (let step = 0; step < 6; step++) {
        for (const c of rng.shuffle([...cells]).slice(0, 3)) {
          const v = rng.int(2) as 0 | 1;
          inc.setKnown(c, v);
          ref.setKnown(c, v);
          set.push(c);
        }
        if (expectSame(inc, ref, G, `seed ${seed} set ${step}`) === "contradiction") contradictions++;
      }
      // Retract everything again: the contradiction must go away and match a fresh start.
      for (const c of set) {
        inc.clearKnown(c);
        ref.clearKnown(c);
      }
      expect(expectSame(inc, ref, G, `seed ${seed} cleared`)).not.toBe("contradiction");
    }
    expect(contradictions).toBeGreaterThan(5);
  }, SLOW);
});

describe("on fields from the generator", () => {
  it("referee-style play on a generated scatter field: same verdicts, forced values are true", async () => {
    const { generateField } = await import("../../../src/engine");
    const field = await generateField({ kind: "scatter", seed: "propagation-check", G: 16 });
    const G = field.G;
    const inc = new Propagator(G, 0);
    const ref = new ReferencePropagator(G, 0);
    for (const t of field.tiles) {
      inc.addTile(t);
      ref.addTile(t);
    }
    const rng = new Rng(77);
    let forced = 0;
    for (const t of rng.shuffle([...field.tiles]).slice(0, 4)) {
      inc.reveal(t.id);
      ref.reveal(t.id);
      for (const c of t.givens) {
        inc.setKnown(c, field.solution[c] as 0 | 1);
        ref.setKnown(c, field.solution[c] as 0 | 1);
      }
      expectSame(inc, ref, G, `after revealing tile ${t.id}`);
      // Commit the tile's cells in a random order, classifying each first.
      for (const [k, c] of rng.shuffle([...t.cellIds]).entries()) {
        const got = inc.forcedValue(c);
        if (k % 3 === 0) expect(got, `cell ${c}`).toEqual(ref.forcedValue(c));
        if (got) {
          forced++;
          expect(got.value).toBe(field.solution[c]);
        }
        inc.setKnown(c, field.solution[c] as 0 | 1);
        ref.setKnown(c, field.solution[c] as 0 | 1);
      }
    }
    expect(inc.contradiction).toBe(false);
    expect(forced).toBeGreaterThan(0);
  });
});
