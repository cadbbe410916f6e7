/**
 * Benchmark of the referee's forced propagation (SPEC §4.5), docs/propagation.md.
 *
 *   npm run bench:propagation          (COMMITS=n to change the sample, QUICK=1 for G=1000 only)
 *
 * A G=1000 field is made of 10 × 10 copies of a generated G=100 scatter field (real shapes,
 * real solutions and givens), thousands of its tiles revealed with their givens known. Then
 * commits of 512 true cells (whole unsolved tiles, in random order) are applied two ways:
 *
 *   judged — as the referee does: forcedValue(cell) just before setKnown(cell), cell by cell;
 *   batch  — setKnown for all 512 cells, then one forcedValue (the propagation alone);
 *   then retractions of 512 cells (clearKnown, one forcedValue): a commit undone, and cells
 *   scattered over the field.
 *
 * Target: ≤ 5 ms per 512-cell commit (wall time). Baselines, measured in the same run: rebuilding the
 * propagation from scratch after each commit (same engine, no incrementality), and, on a
 * G=40 field, the literal from-scratch reference implementation. Depth 1 and 2 are timed on a
 * G=100 field.
 */
import { generateField } from "../../src/engine/generate/generator";
import { Propagator } from "../../src/engine/propagation";
import { ReferencePropagator } from "../../src/engine/propagation-reference";
import type { Field, Tile } from "../../src/engine/types";

const TARGET_MS = 5;
/** Untimed commits first, so that the timings are of compiled code. */
const WARM_UP = 10;

/** sfc32: deterministic benchmark choices. */
function rng(seed: number): (n: number) => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return (n) => {
    const limit = Math.floor(0x100000000 / n) * n;
    for (;;) {
      const x = next();
      if (x < limit) return x % n;
    }
  };
}

function shuffle<T>(xs: T[], int: (n: number) => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** k × k copies of a field side by side. */
function tileUp(base: Field, k: number): Field {
  const G = base.G * k;
  const tiles: Tile[] = [];
  const solution = new Uint8Array(G * G);
  for (let j = 0; j < k; j++) {
    for (let i = 0; i < k; i++) {
      const dx = i * base.G;
      const dy = j * base.G;
      const move = (c: number): number => (Math.floor(c / base.G) + dy) * G + (c % base.G) + dx;
      for (const t of base.tiles) {
        tiles.push({ ...t, id: tiles.length, x0: t.x0 + dx, y0: t.y0 + dy, cellIds: t.cellIds.map(move), givens: t.givens.map(move) });
      }
      for (let c = 0; c < base.solution.length; c++) solution[move(c)] = base.solution[c];
    }
  }
  return { G, tiles, solution };
}

interface Engine {
  addTile(t: Tile): void;
  reveal(id: number): void;
  setKnown(c: number, v: 0 | 1): void;
  forcedValue(c: number): unknown;
}

interface Setup {
  revealed: Tile[];
  known: Set<number>;
}

/** Reveal a share of the tiles (with their givens known) in `engines`. */
function setUp(field: Field, share: number, seed: number, engines: Engine[]): Setup {
  const int = rng(seed);
  for (const e of engines) for (const t of field.tiles) e.addTile(t);
  const revealed = shuffle([...field.tiles], int).slice(0, Math.floor(field.tiles.length * share));
  const known = new Set<number>();
  for (const t of revealed) {
    for (const e of engines) e.reveal(t.id);
    for (const c of t.givens) {
      for (const e of engines) e.setKnown(c, field.solution[c] as 0 | 1);
      known.add(c);
    }
  }
  for (const e of engines) e.forcedValue(0);
  return { revealed, known };
}

/** The next commit: unknown cells of random revealed tiles, up to 512, shuffled. */
function nextCommit(field: Field, setup: Setup, int: (n: number) => number): number[] {
  const cells: number[] = [];
  const seen = new Set<number>();
  for (let guard = 0; cells.length < 512 && guard < 10_000; guard++) {
    const t = setup.revealed[int(setup.revealed.length)];
    for (const c of t.cellIds) {
      if (cells.length >= 512) break;
      if (!setup.known.has(c) && !seen.has(c)) {
        seen.add(c);
        cells.push(c);
      }
    }
  }
  return shuffle(cells, int);
}

function stats(ms: number[]): { median: number; p95: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

const fmt = (x: number): string => x.toFixed(3).padStart(9);

function report(name: string, ms: number[], target?: number): void {
  const { median, p95, max } = stats(ms);
  const verdict = target === undefined ? "" : p95 <= target ? `  ✓ p95 ≤ ${target} ms` : `  ✗ p95 > ${target} ms`;
  console.log(`${name.padEnd(44)} median ${fmt(median)} ms   p95 ${fmt(p95)} ms   max ${fmt(max)} ms${verdict}`);
}

async function main(): Promise<void> {
  const commits = Number(process.env.COMMITS ?? 40);
  let t0 = performance.now();
  const base = await generateField({ kind: "scatter", seed: "bench-propagation", G: 100 });
  const field = tileUp(base, 10);
  console.log(`field: G=${field.G}, ${field.tiles.length} tiles (10×10 copies of a generated G=100 scatter field, ${(performance.now() - t0).toFixed(0)} ms)`);

  // --- G = 1000, depth 0 ---------------------------------------------------------------
  const givens = new Set(field.tiles.flatMap((t) => t.givens));
  for (const mode of ["judged", "batch"] as const) {
    const p = new Propagator(field.G, 0);
    t0 = performance.now();
    const setup = setUp(field, 0.5, 1, [p]);
    if (mode === "judged") console.log(`revealed ${setup.revealed.length} tiles, ${setup.known.size} givens known; initial propagation ${(performance.now() - t0).toFixed(0)} ms`);
    const int = rng(2);
    const times: number[] = [];
    let forced = 0;
    let judged = 0;
    for (let k = -WARM_UP; k < commits; k++) {
      const cells = nextCommit(field, setup, int);
      const start = performance.now();
      if (mode === "judged") {
        for (const c of cells) {
          if (p.forcedValue(c) && k >= 0) forced++;
          p.setKnown(c, field.solution[c] as 0 | 1);
        }
      } else {
        for (const c of cells) p.setKnown(c, field.solution[c] as 0 | 1);
        p.forcedValue(cells[0]);
      }
      if (k >= 0) {
        times.push(performance.now() - start);
        judged += cells.length;
      }
      for (const c of cells) setup.known.add(c);
    }
    report(`G=1000 depth 0, 512-cell commit, ${mode}`, times, TARGET_MS);
    if (mode === "judged") console.log(`  (${judged} cells judged, ${((100 * forced) / judged).toFixed(1)} % forced)`);
    if (mode === "batch") {
      // Retractions, then one question: a fresh commit of 512 cells taken back (an agent
      // undoing its work), and 512 committed cells picked anywhere in the field.
      const undo: number[] = [];
      const scattered: number[] = [];
      const committed = [...setup.known].filter((c) => !givens.has(c));
      for (let k = 0; k < 10; k++) {
        for (const [times, cells] of [
          [undo, nextCommit(field, setup, int)],
          [scattered, shuffle(committed, int).slice(0, 512)],
        ] as const) {
          if (times === undo) {
            for (const c of cells) p.setKnown(c, field.solution[c] as 0 | 1);
            p.forcedValue(cells[0]);
          }
          const start = performance.now();
          for (const c of cells) p.clearKnown(c);
          p.forcedValue(cells[0]);
          times.push(performance.now() - start);
          if (times === scattered) {
            for (const c of cells) p.setKnown(c, field.solution[c] as 0 | 1);
            p.forcedValue(cells[0]);
          }
        }
      }
      report("G=1000 depth 0, retract the last 512-cell commit", undo);
      report("G=1000 depth 0, retract 512 cells anywhere", scattered);
    }
  }

  // Baseline: the same engine rebuilt from scratch after each commit.
  {
    const p = new Propagator(field.G, 0);
    const setup = setUp(field, 0.5, 1, [p]);
    const int = rng(2);
    const times: number[] = [];
    for (let k = 0; k < Math.min(commits, 8); k++) {
      const cells = nextCommit(field, setup, int);
      for (const c of cells) setup.known.add(c);
      const start = performance.now();
      const fresh = new Propagator(field.G, 0);
      for (const t of field.tiles) fresh.addTile(t);
      for (const t of setup.revealed) fresh.reveal(t.id);
      for (const c of setup.known) fresh.setKnown(c, field.solution[c] as 0 | 1);
      fresh.forcedValue(cells[0]);
      times.push(performance.now() - start);
    }
    report("G=1000 depth 0, rebuild from scratch (baseline)", times);
  }

  if (process.env.QUICK) return;

  // --- depth 1 and 2 on a G=100 field (bifurcation recomputes whole components) ------------
  for (const depth of [1, 2] as const) {
    const p = new Propagator(base.G, depth);
    const setup = setUp(base, 0.5, 3, [p]);
    const int = rng(4);
    const times: number[] = [];
    for (let k = 0; k < Math.min(commits, depth === 1 ? 10 : 3); k++) {
      const cells = nextCommit(base, setup, int);
      if (cells.length === 0) break;
      const start = performance.now();
      for (const c of cells) {
        p.forcedValue(c);
        p.setKnown(c, base.solution[c] as 0 | 1);
      }
      times.push(performance.now() - start);
      for (const c of cells) setup.known.add(c);
    }
    report(`G=100 depth ${depth}, 512-cell commit, judged`, times);
  }

  // --- the literal reference, on a field small enough for it --------------------------------
  {
    const small = await generateField({ kind: "scatter", seed: "bench-propagation-small", G: 40 });
    const p = new Propagator(small.G, 0);
    const r = new ReferencePropagator(small.G, 0);
    const setup = setUp(small, 0.6, 5, [p, r]);
    const int = rng(6);
    const inc: number[] = [];
    const ref: number[] = [];
    for (let k = 0; k < 3; k++) {
      const cells = nextCommit(small, setup, int).slice(0, 64);
      if (cells.length === 0) break;
      // The reference recomputes everything for each question: time one full solve per cell.
      let start = performance.now();
      for (const c of cells) {
        r.solve();
        r.setKnown(c, small.solution[c] as 0 | 1);
      }
      ref.push(performance.now() - start);
      start = performance.now();
      for (const c of cells) {
        p.forcedValue(c);
        p.setKnown(c, small.solution[c] as 0 | 1);
      }
      inc.push(performance.now() - start);
      for (const c of cells) setup.known.add(c);
    }
    console.log(`G=40 field, ${setup.revealed.length} tiles revealed, commits of 64 cells judged:`);
    report("  incremental", inc);
    report("  literal reference (baseline)", ref);
    console.log(`  ratio reference / incremental (medians): ${(stats(ref).median / stats(inc).median).toFixed(0)}×`);
  }
}

await main();
