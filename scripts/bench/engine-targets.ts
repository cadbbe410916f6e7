/**
 * The generation-speed targets of issue 31, as ratios against the frozen reference measured in
 * the same run (engine-versus.ts): G = 100 scatter ≤ 250 ms median in-process and ≥ 2.5× faster,
 * a ring of 60 × 60 chunks around a 3×3 field ≤ 1 s, and (with `--day`) the synthetic full day's
 * G = 1000 field regenerated in ≤ 25 s of CPU.
 */
import { loadavg } from "node:os";
import type { FieldParams } from "../../src/engine";
import { current, fieldJob, frozen, ringJob, versus, wholeDayJob, type Timed } from "./engine-versus";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const sum = (xs: Timed[], f: (t: Timed) => number): number => xs.reduce((a, t) => a + f(t), 0);

function report(name: string, runs: { current: Timed[]; frozen: Timed[] }, target: string, meets: (now: { ms: number; cpu: number }, ratio: number) => boolean): void {
  const now = { ms: median(runs.current.map((t) => t.ms)), cpu: median(runs.current.map((t) => t.cpu)) };
  const before = { ms: median(runs.frozen.map((t) => t.ms)), cpu: median(runs.frozen.map((t) => t.cpu)) };
  // CPU ratios of the pairs (each pair ran back to back, so under the same load): their median is
  // the figure least moved by a burst of load; the ratio of the totals is printed beside it.
  const ratio = median(runs.current.map((t, i) => runs.frozen[i].cpu / t.cpu));
  const totals = sum(runs.frozen, (t) => t.cpu) / sum(runs.current, (t) => t.cpu);
  const verdict = meets(now, ratio) ? "meets" : "MISSES";
  console.log(`${name.padEnd(34)} median ${fmt(now.ms).padStart(8)} [cpu ${fmt(now.cpu)}]  reference ${fmt(before.ms).padStart(8)} [cpu ${fmt(before.cpu)}]  ${ratio.toFixed(2)}× cpu (pairs' median; totals ${totals.toFixed(2)}×)  target ${target} (${verdict})`);
}

export async function compareWithReference(o: { quick: boolean; day: boolean }): Promise<void> {
  console.log("\nagainst the frozen pre-optimisation reference, same run, alternating; every field's digest identical");
  const n100 = o.quick ? 3 : 7;
  const g100 = await versus(Array.from({ length: n100 }, (_, i) => (e) => fieldJob(e, { kind: "scatter", seed: `s100-${i}`, G: 100 })));
  report("scatter G=100", g100, "≤ 250 ms, ≥ 2.5×", (now, r) => now.ms <= 250 && r >= 2.5);

  const rings = o.quick ? 1 : 3;
  const cases = [];
  for (let i = 0; i < rings; i++) {
    const params: FieldParams = { kind: "field", seed: `ring-${i}`, chunks: 3, chunk_g: 60, grow: true };
    const base = await current.generateField(params);
    cases.push((e: typeof current) => ringJob(e, params, 1, base));
  }
  const ring = await versus(cases);
  report("ring 1 of 60×60 chunks around 3×3", ring, "≤ 1 s", (now) => now.ms <= 1000);

  if (o.day) {
    // The synthetic full day of `npm run bench:audit` (test/support/synthetic-day.ts there).
    const params: FieldParams = { kind: "field", seed: "b5".repeat(32), chunks: 4, chunk_g: 50, G: 1000, grow: true };
    const log = (who: string) => (k: number, tiles: number): void => {
      if (k % 2 === 0) console.log(`  ${who}: ring ${k} done, ${tiles} tiles (load ${loadavg()[0].toFixed(1)})`);
    };
    const day = await versus([(e) => wholeDayJob(e, params, log(e === frozen ? "reference" : "engine"))]);
    report("synthetic full day, G=1000 (CPU)", day, "≤ 25 s cpu", (now) => now.cpu <= 25_000);
  }
  console.log(`load average after the comparison: ${loadavg().map((x) => x.toFixed(1)).join(" ")}\n`);
}
