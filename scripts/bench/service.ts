// Latency of the play tools over the real /mcp endpoint of `wrangler dev` (workerd, persisted
// SQLite storage): p50/p99 of `commit` and `observe` tool calls, against GET /api/health measured
// in the same run as the baseline (the cost of one HTTP round trip to the Worker). Beside the
// latency, the CPU workerd spent per timed call (its process CPU read around each call, summed:
// the clock ticks are 10 ms, so only the sum over many calls means anything) and the load average.
//
//   npm run bench:service                # default: scatter G=100, 300 calls each
//   npm run bench:service -- --calls 500 --G 200
import { generateField, type FieldParams } from "../../src/engine";
import { mintToken, newMachine } from "../../test/support/identity";
import { callToolStructured, connectClient, type McpClient } from "../../test/support/mcp-clients";
import { startDevServer } from "../../test/support/wrangler-dev";
import { signedInToken } from "../../test/support/oauth";
import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { loadavg } from "node:os";
import { numberOption } from "./bench-options";
import { groupPids, processCpu } from "./process-cpu";
import { percentile } from "./samples";

const arg = numberOption;

const CALLS = arg("calls", 300);
const G = arg("G", 100);
const CELLS_PER_COMMIT = arg("cells", 8);
const WARMUP = 20;

/** One kind of call's wall times (ms) and the workerd CPU seconds spent during them. */
interface Samples {
  ms: number[];
  cpuS: number;
}

const newSamples = (): Samples => ({ ms: [], cpuS: 0 });

function stats(samples: Samples): { p50: number; p99: number; mean: number; n: number; cpuMs: number } {
  const s = [...samples.ms].sort((a, b) => a - b);
  const n = s.length;
  return { p50: percentile(s, 50), p99: percentile(s, 99), mean: s.reduce((a, b) => a + b, 0) / n, n, cpuMs: (1000 * samples.cpuS) / n };
}

/** The server's workerd processes, whose CPU is read around each timed call. */
let workerd: number[] = [];

async function timed<T>(samples: Samples | null, run: () => Promise<T>): Promise<T> {
  const cpu0 = processCpu(workerd);
  const t0 = performance.now();
  const out = await run();
  const ms = performance.now() - t0;
  if (samples) {
    samples.ms.push(ms);
    samples.cpuS += processCpu(workerd) - cpu0;
  }
  return out;
}

interface Observation {
  revision: number;
  frontier: number[];
  tiles: Array<{ id: number; status: string }>;
  status: string;
}

async function main(): Promise<void> {
  const server = await startDevServer({ vars: { MOSAIC_DEV: "0" } });
  try {
    const base = server.baseUrl;
    workerd = groupPids(server.pid, "workerd");
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const client: McpClient = await connectClient(base, { flavour: "v2-modern", headers: { Authorization: `Bearer ${token}` } });

    const seed = "bench-service"; // fixed: the same field in every run
    const params: FieldParams = { kind: "scatter", seed, G };
    const started = await callToolStructured<{ game_id: string }>(client, "start_mosaic", { kind: "scatter", G, seed });
    const gameId = started.game_id;
    const tGen = performance.now();
    for (;;) {
      const o = await client.callTool("observe", { game_id: gameId, rect: [0, 0, 1, 1] });
      const status = (o.structuredContent?.observation as { status?: string } | undefined)?.status ?? o.structuredContent?.status;
      if (status === "playing") break;
      if (status !== "generating") throw new Error(`unexpected status: ${o.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const generationS = (performance.now() - tGen) / 1000;
    const field = await generateField(params);

    // Several sessions of one machine so that the frontier never runs dry during the run.
    const agents: string[] = [];
    for (const session of ["1", "2", "3"]) {
      agents.push((await callToolStructured<{ agent: string }>(client, "join", { game_id: gameId, session, model: "bench" })).agent);
    }

    // Work queue: batches of correct cells from frontier tiles, revealing tiles as needed.
    let revision = 0;
    const queue: Array<{ agent: string; cells: Array<[number, number]> }> = [];
    const refill = async () => {
      for (const agent of agents) {
        const o = (await callToolStructured<{ observation: Observation }>(client, "observe", { game_id: gameId, agent })).observation;
        revision = Math.max(revision, o.revision);
        const status = new Map(o.tiles.map((t) => [t.id, t.status]));
        for (const tileId of o.frontier) {
          if ((status.get(tileId) ?? "hidden") === "hidden") {
            revision = (await callToolStructured<{ revision: number }>(client, "reveal", { game_id: gameId, agent, expected_revision: revision, tile: tileId, intent: "bench" })).revision;
          }
          const tile = field.tiles[tileId];
          const given = new Set(tile.givens);
          const cells = tile.cellIds.filter((c) => !given.has(c)).map((c) => [c, field.solution[c]] as [number, number]);
          for (let i = 0; i < cells.length; i += CELLS_PER_COMMIT) queue.push({ agent, cells: cells.slice(i, i + CELLS_PER_COMMIT) });
        }
      }
    };

    const commitMs = newSamples();
    const observeMs = newSamples();
    const healthMs = newSamples();
    const listMs = newSamples();
    for (let i = 0; i < CALLS + WARMUP; i++) {
      if (queue.length === 0) await refill();
      const job = queue.shift();
      if (!job) break;
      const samples = i < WARMUP ? null : commitMs;
      const r = await timed(samples, () =>
        callToolStructured<{ revision: number }>(client, "commit", { game_id: gameId, agent: job.agent, expected_revision: revision, cells: job.cells, intent: "bench commit" }),
      );
      revision = r.revision;
    }
    for (let i = 0; i < CALLS + WARMUP; i++) {
      const samples = i < WARMUP ? null : observeMs;
      await timed(samples, () => callToolStructured(client, "observe", { game_id: gameId, agent: agents[i % agents.length] }));
    }
    for (let i = 0; i < CALLS + WARMUP; i++) {
      const samples = i < WARMUP ? null : healthMs;
      await timed(samples, async () => {
        const res = await fetch(`${base}/api/health`);
        await res.arrayBuffer();
      });
    }
    for (let i = 0; i < CALLS + WARMUP; i++) {
      await timed(i < WARMUP ? null : listMs, () => callToolStructured(client, "list_games"));
    }
    // The signed-in URL (SPEC §8.1): another machine, signed in with OAuth, against a bearer-token
    // machine, call for call in turn so that both see the same load.
    const other = newMachine();
    const signed = await signedInToken(base, await mintToken(base, other));
    // The same client and protocol revision as the bearer-token client (connectClient's v2-modern),
    // so that the two rows differ only in how the call proves its machine.
    const signedClient = new SdkClient({ name: "bench-signed-in", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
    await signedClient.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/signed-in`), { requestInit: { headers: { Authorization: `Bearer ${signed.accessToken}` } } }));
    const signedAgent = ((await signedClient.callTool({ name: "join", arguments: { game_id: gameId, session: "s", model: "bench" } })).structuredContent as { agent: string }).agent;
    const bearerTurnMs = newSamples();
    const signedTurnMs = newSamples();
    for (let i = 0; i < CALLS + WARMUP; i++) {
      const warm = i < WARMUP;
      await timed(warm ? null : bearerTurnMs, () => callToolStructured(client, "observe", { game_id: gameId, agent: agents[0] }));
      await timed(warm ? null : signedTurnMs, async () => {
        const r = await signedClient.callTool({ name: "observe", arguments: { game_id: gameId, agent: signedAgent } });
        if (r.isError) throw new Error(`signed-in observe refused: ${JSON.stringify(r.content)}`);
      });
    }
    await signedClient.close();
    await client.close();

    const health = stats(healthMs);
    const rows = [
      ["GET /api/health (baseline)", health],
      [`commit (${CELLS_PER_COMMIT} cells)`, stats(commitMs)],
      ["observe {agent}", stats(observeMs)],
      ["list_games (MCP + registry, no field)", stats(listMs)],
      ["observe {agent}, bearer token (in turn with the next row)", stats(bearerTurnMs)],
      ["observe {agent}, signed in with OAuth at /mcp/signed-in", stats(signedTurnMs)],
    ] as const;
    console.log(`service latency over /mcp — wrangler dev (workerd), scatter G=${G} (${field.tiles.length} tiles, generated in ${generationS.toFixed(1)} s), ${CALLS} timed calls each after ${WARMUP} warm-up`);
    console.log("| call | n | p50 ms | p99 ms | mean ms | p50 / health p50 | workerd CPU ms per call |");
    console.log("|---|---|---|---|---|---|---|");
    for (const [name, s] of rows) {
      console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.mean.toFixed(2)} | ${(s.p50 / health.p50).toFixed(1)}× | ${s.cpuMs.toFixed(2)} |`);
    }
    const ratio = stats(signedTurnMs).p50 / stats(bearerTurnMs).p50;
    console.log(`signed-in / bearer observe, p50: ${ratio.toFixed(2)}× (target ≤ 1.0× plus noise)`);
    console.log(`workerd processes: ${workerd.length}; load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
