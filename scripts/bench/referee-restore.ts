/**
 * Wake-up cost of a field's referee (in process, no Workers runtime): rebuilding it by replaying
 * every stored write (the baseline, as before snapshots) against restoring the newest snapshot and
 * replaying only the writes after it (at most SNAPSHOT_EVERY − 1; the worst case is measured).
 * Also the cost of taking a snapshot and its stored size, and what snapshots do to the latency of
 * writes: taken inside every 128th write (as before) against taken in bounded steps between
 * writes after the answer (as now), over the same day of writes in the same run.
 *
 *   npx tsx scripts/bench/referee-restore.ts                 # 12×12 chunks of 80 (G = 960), 150 rounds
 *   npx tsx scripts/bench/referee-restore.ts --chunks 4 --rounds 40
 */
import { parseArgs } from "node:util";
import { generateField, type Field } from "../../src/engine";
import { SNAPSHOT_EVERY } from "../../src/game/replay";
import { Referee, type RefereeInit, type RefereeSnapshot } from "../../src/referee";
import type { WriteInput } from "../../src/referee/types";

const { values: opts } = parseArgs({
  options: { chunks: { type: "string" }, "chunk-g": { type: "string" }, rounds: { type: "string" }, every: { type: "string" }, repeat: { type: "string" } },
});
const CHUNKS = Number(opts.chunks ?? 12);
const CHUNK_G = Number(opts["chunk-g"] ?? 80);
const ROUNDS = Number(opts.rounds ?? 150);
const EVERY = Number(opts.every ?? SNAPSHOT_EVERY);
const REPEAT = Number(opts.repeat ?? 3);

const now = (): number => performance.now();
const cpu = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
/** Wall and CPU ms of `fn`, best of REPEAT runs (the machine is shared). */
function timed<T>(fn: () => T): { wall: number; cpu: number; out: T } {
  let best: { wall: number; cpu: number; out: T } | null = null;
  for (let i = 0; i < REPEAT; i++) {
    const c = process.cpuUsage();
    const s = now();
    const out = fn();
    const r = { wall: now() - s, cpu: cpu(c), out };
    if (!best || r.cpu < best.cpu) best = r;
  }
  return best!;
}

const joinOf = (m: string): WriteInput => ({ type: "join", machineId: m, session: "1", name: m, model: "x", harness: "bench", harnessSource: "argument", tags: {}, verified: true });

/** The day of the referee benchmark: five seats, then one agent's 512-cell commits as its territory grows. */
function playDay(init: RefereeInit, field: Field, rounds: number): Array<[WriteInput, number]> {
  const ref = new Referee(init);
  const log: Array<[WriteInput, number]> = [];
  let at = 1_800_000_000_000;
  const apply = (input: WriteInput) => {
    log.push([input, at]);
    const r = ref.apply(input, at++);
    if (!r.ok) throw new Error(`${input.type}: ${r.error.message}`);
    return r;
  };
  for (const m of ["m-b", "m-c", "m-d", "m-e"]) apply(joinOf(m));
  const agent = apply(joinOf("m-a")).answer.agent as string;
  for (let round = 0, guard = 0; round < rounds && guard < 20 * rounds; guard++) {
    const batch: Array<[number, 0 | 1]> = [];
    const seen = new Set<number>();
    for (const t of ref.frontier(agent) ?? []) {
      if (batch.length >= 512) break;
      if (ref.tileStatus(t)?.status === "hidden") apply({ type: "reveal", machineId: "m-a", agent, expectedRevision: ref.revision, tile: t, intent: "open" });
      for (const c of field.tiles[t].cellIds) {
        if (batch.length >= 512) break;
        if (ref.cell(c)?.value === -1 && !seen.has(c)) {
          seen.add(c);
          batch.push([c, field.solution[c] as 0 | 1]);
        }
      }
    }
    if (batch.length === 0) break;
    if (batch.length === 512) round++;
    apply({ type: "commit", machineId: "m-a", agent, expectedRevision: ref.revision, cells: batch, intent: `round ${round}` });
  }
  return log;
}

function replay(init: RefereeInit, log: Array<[WriteInput, number]>, ref = new Referee(init)): Referee {
  for (const [input, at] of log) ref.apply(input, at);
  return ref;
}

const g0 = now();
const field = await generateField({ kind: "field", seed: "bench-restore", chunks: CHUNKS, chunk_g: CHUNK_G });
const genS = (now() - g0) / 1000;
const init: RefereeInit = { gameId: "bench", seed: "bench-seed", field, rules: { guess: "accept", depth: 0, fog: false } };
const log = playDay(init, field, ROUNDS);
const cut = Math.max(0, log.length - (EVERY - 1));
console.log(`field: ${CHUNKS}×${CHUNKS} chunks of ${CHUNK_G}, G=${field.G}, ${field.tiles.length} tiles (generated in ${genS.toFixed(1)} s); ${log.length} stored writes; snapshot every ${EVERY}`);

// Before: every write replayed into a fresh referee.
const full = timed(() => replay(init, log));
const digest = full.out.stateDigest();

// The state at the newest snapshot in the worst case: EVERY − 1 writes before the end.
const atCut = replay(init, log.slice(0, cut));
const take = timed(() => new TextEncoder().encode(JSON.stringify(atCut.snapshot())));
const bytes = take.out;
const decode = timed(() => JSON.parse(new TextDecoder().decode(bytes)) as RefereeSnapshot);
const restore = timed(() => Referee.restore(init, JSON.parse(new TextDecoder().decode(bytes)) as RefereeSnapshot));
const wake = timed(() => replay(init, log.slice(cut), Referee.restore(init, JSON.parse(new TextDecoder().decode(bytes)) as RefereeSnapshot)));
if (wake.out.stateDigest() !== digest) throw new Error("restore + replay diverged from the full replay");
const construct = timed(() => new Referee(init));

const r = (x: number) => x.toFixed(0);
const both = (t: { wall: number; cpu: number }) => `wall ${r(t.wall)} ms, CPU ${r(t.cpu)} ms`;
console.log(`  referee construction (fresh, no play): ${both(construct)}`);
console.log(`  BEFORE  full replay of ${log.length} writes: ${both(full)}`);
console.log(`  AFTER   restore the snapshot + replay the ${log.length - cut} writes after it (worst case): ${both(wake)}  (${(full.cpu / wake.cpu).toFixed(1)}× less CPU)`);
console.log(`          of which UTF-8 + JSON.parse: ${both(decode)}; decode + Referee.restore: ${both(restore)}`);
console.log(`  taking a snapshot in one go (snapshot() + JSON + UTF-8), as the write path did every ${EVERY} events: ${both(take)}`);
console.log(`  snapshot size: ${(bytes.length / 1024).toFixed(0)} KiB (${Math.ceil(bytes.length / (1 << 20))} row(s) of ≤ 1 MiB)`);

// The same snapshot in steps, as the object now takes it after the answer.
const stepped = timed(() => {
  const started = now();
  const taking = atCut.snapshotInSteps();
  const capture = now() - started;
  const steps: number[] = [];
  let r = taking.steps.next();
  for (;;) {
    if (r.done) break;
    const s0 = now();
    r = taking.steps.next();
    steps.push(now() - s0);
  }
  const e0 = now();
  const encoded = new TextEncoder().encode(JSON.stringify(r.value));
  steps.push(now() - e0);
  return { capture, steps, encoded };
});
if (new TextDecoder().decode(stepped.out.encoded) !== new TextDecoder().decode(bytes)) throw new Error("the stepped snapshot differs from the one taken in one go");
const maxStep = Math.max(stepped.out.capture, ...stepped.out.steps);
console.log(
  `  taking it in steps after the answer: ${stepped.out.steps.length + 1} steps, capture ${stepped.out.capture.toFixed(1)} ms, ` +
    `longest step ${maxStep.toFixed(1)} ms (the most a queued write waits), all steps ${both(stepped)}`,
);

/**
 * Write latency over the whole day, replayed into a fresh referee, as a client sending its next
 * write as soon as the previous is answered sees it in the object (one thread): BEFORE, the write
 * that crosses each 128 events also takes the snapshot; AFTER, the snapshot is captured and
 * encoded one step per turn between writes, so a write waits at most for the step in progress.
 */
function writeLatencies(mode: "inline" | "stepped"): number[] {
  const ref = new Referee(init);
  const out: number[] = [];
  let lastSnap = 0;
  let pending: Generator<void, RefereeSnapshot, void> | null = null;
  let pendingEncode: RefereeSnapshot | null = null;
  let startDue = false;
  for (const [input, at] of log) {
    // CPU time, not wall time: on a shared machine other processes inflate wall time at random.
    const c = process.cpuUsage();
    // The turn before this write arrives: one step of a snapshot in progress, if any.
    if (startDue) {
      const taking = ref.snapshotInSteps();
      lastSnap = taking.revision;
      pending = taking.steps;
      startDue = false;
    } else if (pending) {
      const r = pending.next();
      if (r.done) {
        pending = null;
        pendingEncode = r.value;
      }
    } else if (pendingEncode) {
      new TextEncoder().encode(JSON.stringify(pendingEncode));
      pendingEncode = null;
    }
    ref.apply(input, at);
    if (mode === "inline" && ref.revision - lastSnap >= EVERY) {
      new TextEncoder().encode(JSON.stringify(ref.snapshot()));
      lastSnap = ref.revision;
    }
    out.push(cpu(c));
    if (mode === "stepped" && !pending && !pendingEncode && ref.revision - lastSnap >= EVERY) startDue = true;
  }
  return out;
}
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const lat = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
// Warm both paths up first (JIT), then measure each mode on the same day.
writeLatencies("stepped");
const inline = writeLatencies("inline");
const steppedLat = writeLatencies("stepped");
console.log(`  write latency over the ${log.length} writes, CPU time (referee + the snapshot work a write waits for):`);
console.log(`    BEFORE snapshot inside every ${EVERY}th write: ${lat(inline)}`);
console.log(`    AFTER  snapshot in steps between writes:      ${lat(steppedLat)}  (p99 ${(pct(inline, 99) / pct(steppedLat, 99)).toFixed(1)}×, max ${(Math.max(...inline) / Math.max(...steppedLat)).toFixed(1)}× lower)`);
