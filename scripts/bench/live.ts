/**
 * The live feed under load, through `wrangler dev` (workerd, the real routes and Durable Object):
 * scripted agents commit at a steady rate (≥ 20 events/s) while spectators listen on
 * `GET /api/games/:id/live`; for every event and every spectator, the delay from the moment the
 * writer got its commit answer to the moment the spectator received the event. The same run
 * measures one spectator first (the baseline), then 500. The spectators run in worker threads
 * (125 sockets each) so that decoding 500 copies of every batch does not slow the writers down;
 * times are absolute (`performance.timeOrigin + performance.now()`), comparable across threads.
 *
 *   npm run bench:live                                   # 1 then 500 spectators, 12 writers at 25 events/s, 15 s each
 *   npm run bench:live -- --spectators 200 --rate 40 --seconds 10
 *   npm run bench:live -- --base http://127.0.0.1:8787           # a running `npm start` with MOSAIC_DEV=1
 *   npm run bench:live -- --per-process                          # server CPU per process id, not per name
 *
 * Beside the delays it prints each phase's write-call latency, the CPU the server's processes
 * (wrangler and workerd) and the benchmark itself used, the server's CPU per event, and the load
 * average: on a shared machine the rate follows the CPU the server gets.
 */
import { loadavg } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { generateField, type Field } from "../../src/engine";
import { messageOf, modernRequest } from "../../test/support/mcp-wire";
import { startDevServer } from "../../test/support/wrangler-dev";
import { flagOption, numberOption, textOption } from "./bench-options";
import { cpuSince, groupCpu } from "./process-cpu";
import { percentile } from "./samples";

const arg = numberOption;
const SPECTATORS = arg("spectators", 500);
const RATE = arg("rate", 25);
const SECONDS = arg("seconds", 15);
const WRITERS = arg("writers", 12);
const PER_THREAD = 125;
const PER_PROCESS = flagOption("per-process");
const now = (): number => performance.timeOrigin + performance.now();
const G = arg("G", 100);

type Structured = Record<string, unknown>;

async function tool(base: string, name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: Structured }> {
  const req = modernRequest("tools/call", { name, arguments: args }, { client: null });
  // A loaded machine drops a connection now and then: retry the call (writes carry their revision).
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${base}/mcp`, { method: "POST", headers: req.headers, body: req.body });
      return (await messageOf(res)).result as { isError?: boolean; structuredContent?: Structured };
    } catch (err) {
      if (attempt >= 3) throw err;
      await sleep(200 * attempt);
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** When each revision's write was answered to its writer (performance.now()). */
const answeredAt = new Map<number, number>();
/** How long each write call took, as its writer saw it (ms), for the current phase. */
let writeLatencies: number[] = [];

/** One agent committing the true values of its frontier tiles, a few cells per write, at its share of the rate. */
async function writer(base: string, gameId: string, field: Field, index: number, stop: () => boolean): Promise<number> {
  // Machines of their own per phase: a development seat already taken gives a rejoin no agent_secret.
  const machine = `m-${(0xbe00 + 0x100 * phaseNo + index).toString(16).padStart(16, "0")}`;
  const join = await tool(base, "join", { game_id: gameId, machine_id: machine, session: "1", model: "bench", harness: "bench-live" });
  const seat = join.structuredContent as { agent: string; agent_secret: string };
  const interval = (1000 * WRITERS) / RATE;
  let writes = 0;
  let next = performance.now();
  while (!stop()) {
    const o = (await tool(base, "observe", { game_id: gameId, agent: seat.agent })).structuredContent as {
      observation: { revision: number; frontier: number[]; tiles: Array<{ id: number; status: string }>; known: { gaps: number[]; values: string } };
    };
    const obs = o.observation;
    const tile = obs.frontier[index % Math.max(1, obs.frontier.length)];
    if (tile === undefined) break;
    const status = obs.tiles.find((t) => t.id === tile)?.status ?? "hidden";
    const known = new Set<number>();
    let id = 0;
    for (const g of obs.known.gaps) known.add((id += g));
    const write = async (args: Record<string, unknown>, type: string): Promise<number> => {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      next = Math.max(next + interval, performance.now() - interval);
      const sent = now();
      const r = await tool(base, type, { game_id: gameId, agent: seat.agent, agent_secret: seat.agent_secret, intent: "bench", ...args });
      const t = now();
      writeLatencies.push(t - sent);
      const rev = Number(r.structuredContent?.revision);
      if (!r.isError && Number.isInteger(rev)) answeredAt.set(rev, Math.min(answeredAt.get(rev) ?? Infinity, t));
      writes++;
      return rev;
    };
    let rev = obs.revision;
    if (status === "hidden") rev = await write({ tile, expected_revision: rev }, "reveal");
    const cells = field.tiles[tile].cellIds.filter((c) => !known.has(c) && !field.tiles[tile].givens.includes(c));
    for (let i = 0; i < cells.length && !stop(); i += 3) {
      const batch = cells.slice(i, i + 3).map((c) => [c, field.solution[c]]);
      const r = await write({ cells: batch, expected_revision: Number.isInteger(rev) ? rev : obs.revision }, "commit");
      if (Number.isInteger(r)) rev = r;
    }
  }
  return writes;
}

/** In a worker thread: `count` sockets from `from`; on "stop", the receipt time of every event per socket. */
async function spectatorThread(base: string, gameId: string, from: number, count: number): Promise<void> {
  const sockets: Array<{ socket: WebSocket; received: Map<number, number>; resyncs: number; messages: number }> = [];
  for (let i = 0; i < count; i++) {
    const socket = new WebSocket(`${base.replace("http", "ws")}/api/games/${gameId}/live?from=${from}`);
    const entry = { socket, received: new Map<number, number>(), resyncs: 0, messages: 0 };
    socket.addEventListener("message", (m) => {
      const t = now();
      const msg = JSON.parse(String(m.data)) as { type: string; events?: Array<{ rev: number }> };
      if (msg.type === "resync") entry.resyncs++;
      if (msg.type === "events") entry.messages++;
      for (const e of msg.events ?? []) if (!entry.received.has(e.rev)) entry.received.set(e.rev, t);
    });
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("socket failed")), { once: true });
    });
    sockets.push(entry);
  }
  parentPort!.postMessage({ type: "ready" });
  parentPort!.on("message", (m: { type: string; head: number }) => {
    if (m.type !== "stop") return;
    const deadline = Date.now() + 10_000;
    const finish = (): void => {
      if (Date.now() < deadline && sockets.some((s) => !s.received.has(m.head))) {
        setTimeout(finish, 50);
        return;
      }
      for (const s of sockets) s.socket.close();
      parentPort!.postMessage({ type: "done", sockets: sockets.map((s) => ({ received: [...s.received], resyncs: s.resyncs, messages: s.messages })) });
    };
    finish();
  });
}

interface Spectators {
  stop(head: number): Promise<Array<{ received: Array<[number, number]>; resyncs: number; messages: number }>>;
}

async function startSpectators(base: string, gameId: string, from: number, count: number): Promise<Spectators> {
  const threads: Worker[] = [];
  const ready: Array<Promise<void>> = [];
  for (let i = 0; i < count; i += PER_THREAD) {
    const w = new Worker(new URL(import.meta.url), { workerData: { base, gameId, from, count: Math.min(PER_THREAD, count - i) }, execArgv: ["--import", "tsx"] });
    threads.push(w);
    ready.push(new Promise((resolve, reject) => {
      w.once("error", reject);
      w.once("message", () => resolve());
    }));
  }
  await Promise.all(ready);
  return {
    async stop(head: number) {
      const results = await Promise.all(
        threads.map(
          (w) =>
            new Promise<Array<{ received: Array<[number, number]>; resyncs: number; messages: number }>>((resolve) => {
              w.on("message", (m: { type: string; sockets: Array<{ received: Array<[number, number]>; resyncs: number; messages: number }> }) => {
                if (m.type === "done") resolve(m.sockets);
              });
              w.postMessage({ type: "stop", head });
            }),
        ),
      );
      await Promise.all(threads.map((w) => w.terminate()));
      return results.flat();
    },
  };
}

interface Phase {
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
  /** CPU seconds during the phase: the server's processes by name, and this benchmark's own. */
  serverCpu: Record<string, number>;
  clientCpu: number;
  load: string;
}

/** Which phase is running (writers' machine ids). */
let phaseNo = 0;

async function phase(base: string, gameId: string, field: Field, spectators: number, serverPid: number): Promise<Phase> {
  phaseNo++;
  const snapshot = (await (await fetch(`${base}/api/games/${gameId}/snapshot`)).json()) as { revision: number };
  const from = snapshot.revision;
  const listeners = await startSpectators(base, gameId, from, spectators);
  await sleep(500);
  writeLatencies = [];
  const cpuBefore = groupCpu(serverPid, PER_PROCESS);
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  let stopped = false;
  const stopAt = start + SECONDS * 1000;
  await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(base, gameId, field, i, () => stopped || performance.now() > stopAt)));
  stopped = true;
  const seconds = (performance.now() - start) / 1000;
  const serverCpu = cpuSince(cpuBefore, groupCpu(serverPid, PER_PROCESS));
  const client = process.cpuUsage(clientBefore);
  const load = loadavg().map((l) => l.toFixed(2)).join(", ");
  const writes = [...writeLatencies].sort((a, b) => a - b);
  const head = ((await (await fetch(`${base}/api/games/${gameId}/snapshot`)).json()) as { revision: number }).revision;
  const results = await listeners.stop(head);
  const delays: number[] = [];
  let missing = 0;
  for (const r of results) {
    const received = new Map(r.received);
    for (let rev = from + 1; rev <= head; rev++) {
      const t = received.get(rev);
      if (t === undefined) {
        missing++;
        continue;
      }
      const answered = answeredAt.get(rev);
      if (answered !== undefined) delays.push(t - answered);
    }
  }
  delays.sort((a, b) => a - b);
  return {
    spectators,
    events: head - from,
    seconds,
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
    max: delays[delays.length - 1] ?? NaN,
    missing,
    resyncs: results.reduce((n, r) => n + r.resyncs, 0),
    messages: results.reduce((n, r) => n + r.messages, 0),
    writeP50: percentile(writes, 50),
    writeP99: percentile(writes, 99),
    serverCpu,
    clientCpu: (client.user + client.system) / 1e6,
    load,
  };
}

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
    const baseline = await phase(base, gameId, field, 1, pid);
    const loaded = await phase(base, gameId, field, SPECTATORS, pid);
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

if (isMainThread) await main();
else {
  const d = workerData as { base: string; gameId: string; from: number; count: number };
  await spectatorThread(d.base, d.gameId, d.from, d.count);
}
