/**
 * The live feed under load, through `wrangler dev` (workerd, the real routes and Durable Object):
 * scripted agents commit at a steady rate (≥ 20 events/s) while spectators listen on
 * `GET /api/games/:id/live`; for every event and every spectator, the delay from the moment the
 * writer got its commit answer to the moment the spectator received the event. The same run
 * measures one spectator first (the baseline), then 500. The spectators run in worker threads
 * (live-spectators.ts) so that decoding 500 copies of every batch does not slow the writers down;
 * times are absolute (`performance.timeOrigin + performance.now()`), comparable across threads.
 *
 *   npm run bench:live                                   # 1 then 500 spectators, 12 writers at 25 events/s, 15 s each
 *   npm run bench:live -- --spectators 200 --rate 40 --seconds 10
 *   npm run bench:live -- --base http://127.0.0.1:8787           # a running `npm start` with MOSAIC_DEV=1
 *   npm run bench:live -- --per-process                          # server CPU per process id, not per name
 *   npm run bench:live -- --scale                                # the field's own CPU per event, 1 to thousands of spectators (live-scale.ts)
 *
 * Beside the delays it prints each phase's write-call latency, the CPU the server's processes
 * (wrangler and workerd) and the benchmark itself used, the server's CPU per event, and the load
 * average: on a shared machine the rate follows the CPU the server gets.
 */
import { generateField } from "../../src/engine";
import { startDevServer } from "../../test/support/wrangler-dev";
import { flagOption, numberOption, textOption } from "./bench-options";
import { runPhase, type Phase } from "./live-phase";
import { liveScale } from "./live-scale";
import { sleep, tool } from "./live-writers";
import { groupCpu } from "./process-cpu";

const arg = numberOption;
const SPECTATORS = arg("spectators", 500);
const RATE = arg("rate", 25);
const SECONDS = arg("seconds", 15);
const WRITERS = arg("writers", 12);
const PER_PROCESS = flagOption("per-process");
const G = arg("G", 100);

async function main(): Promise<void> {
  // --base URL: a server already running in development mode (its logs stay visible); else one is started.
  const given = textOption("base");
  const server = given !== undefined ? null : await startDevServer({ vars: { MOSAIC_DEV: "1" } });
  try {
    const base = server ? server.baseUrl : given!;
    const seed = "bench-live";
    const started = (await tool(base, "start_mosaic", { kind: "scatter", G, seed })).structuredContent as { game_id: string };
    const gameId = started.game_id;
    const field = await generateField({ kind: "scatter", G, seed });
    for (let i = 0; i < 600; i++) {
      const r = await fetch(`${base}/api/games/${gameId}/snapshot`);
      if (r.status === 200) break;
      await sleep(250);
    }
    const pid = server?.pid ?? 0;
    const phase = (spectators: number, n: number): Promise<Phase> =>
      runPhase({ writeBase: base, watchBase: base, gameId, field, spectators, writers: WRITERS, rate: RATE, seconds: SECONDS, phase: n, cpu: () => groupCpu(pid, PER_PROCESS) });
    const baseline = await phase(1, 1);
    const loaded = await phase(SPECTATORS, 2);
    console.log(`\nlive feed through wrangler dev: scatter G=${G}, ${WRITERS} writers at ${RATE} events/s target, ${SECONDS} s per phase`);
    console.log("| spectators | events | events/s | delay p50 | delay p99 | max | missing | resyncs |");
    console.log("|---|---|---|---|---|---|---|---|");
    for (const p of [baseline, loaded]) {
      console.log(`| ${p.spectators} | ${p.events} | ${(p.events / p.seconds).toFixed(1)} | ${p.p50.toFixed(0)} ms | ${p.p99.toFixed(0)} ms | ${p.max.toFixed(0)} ms | ${p.missing} | ${p.resyncs} |`);
    }
    console.log("\n| spectators | write call p50 | write call p99 | server CPU s (by process) | benchmark CPU s | load average at the end |");
    console.log("|---|---|---|---|---|---|");
    for (const p of [baseline, loaded]) {
      const cpu = Object.entries(p.serverCpu).filter(([, s]) => s >= 0.05).map(([n, s]) => `${n} ${s.toFixed(1)}`).join(", ") || "n/a (a running server)";
      console.log(`| ${p.spectators} | ${p.writeP50.toFixed(0)} ms | ${p.writeP99.toFixed(0)} ms | ${cpu} | ${p.clientCpu.toFixed(1)} | ${p.load} |`);
    }
    const perEvent = (p: Phase): number => (1000 * (p.serverCpu.workerd ?? NaN)) / Math.max(1, p.events);
    if (!PER_PROCESS && server) {
      console.log(`\nworkerd CPU per event: ${perEvent(baseline).toFixed(1)} ms with 1 spectator, ${perEvent(loaded).toFixed(1)} ms with ${SPECTATORS}`);
      // What the spectators cost the server: the loaded phase's CPU beyond the baseline's per-event cost, per message delivered.
      const extra = (loaded.serverCpu.workerd ?? NaN) - (loaded.events * perEvent(baseline)) / 1000;
      console.log(`≈ ${((1e6 * extra) / Math.max(1, loaded.messages)).toFixed(0)} µs of workerd CPU per message delivered (${loaded.messages} messages to ${SPECTATORS} sockets, ${(loaded.messages / SPECTATORS).toFixed(0)} each)`);
    }
    console.log(`\n${SPECTATORS} spectators vs 1: p50 ${(loaded.p50 / baseline.p50).toFixed(2)}×, p99 ${(loaded.p99 / baseline.p99).toFixed(2)}×`);
    const rate = Math.min(baseline.events / baseline.seconds, loaded.events / loaded.seconds);
    console.log(`event rate ≥ 20/s in both phases: ${rate >= 20 ? "met" : `NOT met (${rate.toFixed(1)}/s: the writers could not go faster on this machine)`}`);
    console.log("(delay = spectator receipt − the writer's commit answer; it includes the feed's ~100 ms batching window and can be negative when the feed beats the MCP answer)");
  } finally {
    await server?.stop();
  }
}

// --scale: the field's own CPU per event from 1 spectator to thousands, relays in a process of their own.
if (flagOption("scale")) await liveScale();
else await main();
