/**
 * `npm run bench:live -- --scale`: the field object's CPU per event against the number of
 * spectators, from 1 to thousands of sockets (docs/scale.md "Measuring it"). The Worker runs in
 * two `wrangler dev` processes (split-relays.ts): the field's (its object, the other objects, and
 * the Worker that answers the agents) and the relays' (the relays and the Worker that answers the
 * spectators' upgrades). Linux counts each workerd process's CPU apart (/proc/<pid>/stat), so the
 * field's CPU during a phase, divided by the events written, is the field's cost per event, which
 * must not grow with the spectators. Each phase plays a fresh field (the same seed), so every
 * phase starts from the same state; the 1-spectator phase runs again at the end as a check of the
 * machine's drift.
 *
 *   npm run bench:live -- --scale                            # 1, 10, 100, 1000, 4500, then 1 again
 *   npm run bench:live -- --scale --counts 1,100,4000 --seconds 20 --relays 16
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateField, type Field } from "../../src/engine";
import { startDevServer, type DevServer } from "../../test/support/wrangler-dev";
import { numberOption, textOption } from "./bench-options";
import { runPhase, type Phase } from "./live-phase";
import { sleep, tool } from "./live-writers";
import { devWorkerd, niceGroup, processCpu } from "./process-cpu";
import { writeSplitConfigs } from "./split-relays";

/**
 * Events a second the writers offer: 10, so that the relays' one local process can send every
 * batch to 4,500 sockets within the phase on this 2-core machine (at 25 it fell a minute behind).
 */
const RATE = numberOption("rate", 10);
const SECONDS = numberOption("seconds", 20);
const WRITERS = numberOption("writers", 12);
const G = numberOption("G", 100);
/**
 * Relays per field. Locally they all share the relays' one workerd thread, and each sends at most
 * about one message a millisecond (live-feed.ts batchWindow), so 4 keep that process within one
 * core at thousands of sockets; the field's work does not depend on the number (one call per batch).
 */
const RELAYS = numberOption("relays", 4);
const BACKGROUND_NICE = 10;
const COUNTS = (textOption("counts") ?? "1,10,100,1000,4500").split(",").map(Number);
/** Times the whole sequence runs: the figure per count is the median over the rounds (the machine is shared). */
const ROUNDS = numberOption("rounds", 2);

/** The CPU seconds of the four workerd processes, by role (found at each reading: wrangler may restart one as the other registers). */
function cpuOf(field: DevServer, relays: DevServer): () => Map<string, number> {
  return () => {
    const f = devWorkerd(field.pid, field.port);
    const r = devWorkerd(relays.pid, relays.port);
    if (f.user.length === 0 || r.user.length === 0) throw new Error("could not find the workerd processes of the two wrangler dev servers");
    return new Map([
      ["field", processCpu(f.user)],
      ["field proxy", processCpu(f.proxy)],
      ["relays", processCpu(r.user)],
      ["relays proxy", processCpu(r.proxy)],
    ]);
  };
}

async function freshField(base: string, seed: string): Promise<{ gameId: string; field: Field }> {
  const started = (await tool(base, "start_mosaic", { kind: "scatter", G, seed })).structuredContent as { game_id: string };
  for (let i = 0; i < 600; i++) {
    if ((await fetch(`${base}/api/games/${started.game_id}/snapshot`)).status === 200) break;
    await sleep(250);
  }
  return { gameId: started.game_id, field: await generateField({ kind: "scatter", G, seed }) };
}

const ms = (p: Phase, key: string): number => (1000 * (p.serverCpu[key] ?? NaN)) / Math.max(1, p.events);
/**
 * The field's CPU over its proxy's, in the same phase: the proxy passes on the same agents' calls
 * per event whatever the audience, so it measures how fast the shared machine ran meanwhile.
 */
const relative = (p: Phase): number => ms(p, "field") / ms(p, "field proxy");

export async function liveScale(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mosaic-bench-scale-"));
  // A registry of this run's own, so the two processes find each other and no other `wrangler dev`.
  const env = { WRANGLER_REGISTRY_PATH: join(dir, "registry") };
  const configs = writeSplitConfigs(join(dir, "config"));
  const vars = { MOSAIC_DEV: "1", MOSAIC_LIVE_RELAYS: String(RELAYS) };
  const field = await startDevServer({ config: configs.field, vars, env });
  const relays = await startDevServer({ config: configs.relays, vars, env }).catch(async (err: unknown) => {
    await field.stop();
    throw err;
  });
  // On Cloudflare the relays run on other machines than the field: here they yield the CPU to it
  // (so do the spectators' threads, live-spectators.ts), so the field's figure is its own work,
  // not the relays' preempting it on the two cores they share.
  niceGroup(relays.pid, BACKGROUND_NICE);
  const phases: Phase[] = [];
  let stoppedAt: string | null = null;
  try {
    const cpu = cpuOf(field, relays);
    const seed = "bench-live-scale";
    // Unmeasured: the first phase of a fresh process runs cold code (measured 15-30 % dearer).
    const warm = await freshField(field.baseUrl, seed);
    await runPhase({ writeBase: field.baseUrl, watchBase: relays.baseUrl, gameId: warm.gameId, field: warm.field, spectators: 1, writers: WRITERS, rate: RATE, seconds: 10, phase: 0, cpu, spectatorNice: BACKGROUND_NICE });
    const sequence = Array.from({ length: ROUNDS }, () => COUNTS).flat();
    for (const [i, spectators] of sequence.entries()) {
      const { gameId, field: truth } = await freshField(field.baseUrl, seed);
      try {
        const p = await runPhase({ writeBase: field.baseUrl, watchBase: relays.baseUrl, gameId, field: truth, spectators, writers: WRITERS, rate: RATE, seconds: SECONDS, phase: i + 1, cpu, spectatorNice: BACKGROUND_NICE });
        phases.push(p);
        console.log(
          `${spectators} spectators: ${p.events} events, field ${ms(p, "field").toFixed(2)} ms/event, relays ${ms(p, "relays").toFixed(2)} ms/event, ${p.missing} missing, ${p.resyncs} resyncs (load ${p.load})`,
        );
      } catch (err) {
        // The machine holds no more sockets (file descriptors, memory): report where and why.
        stoppedAt = `${spectators} spectators: ${String(err)}`;
        console.log(`stopped at ${stoppedAt}`);
        break;
      }
    }
  } finally {
    await relays.stop();
    await field.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  report(phases, stoppedAt);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function report(phases: Phase[], stoppedAt: string | null): void {
  console.log(`\nthe field's CPU per event against spectators: relays in their own wrangler dev process, ${RELAYS} relays per field;`);
  console.log(`scatter G=${G}, ${WRITERS} writers offering ${RATE} events/s, ${SECONDS} s per phase, a fresh field per phase, ${ROUNDS} round(s)`);
  console.log("| spectators | events | events/s | calls per event (refused) | field CPU per event | field proxy | field ÷ its proxy | relays CPU per event | relays proxy | missing | resyncs | delay p50 / p99 | write p50 | load at the end |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const p of phases) {
    const cells = [
      p.spectators,
      p.events,
      (p.events / p.seconds).toFixed(1),
      `${(p.calls / Math.max(1, p.events)).toFixed(2)} (${p.refused})`,
      `${ms(p, "field").toFixed(2)} ms`,
      `${ms(p, "field proxy").toFixed(2)} ms`,
      relative(p).toFixed(2),
      `${ms(p, "relays").toFixed(2)} ms`,
      `${ms(p, "relays proxy").toFixed(2)} ms`,
      p.missing,
      p.resyncs,
      `${p.p50.toFixed(0)} / ${p.p99.toFixed(0)} ms`,
      `${p.writeP50.toFixed(0)} ms`,
      p.load.split(", ")[0],
    ];
    console.log(`| ${cells.join(" | ")} |`);
  }
  // The figures per spectator count: the median of its phases over the rounds.
  const counts = [...new Set(phases.map((p) => p.spectators))].sort((a, b) => a - b);
  const per = (f: (p: Phase) => number): number[] => counts.map((n) => median(phases.filter((p) => p.spectators === n).map(f)));
  const spread = (xs: number[]): string => {
    const ratio = Math.max(...xs) / Math.min(...xs);
    return `max / min ${ratio.toFixed(2)} (target ≤ 1.20: ${ratio <= 1.2 ? "met" : "NOT met"})`;
  };
  if (counts.length > 0) {
    const raw = per((p) => ms(p, "field"));
    const rel = per(relative);
    console.log(`\nfield CPU per event, median of ${ROUNDS} round(s): ${counts.map((n, i) => `${n}: ${raw[i].toFixed(2)} ms`).join(", ")}; ${spread(raw)}`);
    console.log(`field ÷ its proxy (the machine's speed taken out): ${counts.map((n, i) => `${n}: ${rel[i].toFixed(2)}`).join(", ")}; ${spread(rel)}`);
  }
  const missing = phases.reduce((n, p) => n + p.missing, 0);
  console.log(`events missing, all phases: ${missing}${missing === 0 ? "" : " (must be 0)"}`);
  if (stoppedAt) console.log(`the largest phase did not run: ${stoppedAt}`);
  console.log("(field = the workerd process that hosts the field's object and the Worker answering the agents; proxy = wrangler's own proxy process in front of each)");
}
