/**
 * Referee benchmark (in process, no Workers runtime): a 512-cell commit and an `observe {agent}`
 * on a large generated field (~10,000 tiles), against the same measurements on a small field as
 * the baseline. Targets: commit ≤ 5 ms p50 and p99, observe ≤ 2 ms, observe payload proportional
 * to the scope (about the same bytes on both fields).
 *
 *   npm run bench:referee                       # large field: 12×12 chunks of 80 (G = 960)
 *   npm run bench:referee -- --chunks 6         # a quicker, smaller large field
 */
import { generateField, type Field } from "../../src/engine";
import { Propagator } from "../../src/engine/propagation";
import { Referee, type ForcingOracle } from "../../src/referee";
import type { WriteInput } from "../../src/referee/types";
import { numberOption } from "./bench-options";

const arg = numberOption;
const CHUNKS = arg("chunks", 12);
const CHUNK_G = arg("chunk-g", 80);
const ROUNDS = arg("rounds", 150);

interface Figures {
  label: string;
  G: number;
  tiles: number;
  genMs: number;
  buildMs: number;
  commit: number[];
  commitCpu: number[];
  commitPropagation: number[];
  observe: number[];
  observeCpu: number[];
  observeBytes: number;
  observeTiles: number;
  observeTerritory: number;
  replayMs: number;
  writes: number;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const now = (): number => performance.now();
/** CPU time of this process since `start`, in ms: unlike wall time, not inflated by other processes on a shared machine. */
const cpuMs = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
const RULES = { guess: "accept", depth: 0, fog: false } as const;

/** Time spent inside propagation (the engine's Propagator), to split a commit's cost. */
let propagationMs = 0;
function timedPropagator(G: number, depth: 0 | 1 | 2): ForcingOracle {
  const p = new Propagator(G, depth);
  const timed = <T>(fn: () => T): T => {
    const s = performance.now();
    const out = fn();
    propagationMs += performance.now() - s;
    return out;
  };
  return {
    addTile: (t) => p.addTile(t),
    reveal: (t) => timed(() => p.reveal(t)),
    setKnown: (c, v) => timed(() => p.setKnown(c, v)),
    clearKnown: (c) => timed(() => p.clearKnown(c)),
    forcedValue: (c) => timed(() => p.forcedValue(c)),
  };
}
const joinOf = (m: string): WriteInput => ({ type: "join", machineId: m, session: "1", name: m, model: "x", harness: "bench", harnessSource: "argument", tags: {}, verified: true });

/** A referee plus the log of writes applied to it (for the replay measurement). */
class Table {
  readonly log: Array<[WriteInput, number]> = [];
  private at = 1_800_000_000_000;
  constructor(readonly ref: Referee, readonly field: Field) {}

  apply(input: WriteInput) {
    this.log.push([input, this.at]);
    const r = this.ref.apply(input, this.at++);
    if (!r.ok) throw new Error(`${input.type}: ${r.error.code} ${r.error.message}`);
    return r;
  }

  /** Untimed: reveal frontier tiles until `want` unknown cells are open; returns them with true values. */
  openCells(agent: string, want: number): Array<[number, 0 | 1]> {
    const { ref, field } = this;
    const batch: Array<[number, 0 | 1]> = [];
    const seen = new Set<number>();
    for (const t of ref.frontier(agent) ?? []) {
      if (batch.length >= want) break;
      if (ref.tileStatus(t)?.status === "hidden") this.apply({ type: "reveal", machineId: agent.split("/")[0], agent, expectedRevision: ref.revision, tile: t, intent: "open" });
      for (const c of field.tiles[t].cellIds) {
        if (batch.length >= want) break;
        if (ref.cell(c)?.value === -1 && !seen.has(c)) {
          seen.add(c);
          batch.push([c, field.solution[c] as 0 | 1]);
        }
      }
    }
    return batch;
  }

  commitInput(agent: string, cells: Array<[number, 0 | 1]>, intent: string): WriteInput {
    return { type: "commit", machineId: agent.split("/")[0], agent, expectedRevision: this.ref.revision, cells, intent };
  }
}

async function measure(label: string, field: Field, genMs: number, rounds: number): Promise<Figures> {
  const t0 = now();
  const table = new Table(new Referee({ gameId: "bench", seed: "bench-seed", field, rules: RULES, forcing: timedPropagator }), field);
  const buildMs = now() - t0;
  const { ref } = table;
  // Other agents seated around the field, as on a busy day.
  for (const m of ["m-b", "m-c", "m-d", "m-e"]) table.apply(joinOf(m));
  const agent = table.apply(joinOf("m-a")).answer.agent as string;
  const f: Figures = { label, G: field.G, tiles: field.tiles.length, genMs, buildMs, commit: [], commitCpu: [], commitPropagation: [], observe: [], observeCpu: [], observeBytes: 0, observeTiles: 0, observeTerritory: 0, replayMs: 0, writes: 0 };

  // 1. Full 512-cell commits (true values, in tile order) while the agent's territory grows.
  // Smaller batches (a frontier with fewer than 512 open cells) are applied untimed to grow it.
  for (let round = 0, guard = 0; round < rounds && guard < 20 * rounds; guard++) {
    const batch = table.openCells(agent, 512);
    if (batch.length === 0) break;
    if (batch.length < 512) {
      table.apply(table.commitInput(agent, batch, "grow"));
      continue;
    }
    round++;
    const input = table.commitInput(agent, batch, `round ${round}`);
    table.log.push([input, 0]);
    const c = process.cpuUsage();
    propagationMs = 0;
    const s = now();
    const r = ref.apply(input, 0);
    f.commitPropagation.push(propagationMs);
    f.commit.push(now() - s);
    f.commitCpu.push(cpuMs(c));
    if (!r.ok) throw new Error(r.error.message);
  }
  f.writes = table.log.length;
  // Restore after eviction: a fresh referee re-applies every stored write.
  const r0 = now();
  const fresh = new Referee({ gameId: "bench", seed: "bench-seed", field, rules: RULES });
  for (const [input, t] of table.log) fresh.apply(input, t);
  f.replayMs = now() - r0;
  if (fresh.stateDigest() !== ref.stateDigest()) throw new Error("replay diverged");

  // 2. observe {agent} for an agent whose group solved about 25 tiles (same scope on every field).
  const obsTable = new Table(new Referee({ gameId: "bench", seed: "bench-seed", field, rules: RULES }), field);
  for (const m of ["m-b", "m-c", "m-d", "m-e"]) obsTable.apply(joinOf(m));
  const watcher = obsTable.apply(joinOf("m-a")).answer.agent as string;
  while (obsTable.ref.totals().solved < 25) {
    const batch = obsTable.openCells(watcher, 64);
    if (batch.length === 0) break;
    obsTable.apply(obsTable.commitInput(watcher, batch, "grow"));
  }
  f.observeTerritory = obsTable.ref.totals().solved;
  for (let i = 0; i < 300; i++) {
    const c = process.cpuUsage();
    const s = now();
    const obs = obsTable.ref.observe({ agent: watcher, callerMachineId: "m-a" });
    f.observe.push(now() - s);
    f.observeCpu.push(cpuMs(c));
    if (!obs.ok) throw new Error(obs.error.message);
    if (i === 0) {
      f.observeBytes = JSON.stringify(obs.observation).length;
      f.observeTiles = (obs.observation.tiles as unknown[]).length;
    }
  }
  return f;
}

function report(f: Figures): void {
  const r = (x: number) => x.toFixed(2);
  console.log(`\n${f.label}: G=${f.G}, ${f.tiles} tiles (generated in ${(f.genMs / 1000).toFixed(1)} s; referee built in ${r(f.buildMs)} ms)`);
  console.log(
    `  commit, ${f.commit.length} batches of 512 cells: wall p50 ${r(pct(f.commit, 50))} ms, p99 ${r(pct(f.commit, 99))} ms, max ${r(Math.max(...f.commit))} ms; ` +
      `CPU p50 ${r(pct(f.commitCpu, 50))} ms, p99 ${r(pct(f.commitCpu, 99))} ms   [target ≤ 5 ms]`,
  );
  const own = f.commit.map((x, i) => x - f.commitPropagation[i]);
  console.log(`    of which propagation (forcedValue, setKnown): p50 ${r(pct(f.commitPropagation, 50))} ms; the referee's own work: p50 ${r(pct(own, 50))} ms, p99 ${r(pct(own, 99))} ms`);
  console.log(
    `  observe {agent}, territory ${f.observeTerritory} tiles: wall p50 ${r(pct(f.observe, 50))} ms, p99 ${r(pct(f.observe, 99))} ms; ` +
      `CPU p50 ${r(pct(f.observeCpu, 50))} ms, p99 ${r(pct(f.observeCpu, 99))} ms   [target ≤ 2 ms]`,
  );
  console.log(`  observe payload: ${f.observeBytes} bytes of JSON, ${f.observeTiles} tiles listed`);
  console.log(`  slowest commits (round: ms): ${f.commit.map((x, i) => [i, x] as const).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([i, x]) => `${i}: ${r(x)}`).join(", ")}`);
  console.log(`  replay of ${f.writes} writes into a fresh referee (restore after eviction): ${r(f.replayMs)} ms`);
}

// Warm the JIT on a small field first so both measured runs see optimised code.
const warm = await generateField({ kind: "scatter", seed: "bench-warm", G: 60 });
await measure("warm-up", warm, 0, 20);

const smallStart = now();
const small = await generateField({ kind: "scatter", seed: "bench-small", G: 100 });
const smallFig = await measure("baseline: scatter G=100", small, now() - smallStart, ROUNDS);
report(smallFig);

const bigStart = now();
const big = await generateField({ kind: "field", seed: "bench-large", chunks: CHUNKS, chunk_g: CHUNK_G });
const bigFig = await measure(`large: field ${CHUNKS}×${CHUNKS} chunks of ${CHUNK_G}`, big, now() - bigStart, ROUNDS);
report(bigFig);

const ratio = bigFig.observeBytes / smallFig.observeBytes;
console.log(`\nobserve payload large/small: ${ratio.toFixed(2)}× on a field ${(bigFig.tiles / smallFig.tiles).toFixed(0)}× larger: it follows the scope, not the field`);
const wallPass = pct(bigFig.commit, 50) <= 5 && pct(bigFig.commit, 99) <= 5 && pct(bigFig.observe, 50) <= 2 && pct(bigFig.observe, 99) <= 2;
const cpuPass = pct(bigFig.commitCpu, 50) <= 5 && pct(bigFig.commitCpu, 99) <= 5 && pct(bigFig.observeCpu, 50) <= 2 && pct(bigFig.observeCpu, 99) <= 2;
console.log(`targets (p50 and p99) on wall time: ${wallPass ? "met" : "MISSED"}; on CPU time: ${cpuPass ? "met" : "MISSED"}`);
console.log(`load average during the run: ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")} on ${(await import("node:os")).cpus().length} cores`);
