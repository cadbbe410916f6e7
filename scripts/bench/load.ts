// Load benchmark (issue 11): N reference agents (`npm run agent`'s playAgent) on one G=100 field
// through a real `wrangler dev`, for N = 1, 4, 16, 64, then 4 fields at once with 16 agents each.
// Each agent plays on a thread of its own (load-agents.ts; up to 16, then shared), as separate
// programs would; the health baseline is probed from the otherwise idle main thread.
// Every scenario runs twice: at a model's pace (each agent pauses TURN ms before each call, the turn
// a model takes to read an answer and choose its next call: the latency target is judged there,
// where the server is not driven past what it can serve), then flat out (no pause: every agent
// calls again the moment it has its answer, so the server runs at its capacity and each call
// queues behind the others: calls/s and the queueing are reported). For every run: tool calls/s,
// p50/p99 per tool (time to the whole answer, measured on the wire under the agents), the
// conflict rate of writes, CPU seconds of the agents and of each server process, GET /api/health
// p50 measured during the same scenario as the baseline (plus once on the idle server, where the
// floor under a tool call is measured first: latency-floor.ts), tiles
// solved and calls per solved tile, and each conflict's cause (conflict-causes.ts). Then the
// in-process ceiling of one field object (scripts/bench/ceiling/): writes/s with 16 writers and
// 48-cell commits, in workerd.
//
//   npm run bench:load                          # everything
//   npm run bench:load -- --agents 1,4,16       # some scenarios (--fields 0 skips the 4-field one)
//   npm run bench:load -- --no-ceiling          # only the wrangler dev scenarios
//   npm run bench:load -- --turns 1000          # only the paced runs (--turns 0: only flat out)
//   npm run bench:load -- --probe-gap 25        # the health baseline's pace (default one per 250 ms)
//   npm run bench:load -- --repeat 3            # each scenario three times, judged per run and on the median
//   npm run bench:load -- --floor-rounds 60     # rounds of the floor on the idle server (default 30)
//   npm run bench:load -- --independent 16      # agents that do not coordinate (default 16; 0 skips)
//
// Besides the reference agents (which share work by rules all compute alike, agent/share.ts), one
// field is played by agents that do not coordinate (`coordinate: false`): each deduces from what
// it observed and sends every proven value (one guess when stuck), as agents written by others
// do. Conflicts are only where a stale view is contradicted (SPEC §4.9): target ≤ 2 % for them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { mintToken, newMachine } from "../../test/support/identity";
import { callToolStructured, connectClient, type McpClient } from "../../test/support/mcp-clients";
import type { TappedCall } from "../../test/support/wire-tap";
import { startDevServer } from "../../test/support/wrangler-dev";
import { flagOption, textOption } from "./bench-options";
import { cpuSince, groupCpu } from "./process-cpu";
import { conflictCauses, formatConflictCauses, type ConflictCauses } from "./conflict-causes";
import { AgentThreads } from "./load-agents";
import { percentile, summarise, timed } from "./samples";
import { latencyFloor } from "./latency-floor";

const arg = textOption;

const AGENT_COUNTS = (arg("agents") ?? "1,4,16,64").split(",").map(Number).filter((n) => n > 0);
const MULTI_FIELDS = Number(arg("fields") ?? 4);
const MULTI_AGENTS = Number(arg("per-field") ?? 16);
const G = Number(arg("G") ?? 100);
const CEILING = !flagOption("no-ceiling");
/** Pauses before each call, in ms: a fast model's turn (1 s), then none. */
const TURNS = (arg("turns") ?? "1000,0").split(",").map(Number).filter((n) => n >= 0);
/**
 * Runs of each scenario (same seed, same field, a new game). One run moves by about ±0.15× from
 * noise alone on a shared 2-core machine, so with more than one the targets are also judged on the
 * median of the runs.
 */
const REPEAT = Math.max(1, Math.floor(Number(arg("repeat") ?? 1)));
const TARGET_CONFLICTS = 0.05;
/** Agents that do not coordinate, on one field (0: no such scenario). */
const INDEPENDENT = Math.max(0, Math.floor(Number(arg("independent") ?? 16)));
const TARGET_INDEPENDENT_CONFLICTS = 0.02;
const TARGET_RATIO = 1.5;
const TARGET_WRITES_PER_S = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pace = (turnMs: number) => (turnMs > 0 ? `a ${turnMs} ms turn before each call` : "flat out");
const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : "-");
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

/**
 * The baseline's pace: one GET /api/health every PROBE_GAP_MS. It samples the load without adding
 * to it: at 25 ms (~30 probes/s) the prober sent 30 times the requests of one paced agent and twice
 * those of sixteen, so a tool call measured against it waited behind the baseline's own traffic.
 */
const PROBE_GAP_MS = Number(arg("probe-gap") ?? 250);

/** GET /api/health, one at a time, PROBE_GAP_MS apart, until `done()`: the baseline under the same load. */
async function probeHealth(base: string, fetchImpl: typeof fetch, done: () => boolean, samples: number[]): Promise<void> {
  while (!done()) {
    await timed(samples, () => fetchImpl(`${base}/api/health`));
    await sleep(PROBE_GAP_MS);
  }
}

/** Rounds of the floor's four requests on the idle server (latency-floor.ts). */
const FLOOR_ROUNDS = Math.max(1, Math.floor(Number(arg("floor-rounds") ?? 30)));

/**
 * The floor under a tool call (latency-floor.ts), on the idle server before the scenarios, each
 * request after the paced agents' turn; measured during a scenario instead, the extra requests
 * would load the server being measured.
 */
async function floorOnIdleServer(base: string, fetchImpl: typeof fetch, host: McpClient): Promise<void> {
  const seed = "bench-load-floor";
  const gameId = await startField(host, seed);
  const gapMs = TURNS.find((t) => t > 0) ?? PROBE_GAP_MS;
  const token = await mintToken(base, newMachine());
  const f = await latencyFloor({ base, fetchImpl, token, gameId, field: { kind: "scatter", G, seed }, rounds: FLOOR_ROUNDS, gapMs });
  const times = (ms: number) => `${fmt(ms)} ms (${(ms / f.health).toFixed(2)}×)`;
  console.log(
    `the floor on the idle server, p50 of ${FLOOR_ROUNDS} interleaved rounds, each request after a ${gapMs} ms pause: GET /api/health ${fmt(f.health)} ms; ` +
      `a POST /mcp the edge refuses after reading its 2 KB body ${times(f.refusedPost)}; ` +
      `a commit that changes nothing (one given cell: the MCP layers, the token, the field object's call; nothing stored) ${times(f.unchangedCommit)}; ` +
      `a one-cell commit or retract, stored durably before its answer ${times(f.durableWrite)}`,
  );
  const budget = TARGET_RATIO * f.health;
  const left = budget - f.durableWrite;
  const rest = left >= 0 ? `leaves ${fmt(left)} ms for a larger write's judging and answer` : `is already ${fmt(-left)} ms over it, before a larger write's judging and answer`;
  console.log(`at ${TARGET_RATIO}× that health p50 a call has ${fmt(budget)} ms: a POST pays ${fmt(f.refusedPost - f.health)} ms of it before any tool runs, and the cheapest durable write ${rest}`);
}

async function startField(client: McpClient, seed: string): Promise<string> {
  const { game_id } = await callToolStructured<{ game_id: string }>(client, "start_mosaic", { kind: "scatter", G, seed });
  for (;;) {
    const o = await client.callTool("observe", { game_id, rect: [0, 0, 1, 1] });
    const status = (o.structuredContent?.observation as { status?: string } | undefined)?.status;
    if (status === "playing") return game_id;
    if (status !== "generating") throw new Error(`field ${game_id}: ${o.text}`);
    await sleep(200);
  }
}

interface ScenarioResult {
  label: string;
  /** Which run of the scenario this is (1…REPEAT). */
  run: number;
  /** The agents' pause before each call (0: flat out). */
  turnMs: number;
  agents: number;
  fields: number;
  /** Whether the agents shared work (the reference agent) or each played alone. */
  coordinate: boolean;
  seconds: number;
  calls: number;
  writes: number;
  conflicts: number;
  causes: ConflictCauses;
  /** Tiles the agents solved (their summaries' sum): the work the calls bought. */
  tiles: number;
  health: { n: number; p50: number; p99: number };
  tools: Map<string, { n: number; p50: number; p99: number }>;
  reasons: Record<string, number>;
  /** CPU seconds over the run: this process (the agents and the prober) and each server process. */
  cpu: { agents: number; server: Record<string, number> };
}

async function scenario(label: string, run: number, turnMs: number, serverPid: number, base: string, host: McpClient, rawFetch: typeof fetch, fields: number, perField: number, keys: string, coordinate = true): Promise<ScenarioResult> {
  const games: string[] = [];
  for (let f = 0; f < fields; f++) games.push(await startField(host, `bench-load-${label}-${turnMs}-${f}`));
  const agents = games.flatMap((game, f) =>
    Array.from({ length: perField }, (_, i) => ({ url: base, game, identityFile: join(keys, `${label}-${turnMs}-${f}-${i}.json`), name: `bench ${i}`, model: "reference", coordinate, turnMs, idleSeconds: 5 + turnMs / 1000, maxSeconds: 1800 })),
  );
  const threads = await AgentThreads.start(agents);
  const healthSamples: number[] = [];
  let done = false;
  const prober = probeHealth(base, rawFetch, () => done, healthSamples);
  const t0 = performance.now();
  const cpu0 = { agents: process.cpuUsage(), server: groupCpu(serverPid) };
  const played = await threads.go();
  const summaries = played.summaries;
  const seconds = (performance.now() - t0) / 1000;
  const agentsCpu = process.cpuUsage(cpu0.agents);
  const cpu = { agents: (agentsCpu.user + agentsCpu.system) / 1e6, server: cpuSince(cpu0.server, groupCpu(serverPid)) };
  done = true;
  await prober;
  const calls: TappedCall[] = played.calls.filter((c) => c.outcome.kind === "answered");
  const byTool = new Map<string, number[]>();
  for (const c of calls) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c.endedAt - c.startedAt]);
  const writes = calls.filter((c) => ["reveal", "commit", "retract"].includes(c.tool));
  const reasons: Record<string, number> = {};
  for (const s of summaries) reasons[s.reason] = (reasons[s.reason] ?? 0) + 1;
  return {
    label,
    run,
    turnMs,
    agents: fields * perField,
    fields,
    coordinate,
    seconds,
    calls: calls.length,
    writes: writes.length,
    conflicts: writes.filter((c) => c.outcome.kind === "answered" && c.outcome.errorCode === "conflict").length,
    causes: conflictCauses(calls, G),
    tiles: summaries.reduce((n, s) => n + s.tiles, 0),
    health: summarise(healthSamples),
    tools: new Map([...byTool].map(([tool, samples]) => [tool, summarise(samples)])),
    reasons,
    cpu,
  };
}

function conflictRate(r: ScenarioResult): number {
  return r.writes === 0 ? 0 : r.conflicts / r.writes;
}

/** The play tool (of those agents call all the time; join is once per seat) with the highest p50, against health's. */
function slowestPlayTool(r: ScenarioResult): { tool: string; p50: number; ratio: number } {
  const play = [...r.tools].filter(([tool]) => ["observe", "reveal", "commit", "retract"].includes(tool));
  const [tool, s] = play.reduce((a, b) => (b[1].p50 > a[1].p50 ? b : a));
  return { tool, p50: s.p50, ratio: s.p50 / r.health.p50 };
}

function report(r: ScenarioResult): void {
  const rate = conflictRate(r);
  console.log(`\n## ${r.label}, ${pace(r.turnMs)}${REPEAT > 1 ? `, run ${r.run} of ${REPEAT}` : ""}: ${r.agents} agent(s) on ${r.fields} field(s) of G=${G}  (load ${load()})`);
  console.log(`${r.calls} tool calls in ${r.seconds.toFixed(1)} s = ${(r.calls / r.seconds).toFixed(1)} calls/s; writes ${r.writes}, conflicts ${r.conflicts} = ${(rate * 100).toFixed(1)} %; agents stopped: ${JSON.stringify(r.reasons)}`);
  const server = Object.entries(r.cpu.server).filter(([, s]) => s >= 0.05).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(", ");
  console.log(`CPU over the ${r.seconds.toFixed(1)} s (${cpus().length} cores: ${(cpus().length * r.seconds).toFixed(1)} s): agents and prober ${r.cpu.agents.toFixed(1)} s; wrangler dev: ${server}`);
  console.log(`tiles solved ${r.tiles}: ${(r.calls / Math.max(1, r.tiles)).toFixed(2)} calls per solved tile`);
  console.log(`conflicts by cause (the write that changed what the refused write touched, and its author):`);
  for (const line of formatConflictCauses(r.causes, r.writes)) console.log(line);
  console.log(`GET /api/health during the run (baseline): p50 ${fmt(r.health.p50)} ms, p99 ${fmt(r.health.p99)} ms (n=${r.health.n})`);
  console.log("| tool | n | p50 ms | p99 ms | p50 / health p50 |");
  console.log("|---|---|---|---|---|");
  for (const [tool, s] of [...r.tools].sort((a, b) => b[1].n - a[1].n)) {
    console.log(`| ${tool} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${(s.p50 / r.health.p50).toFixed(2)}× |`);
  }
}

/** The in-process ceiling: a vitest run in workerd (scripts/bench/ceiling/), which prints one CEILING line. */
function ceiling(): { writesPerS: number; commitsPerS: number; cellsPerS: number; writes: number; seconds: number; tiles: number; G: number; calls: number; unchanged: number; refused: number; callsPerS: number } | null {
  const out = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", "scripts/bench/ceiling/vitest.config.ts"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const line = `${out.stdout}\n${out.stderr}`.split("\n").find((l) => l.includes("CEILING "));
  if (!line) {
    console.error(out.stdout.slice(-3000), out.stderr.slice(-3000));
    return null;
  }
  return JSON.parse(line.slice(line.indexOf("CEILING ") + 8)) as ReturnType<typeof ceiling>;
}

async function main(): Promise<void> {
  console.log(`load benchmark: ${cpus().length} cores, load average ${load()} at start`);
  const rawFetch = globalThis.fetch.bind(globalThis);
  const server = await startDevServer();
  const keys = mkdtempSync(join(tmpdir(), "mosaic-bench-keys-"));
  const results: ScenarioResult[] = [];
  try {
    const base = server.baseUrl;
    const machine = newMachine();
    const host = await connectClient(base, { headers: { Authorization: `Bearer ${await mintToken(base, machine)}` } });
    // The idle baseline, before any agent plays.
    const idle: number[] = [];
    for (let i = 0; i < 220; i++) await timed(idle, () => rawFetch(`${base}/api/health`));
    const idleHealth = summarise(idle.slice(20));
    console.log(`GET /api/health on the idle server: p50 ${fmt(idleHealth.p50)} ms, p99 ${fmt(idleHealth.p99)} ms`);
    await floorOnIdleServer(base, rawFetch, host);
    for (const turnMs of TURNS) {
      const shapes: Array<[string, number, number, boolean]> = AGENT_COUNTS.map((n) => [`one field, ${n} agents`, 1, n, true]);
      if (MULTI_FIELDS > 0) shapes.push([`${MULTI_FIELDS} fields, ${MULTI_AGENTS} agents each`, MULTI_FIELDS, MULTI_AGENTS, true]);
      if (INDEPENDENT > 0) shapes.push([`one field, ${INDEPENDENT} agents that do not coordinate`, 1, INDEPENDENT, false]);
      for (const [label, fields, perField, coordinate] of shapes) {
        for (let run = 1; run <= REPEAT; run++) {
          const r = await scenario(label, run, turnMs, server.pid, base, host, rawFetch, fields, perField, keys, coordinate);
          results.push(r);
          report(r);
        }
      }
    }
    await host.close();
  } finally {
    await server.stop();
    rmSync(keys, { recursive: true, force: true });
  }

  console.log("\n## Targets");
  for (const r of results) {
    const rate = conflictRate(r);
    const { tool, p50, ratio } = slowestPlayTool(r);
    const target = r.coordinate ? (r.agents === 16 && r.fields === 1 ? TARGET_CONFLICTS : null) : TARGET_INDEPENDENT_CONFLICTS;
    const conflictNote = target !== null ? ` (target ≤ ${target * 100} %: ${rate <= target ? "met" : "NOT met"})` : "";
    const verdict = r.turnMs > 0 ? `target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? "met" : "NOT met"}` : `at capacity, ${(r.calls / r.seconds).toFixed(0)} calls/s: every call queues behind the others`;
    const run = REPEAT > 1 ? ` (run ${r.run})` : "";
    console.log(`${r.label}, ${pace(r.turnMs)}${run}: conflicts ${(rate * 100).toFixed(1)} %${conflictNote}; slowest play tool p50 ${tool} ${fmt(p50)} ms = ${ratio.toFixed(2)}× health p50 ${fmt(r.health.p50)} ms of the same run (${verdict})`);
  }
  if (REPEAT > 1) {
    console.log(`\n## Over the ${REPEAT} runs of each scenario (medians)`);
    const groups = new Map<string, ScenarioResult[]>();
    for (const r of results) {
      const name = `${r.label}, ${pace(r.turnMs)}`;
      groups.set(name, [...(groups.get(name) ?? []), r]);
    }
    for (const [name, runs] of groups) {
      const ratios = runs.map((r) => slowestPlayTool(r).ratio).sort((a, b) => a - b);
      const rates = runs.map(conflictRate).sort((a, b) => a - b);
      const median = (sorted: number[]) => percentile(sorted, 50);
      const paced = runs[0].turnMs > 0;
      const verdict = paced ? ` (target ≤ ${TARGET_RATIO}×: ${median(ratios) <= TARGET_RATIO ? "met" : "NOT met"} on the median; met in ${ratios.filter((x) => x <= TARGET_RATIO).length} of ${ratios.length} runs)` : "";
      console.log(`${name}: slowest play tool p50 / health p50, median ${median(ratios).toFixed(2)}× (${ratios.map((x) => x.toFixed(2)).join(", ")})${verdict}; conflicts median ${(median(rates) * 100).toFixed(1)} %`);
    }
  }
  if (CEILING) {
    console.log(`\n## Ceiling of one field object in process (workerd through the vitest plugin; load ${load()})`);
    const c = ceiling();
    if (!c) console.log("ceiling run failed (output above)");
    else {
      console.log(`16 writers, 48-cell commits on a scatter G=${c.G} field (${c.tiles} tiles): ${c.writes} writes in ${c.seconds.toFixed(2)} s = ${c.writesPerS.toFixed(0)} writes/s (${c.commitsPerS.toFixed(0)} commits/s, ${c.cellsPerS.toFixed(0)} cells/s); ${c.calls} calls = ${c.callsPerS.toFixed(0)}/s, of which ${c.unchanged} changed nothing and ${c.refused} were refused`);
      console.log(`target ≥ ${TARGET_WRITES_PER_S} writes/s: ${c.writesPerS >= TARGET_WRITES_PER_S ? "met" : "NOT met"} (${(c.writesPerS / TARGET_WRITES_PER_S).toFixed(2)}× the target)`);
    }
  }
  console.log(`\nload average at the end: ${load()}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
