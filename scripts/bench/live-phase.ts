import { loadavg } from "node:os";
import type { Field } from "../../src/engine";
import { startSpectators } from "./live-spectators";
import { sleep, writer, WriteLog } from "./live-writers";
import { cpuSince } from "./process-cpu";
import { percentile } from "./samples";

/**
 * One phase of a live benchmark: `spectators` sockets listen while the writers commit at a steady
 * rate for `seconds`; then, for every event and every socket, the delay from the writer's answer
 * to the socket's receipt, the events any socket missed, and the server's CPU during the writes.
 */
export interface PhaseOptions {
  /** Where the agents write (/mcp) and the snapshot is read. */
  writeBase: string;
  /** Where the spectators connect (the same server, or the relays' process). */
  watchBase: string;
  gameId: string;
  field: Field;
  spectators: number;
  writers: number;
  rate: number;
  seconds: number;
  /** Numbers this phase's writers' machines apart from another phase's. */
  phase: number;
  /** A nice value for the spectators' threads (they then yield the CPU to the writers and the server). */
  spectatorNice?: number;
  /** CPU seconds used so far, per process (or name): read before and after the writes. */
  cpu: () => Map<string, number>;
}

export interface Phase {
  spectators: number;
  events: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  missing: number;
  resyncs: number;
  /** `events` messages the spectators received, all sockets together. */
  messages: number;
  /** A write call's duration as its writer saw it (ms). */
  writeP50: number;
  writeP99: number;
  /** Tool calls the writers made (observes and writes), and writes refused. */
  calls: number;
  refused: number;
  /** CPU seconds during the writes, keyed as `cpu()` keys them; and this benchmark's own. */
  serverCpu: Record<string, number>;
  clientCpu: number;
  load: string;
}

async function head(base: string, gameId: string): Promise<number> {
  return ((await (await fetch(`${base}/api/games/${gameId}/snapshot`)).json()) as { revision: number }).revision;
}

export async function runPhase(o: PhaseOptions): Promise<Phase> {
  const from = await head(o.writeBase, o.gameId);
  const listeners = await startSpectators(o.watchBase, o.gameId, from, o.spectators, o.spectatorNice);
  await sleep(500);
  const log = new WriteLog();
  const cpuBefore = o.cpu();
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  let stopped = false;
  const stopAt = start + o.seconds * 1000;
  const stop = (): boolean => stopped || performance.now() > stopAt;
  await Promise.all(
    Array.from({ length: o.writers }, (_, index) =>
      writer({ base: o.writeBase, gameId: o.gameId, field: o.field, writers: o.writers, index, rate: o.rate, phase: o.phase, log, stop }),
    ),
  );
  stopped = true;
  const seconds = (performance.now() - start) / 1000;
  // The CPU is read once every socket has the last event, so it covers the whole fan-out.
  const last = await head(o.writeBase, o.gameId);
  await listeners.caughtUp(last);
  const serverCpu = cpuSince(cpuBefore, o.cpu());
  const client = process.cpuUsage(clientBefore);
  const load = loadavg().map((l) => l.toFixed(2)).join(", ");
  const writes = [...log.latencies].sort((a, b) => a - b);
  const results = await listeners.close();
  const delays: number[] = [];
  let missing = 0;
  for (const r of results) {
    const received = new Map(r.received);
    for (let rev = from + 1; rev <= last; rev++) {
      const t = received.get(rev);
      if (t === undefined) {
        missing++;
        continue;
      }
      const answered = log.answeredAt.get(rev);
      if (answered !== undefined) delays.push(t - answered);
    }
  }
  delays.sort((a, b) => a - b);
  return {
    spectators: o.spectators,
    events: last - from,
    seconds,
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
    max: delays[delays.length - 1] ?? NaN,
    missing,
    resyncs: results.reduce((n, r) => n + r.resyncs, 0),
    messages: results.reduce((n, r) => n + r.messages, 0),
    writeP50: percentile(writes, 50),
    writeP99: percentile(writes, 99),
    calls: log.calls,
    refused: log.refused,
    serverCpu,
    clientCpu: (client.user + client.system) / 1e6,
    load,
  };
}
