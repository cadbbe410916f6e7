/**
 * Engine benchmark: generation times against the targets, solver counting speed, the shape
 * distribution and the playability measure. One thread; run with `npm run bench:engine`.
 * Optional arguments: `--quick` (fewer seeds), `--day` (also regenerate the synthetic full day's
 * G = 1000 field on both engines: minutes of CPU), `--versus-only` (only the comparison with the
 * frozen reference).
 *
 * First the engine is compared with its frozen pre-optimisation reference (scripts/bench/baseline)
 * in the same run, so the speed-ups are ratios measured under the same load.
 */
import { generateField, generateRing } from "../../src/engine/generate/generator";
import { Solver } from "../../src/engine/solver";
import { tileProblem } from "../../src/engine/tile-problem";
import type { Field, FieldKind } from "../../src/engine/types";
import { meanReach, shapeMix } from "./engine-stats";
import { flagOption } from "./bench-options";
import { compareWithReference } from "./engine-targets";

const quick = flagOption("quick");
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 3 : 1)} ms`);

/** CPU time of this process in ms (user + system): shows how much of the wall time was ours. */
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function line(name: string, ms: number, targetMs: number, referenceMs?: number, cpuMs?: number): void {
  const verdict = ms <= targetMs ? "meets" : "MISSES";
  const ref = referenceMs ? `, ${(referenceMs / ms).toFixed(0)}× faster than the reference's ${fmt(referenceMs)}` : "";
  const cpu = cpuMs !== undefined ? ` [cpu ${fmt(cpuMs)}]` : "";
  console.log(`${name.padEnd(38)} median ${fmt(ms).padStart(9)}${cpu}  target ≤ ${fmt(targetMs)} (${verdict})${ref}`);
}

async function timeField(kind: FieldKind, seeds: string[], extra: { G?: number; n?: number }): Promise<{ ms: number[]; cpu: number[]; fields: Field[] }> {
  const ms: number[] = [];
  const cpu: number[] = [];
  const fields: Field[] = [];
  for (const seed of seeds) {
    const c = cpuNow();
    const t = performance.now();
    fields.push(await generateField({ kind, seed, ...extra }));
    ms.push(performance.now() - t);
    cpu.push(cpuNow() - c);
  }
  return { ms, cpu, fields };
}

const seeds = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

// Warm up the JIT and the shared tables once per kind, outside the timings (a grid exercises
// the 14-cell line tables and the counting paths that a small scatter field barely touches).
await generateField({ kind: "scatter", seed: "warm-up", G: 60 });
for (let i = 0; i < 3; i++) await generateField({ kind: "grid", seed: `warm-up-${i}`, n: 14, G: 27 });

const { loadavg } = await import("node:os");
console.log(`engine benchmark (node ${process.version}, one thread, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")})${quick ? " --quick" : ""}`);
await compareWithReference({ quick, day: flagOption("day") });
if (flagOption("versus-only")) process.exit(0);
console.log("wall-clock medians against the targets; [cpu] is this process's own CPU time\n");

const grid = await timeField("grid", seeds(quick ? 5 : 15, "grid"), { n: 14, G: 27 });
line("grid 2×2 of 14×14 (G=27)", median(grid.ms), 50, undefined, median(grid.cpu));

const g60 = await timeField("scatter", seeds(quick ? 3 : 7, "s60"), { G: 60 });
line("scatter G=60", median(g60.ms), 1000, 60_000, median(g60.cpu));

const g100 = await timeField("scatter", seeds(quick ? 3 : 7, "s100"), { G: 100 });
line("scatter G=100", median(g100.ms), 2000, 180_000, median(g100.cpu));

// One ring of 60×60 chunks around a 3×3 field on the default canvas.
let chunkedBase: Field | null = null;
const ringMs: number[] = [];
const ringCpu: number[] = [];
let ringTiles = 0;
for (const seed of seeds(quick ? 1 : 3, "ring")) {
  const params = { kind: "field" as const, seed, chunks: 3, chunk_g: 60, grow: true };
  const base = await generateField(params);
  chunkedBase ??= base;
  const c = cpuNow();
  const t = performance.now();
  const ring = await generateRing(seed, params, 1, base);
  ringMs.push(performance.now() - t);
  ringCpu.push(cpuNow() - c);
  ringTiles += ring.tiles.length;
}
line("ring 1 of 60×60 chunks around 3×3", median(ringMs), 5000, undefined, median(ringCpu));

// Counting solutions of a 196-cell tile (14×14) from its givens, reset included.
const countMs: number[] = [];
for (const field of grid.fields) {
  for (const tile of field.tiles) {
    const problem = tileProblem(tile, field.G);
    const solver = new Solver(problem);
    const fixed = new Int8Array(problem.nCells).fill(-1);
    for (const g of tile.givens) fixed[problem.local(g)] = field.solution[g];
    for (let rep = 0; rep < 20; rep++) {
      const t = performance.now();
      solver.reset(fixed);
      const n = solver.count(tile.m + 1);
      countMs.push(performance.now() - t);
      if (n !== tile.m) throw new Error("count mismatch");
    }
  }
}
line("count a 196-cell tile to m+1", median(countMs), 1);

console.log(`\nper-seed times: G=60 ${g60.ms.map((x) => fmt(x)).join(", ")}`);
console.log(`                G=100 ${g100.ms.map((x) => fmt(x)).join(", ")}`);
console.log(`                ring ${ringMs.map((x) => fmt(x)).join(", ")} (${ringTiles} tiles)`);

// Shape distribution over the G=100 fields (SPEC §3).
const mixes = g100.fields.map(shapeMix);
const sum = (f: (m: ReturnType<typeof shapeMix>) => number): number => mixes.reduce((a, m) => a + f(m), 0);
const tiles = sum((m) => m.tiles);
const pct = (x: number): string => `${((100 * x) / tiles).toFixed(1)} %`;
console.log(`\nshape mix over ${mixes.length} scatter fields G=100 (${tiles} tiles, ${(tiles / mixes.length).toFixed(0)} per field):`);
console.log(`  m=2 (≤64 cells) ${pct(sum((m) => m.small))}, m=3 (65–196) ${pct(sum((m) => m.medium))}, m=4 (>196) ${pct(sum((m) => m.large))}`);
console.log(`  non-rectangular ${pct(sum((m) => m.nonRect))}; box sides ${Math.min(...mixes.map((m) => m.minSide))}..${Math.max(...mixes.map((m) => m.maxSide))}`);
console.log(`  coverage ${(100 * Math.min(...mixes.map((m) => m.coverage))).toFixed(1)}..${(100 * Math.max(...mixes.map((m) => m.coverage))).toFixed(1)} %; shared cells ${((100 * sum((m) => m.overlapCells)) / (mixes.length * 10000)).toFixed(1)} % of the board`);

// Playability: reach from a seed tile (definition in docs/engine.md).
const reachFields = [...g60.fields, ...g100.fields];
const samples = quick ? 4 : 12;
const reaches = reachFields.map((f) => meanReach(f, samples));
const meanAll = reaches.reduce((a, r) => a + r.mean, 0) / reaches.length;
console.log(`\nplayability (reach from one seed tile, ${reachFields.length} fields of G=60 and G=100 × ${samples} seed tiles): mean ${(100 * meanAll).toFixed(1)} %, per field ${reaches.map((r) => `${(100 * r.mean).toFixed(0)} %`).join(", ")}; range ${(100 * Math.min(...reaches.map((r) => r.min))).toFixed(0)}..${(100 * Math.max(...reaches.map((r) => r.max))).toFixed(0)} %`);
if (chunkedBase) {
  const r = meanReach(chunkedBase, samples);
  console.log(`  on a growing field's initial 3×3 chunks of 60 (${chunkedBase.tiles.length} tiles): mean ${(100 * r.mean).toFixed(1)} %, range ${(100 * r.min).toFixed(0)}..${(100 * r.max).toFixed(0)} %`);
}
