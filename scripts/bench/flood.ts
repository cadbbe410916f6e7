// Flood benchmark (issue 30, docs/deploy.md "Rate limits"): does a flooding caller hurt the others?
// Through a real `wrangler dev` with the rate limits of wrangler.toml, twice on the same field:
//
//   1. the baseline: 8 reference agents play at a model's pace (a 1 s turn before each call),
//      each from its own address (CF-Connecting-IP, as Cloudflare's edge sets it);
//   2. the same 8 agents while one machine floods: it joins, then 4 concurrent loops call
//      `observe` with no pause, from one address, until the agents are done.
//
// Reported: the honest agents' p50 and p99 per play tool and over all their calls in both runs and
// the ratio (target: p50 within 2× of the baseline; this 2-core machine runs the flood's refusals
// too); the flood's calls, how many the limiter refused, and how many reached the field's object:
// the field counts every tool call it serves per machine (its usage counters, read back through
// the analysis), which must equal the flood's calls the limiter let through — none past the limit.
//
//   npm run bench:flood                     # G=60, 8 agents, 4 flood loops
//   npm run bench:flood -- --G 100 --agents 8 --loops 4 --turn 1000
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { LIMIT_PERIODS } from "../../src/http/middleware/rate-limit";
import { mintToken, newMachine } from "../../test/support/identity";
import { callToolStructured, connectClient, type McpClient } from "../../test/support/mcp-clients";
import { modernRequest } from "../../test/support/mcp-wire";
import type { TappedCall } from "../../test/support/wire-tap";
import { startDevServer } from "../../test/support/wrangler-dev";
import { textOption } from "./bench-options";
import { AgentThreads } from "./load-agents";
import { summarise } from "./samples";

const G = Number(textOption("G") ?? 60);
const AGENTS = Number(textOption("agents") ?? 8);
const LOOPS = Number(textOption("loops") ?? 4);
const TURN_MS = Number(textOption("turn") ?? 1000);
const TARGET_RATIO = 2;
const FLOOD_ADDRESS = "203.0.113.66";
const PLAY_TOOLS = ["observe", "reveal", "commit", "retract"];
/** LIMIT_MCP_MACHINE in wrangler.toml. */
const MACHINE_LIMIT = 100;
const MACHINE_PERIOD_S = LIMIT_PERIODS.LIMIT_MCP_MACHINE;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : "-");

interface FloodCount {
  /** The flood's own span, first call to last answer (it starts before the agents' threads do). */
  seconds: number;
  sent: number;
  limited: number;
  /** Answered by the tool (the limiter let them through). */
  passed: number;
  /** Anything else: a transport failure or an answer without a result. */
  other: number;
}

interface Run {
  seconds: number;
  calls: TappedCall[];
  tiles: number;
  reasons: Record<string, number>;
  flood: FloodCount | null;
  /** The flood machine's tool calls as the field counted them (null without a flood). */
  floodServed: number | null;
}

async function startField(host: McpClient, seed: string): Promise<string> {
  const { game_id } = await callToolStructured<{ game_id: string }>(host, "start_mosaic", { kind: "scatter", G, seed });
  for (;;) {
    const o = await host.callTool("observe", { game_id, rect: [0, 0, 1, 1] });
    const status = (o.structuredContent?.observation as { status?: string } | undefined)?.status;
    if (status === "playing") return game_id;
    if (status !== "generating") throw new Error(`field ${game_id}: ${o.text}`);
    await sleep(200);
  }
}

/** One flooding loop: `observe` as the flood's agent, no pause, until `stop()`. */
async function floodLoop(base: string, token: string, gameId: string, agent: string, stop: () => boolean, count: FloodCount): Promise<void> {
  const request = modernRequest("tools/call", { name: "observe", arguments: { game_id: gameId, agent, rect: [0, 0, 4, 4] } }, { accept: "application/json" });
  const headers = { ...request.headers, Authorization: `Bearer ${token}`, "CF-Connecting-IP": FLOOD_ADDRESS };
  while (!stop()) {
    count.sent++;
    try {
      const res = await fetch(`${base}/mcp`, { method: "POST", headers, body: request.body });
      const body = (await res.json()) as { result?: { structuredContent?: { error?: { code?: string } } } };
      if (body.result?.structuredContent?.error?.code === "rate_limited") count.limited++;
      else if (body.result) count.passed++;
      else count.other++;
    } catch {
      count.other++;
    }
  }
}

/** The flood machine's calls as its field counted them: the analysis row of its model (its one agent). */
async function servedCalls(base: string, gameId: string, model: string): Promise<number> {
  const res = await fetch(`${base}/api/games/${gameId}/analysis`);
  const doc = (await res.json()) as { by_model: Array<{ key: string; calls_total: number }> };
  return doc.by_model.find((r) => r.key === model)?.calls_total ?? 0;
}

async function run(base: string, host: McpClient, keys: string, label: string, withFlood: boolean): Promise<Run> {
  const gameId = await startField(host, "bench-flood");
  const agents = Array.from({ length: AGENTS }, (_, i) => ({
    url: base,
    game: gameId,
    identityFile: join(keys, `${label}-${i}.json`),
    name: `honest ${i}`,
    model: "reference",
    turnMs: TURN_MS,
    idleSeconds: 5 + TURN_MS / 1000,
    maxSeconds: 1200,
    address: `198.18.0.${i + 1}`,
  }));
  let flood: FloodCount | null = null;
  let floodDone: Promise<unknown> = Promise.resolve();
  let stop = false;
  const FLOOD_MODEL = "flood";
  if (withFlood) {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const client = await connectClient(base, { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": FLOOD_ADDRESS } });
    const joined = await callToolStructured<{ agent: string }>(client, "join", { game_id: gameId, session: "flood", name: "flood", model: FLOOD_MODEL });
    await client.close();
    flood = { seconds: 0, sent: 0, limited: 0, passed: 0, other: 0 };
    const count = flood;
    const f0 = performance.now();
    floodDone = Promise.all(Array.from({ length: LOOPS }, () => floodLoop(base, token, gameId, joined.agent, () => stop, count))).then(() => (count.seconds = (performance.now() - f0) / 1000));
  }
  const threads = await AgentThreads.start(agents);
  const t0 = performance.now();
  const played = await threads.go();
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await floodDone;
  let floodServed: number | null = null;
  if (withFlood) {
    // Usage reaches the field once a second at most, after the answers: wait for the last batch.
    await sleep(3000);
    // The join was served as a tool call too.
    floodServed = (await servedCalls(base, gameId, FLOOD_MODEL)) - 1;
  }
  const reasons: Record<string, number> = {};
  for (const s of played.summaries) reasons[s.reason] = (reasons[s.reason] ?? 0) + 1;
  return {
    seconds,
    calls: played.calls.filter((c) => c.outcome.kind === "answered"),
    tiles: played.summaries.reduce((n, s) => n + s.tiles, 0),
    reasons,
    flood,
    floodServed,
  };
}

function report(label: string, r: Run): void {
  console.log(`\n## ${label} (load ${load()})`);
  console.log(`${AGENTS} honest agents: ${r.calls.length} calls in ${r.seconds.toFixed(1)} s, ${r.tiles} tiles solved; stopped: ${JSON.stringify(r.reasons)}`);
  const limitedHonest = r.calls.filter((c) => c.outcome.kind === "answered" && c.outcome.errorCode === "rate_limited").length;
  console.log(`honest calls refused as rate_limited: ${limitedHonest}`);
  console.log("| tool | n | p50 ms | p99 ms |");
  console.log("|---|---|---|---|");
  for (const tool of PLAY_TOOLS) {
    const s = summarise(r.calls.filter((c) => c.tool === tool).map((c) => c.endedAt - c.startedAt));
    if (s.n > 0) console.log(`| ${tool} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p99)} |`);
  }
  const all = playSummary(r);
  console.log(`| all play calls | ${all.n} | ${fmt(all.p50)} | ${fmt(all.p99)} |`);
  if (r.flood) {
    const f = r.flood;
    // Windows of the machine's limit the flood's span touched, each letting at most LIMIT through.
    const windows = Math.ceil(f.seconds / MACHINE_PERIOD_S) + 1;
    console.log(`flood: ${LOOPS} loops from one address, ${f.sent} calls in ${f.seconds.toFixed(1)} s = ${(f.sent / f.seconds).toFixed(0)} calls/s; refused rate_limited ${f.limited}, let through ${f.passed} (${(f.passed / f.seconds).toFixed(1)}/s; the limit allows at most ${MACHINE_LIMIT} per ${MACHINE_PERIOD_S} s window, ${windows * MACHINE_LIMIT} in the ${windows} windows touched), other ${f.other}`);
    console.log(`the field counted ${r.floodServed} of the flood's calls (after its join): ${r.floodServed === f.passed ? "exactly those let through" : `NOT the ${f.passed} let through`}; past the limit: ${Math.max(0, (r.floodServed ?? 0) - f.passed)}`);
  }
}

function playSummary(r: Run): { n: number; p50: number; p99: number } {
  return summarise(r.calls.filter((c) => PLAY_TOOLS.includes(c.tool)).map((c) => c.endedAt - c.startedAt));
}

async function main(): Promise<void> {
  console.log(`flood benchmark: ${cpus().length} cores, load average ${load()} at start; G=${G}, ${AGENTS} agents with a ${TURN_MS} ms turn, ${LOOPS} flood loops`);
  const server = await startDevServer();
  const keys = mkdtempSync(join(tmpdir(), "mosaic-bench-flood-"));
  try {
    const base = server.baseUrl;
    const host = await connectClient(base, { headers: { Authorization: `Bearer ${await mintToken(base, newMachine())}` } });
    const baseline = await run(base, host, keys, "baseline", false);
    report("baseline: the honest agents alone", baseline);
    const flooded = await run(base, host, keys, "flood", true);
    report("the same agents while one machine floods", flooded);
    await host.close();
    const a = playSummary(baseline);
    const b = playSummary(flooded);
    const ratio = b.p50 / a.p50;
    const f = flooded.flood!;
    console.log("\n## Targets");
    console.log(`honest agents' p50 over all play calls: ${fmt(b.p50)} ms under the flood against ${fmt(a.p50)} ms alone = ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? "met" : "NOT met"}); p99 ${fmt(b.p99)} against ${fmt(a.p99)} ms`);
    console.log(`honest agents finished: ${JSON.stringify(flooded.reasons)} (alone: ${JSON.stringify(baseline.reasons)})`);
    console.log(`flood calls past the limit that reached the field's object: ${Math.max(0, (flooded.floodServed ?? 0) - f.passed)} (target 0: ${flooded.floodServed !== null && flooded.floodServed <= f.passed ? "met" : "NOT met"}); ${f.limited} of ${f.sent} refused at the edge`);
  } finally {
    await server.stop();
    rmSync(keys, { recursive: true, force: true });
  }
  console.log(`\nload average at the end: ${load()}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
