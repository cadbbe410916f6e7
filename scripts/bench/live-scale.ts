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
 *   npm run bench:live -- --scale                            # 1, 10, 100, 1000, 3000, then 1 again
 *   npm run bench:live -- --scale --counts 1,100,5000 --seconds 20 --relays 16
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateField, type Field } from "../../src/engine";
import { startDevServer, type DevServer } from "../../test/support/wrangler-dev";
import { numberOption, textOption } from "./bench-options";
import { runPhase, type Phase } from "./live-phase";
import { sleep, tool } from "./live-writers";
import { devWorkerd, processCpu } from "./process-cpu";
import { writeSplitConfigs } from "./split-relays";

const RATE = numberOption("rate", 25);
const SECONDS = numberOption("seconds", 15);
const WRITERS = numberOption("writers", 12);
const G = numberOption("G", 100);
const RELAYS = numberOption("relays", 16);
const COUNTS = (textOption("counts") ?? "1,10,100,1000,3000,1").split(",").map(Number);

/** The CPU seconds of the four workerd processes, by role. */
function cpuOf(field: DevServer, relays: DevServer): () => Map<string, number> {
  const f = devWorkerd(field.pid, field.port);
  const r = devWorkerd(relays.pid, relays.port);
  if (f.user.length === 0 || r.user.length === 0) throw new Error("could not find the workerd processes of the two wrangler dev servers");
  return () =>
    new Map([
      ["field", processCpu(f.user)],
      ["field proxy", processCpu(f.proxy)],
      ["relays", processCpu(r.user)],
      ["relays proxy", processCpu(r.proxy)],
    ]);
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
  const phases: Phase[] = [];
  let stoppedAt: string | null = null;
  try {
    const cpu = cpuOf(field, relays);
    const seed = "bench-live-scale";
    for (const [i, spectators] of COUNTS.entries()) {
      const { gameId, field: truth } = await freshField(field.baseUrl, seed);
      try {
        const p = await runPhase({ writeBase: field.baseUrl, watchBase: relays.baseUrl, gameId, field: truth, spectators, writers: WRITERS, rate: RATE, seconds: SECONDS, phase: i + 1, cpu });
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

function report(phases: Phase[], stoppedAt: string | null): void {
  console.log(`\nthe field's CPU per event against spectators: relays in their own wrangler dev process, ${RELAYS} relays per field;`);
  console.log(`scatter G=${G}, ${WRITERS} writers offering ${RATE} events/s, ${SECONDS} s per phase, a fresh field per phase`);
  console.log("| spectators | events | events/s | calls per event (refused) | field CPU per event | field proxy | relays CPU per event | relays proxy | missing | resyncs | delay p50 / p99 | write p50 | load at the end |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const p of phases) {
    const cells = [
      p.spectators,
      p.events,
      (p.events / p.seconds).toFixed(1),
      `${(p.calls / Math.max(1, p.events)).toFixed(2)} (${p.refused})`,
      `${ms(p, "field").toFixed(2)} ms`,
      `${ms(p, "field proxy").toFixed(2)} ms`,
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
  const figures = phases.map((p) => ms(p, "field"));
  if (figures.length > 0) {
    const ratio = Math.max(...figures) / Math.min(...figures);
    const most = Math.max(...phases.map((p) => p.spectators));
    console.log(`\nfield CPU per event, max / min over 1 to ${most} spectators: ${ratio.toFixed(2)} (target ≤ 1.20: ${ratio <= 1.2 ? "met" : "NOT met"})`);
  }
  const missing = phases.reduce((n, p) => n + p.missing, 0);
  console.log(`events missing, all phases: ${missing}${missing === 0 ? "" : " (must be 0)"}`);
  if (stoppedAt) console.log(`the largest phase did not run: ${stoppedAt}`);
  console.log("(field = the workerd process that hosts the field's object and the Worker answering the agents; proxy = wrangler's own proxy process in front of each)");
}
