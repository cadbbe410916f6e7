// What one request costs inside workerd, piece by piece, with no local proxy in front (the
// Worker's own app and objects through the vitest plugin): GET /api/health as the baseline, then
// /mcp calls through the whole app, the MCP SDK's dispatch alone, one Durable Object RPC, and the
// per-call work of our own code (argument validation, chaining an event); then real commits of a
// tile's open cells through the whole app, the field object's write RPC alone and the referee
// alone. It explains the load benchmark's latency ratio: which part of a tool call's cost is ours
// and which is the runtime's.
// Not a test of anything: it measures and prints one table.
//
//   npm run bench:requests
import { env } from "cloudflare:workers";
import { createExecutionContext, runDurableObjectAlarm, waitOnExecutionContext } from "cloudflare:test";
import { createMcpHandler, isLegacyRequest, McpServer } from "@modelcontextprotocol/server";
import { it } from "vitest";
import { generateField, type Field } from "../../../src/engine";
import { chainEvent } from "../../../src/game/chain";
import type { FieldObject, Outcome } from "../../../src/game/field-object";
import { createApp } from "../../../src/http/app";
import { harnessFromMessage } from "../../../src/mcp/context";
import { directToolCall } from "../../../src/mcp/direct-call";
import { KEEP_ALIVE_MS, serveMcp } from "../../../src/mcp/handler";
import { invalidParams } from "../../../src/mcp/params";
import { commitArgs } from "../../../src/mcp/tools/play-schemas";
import { Referee } from "../../../src/referee";
import type { RefereeEvent, WriteInput } from "../../../src/referee/types";
import { modernRequest } from "../../../test/support/mcp-wire";

const ROUNDS = 3;
const ITERATIONS = 400;
const ORIGIN = "http://localhost:8787";
const RULES = { guess: "accept", depth: 0, fog: false } as const;

type Api = Pick<FieldObject, "create" | "status" | "join" | "write">;

/** workerd advances its clock only between I/O events: a timer before and after brackets the loop. */
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

/** Mean milliseconds per run of `op`, the best of ROUNDS rounds (the least disturbed by the machine). */
async function measure(op: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    await tick();
    const t0 = performance.now();
    for (let i = 0; i < ITERATIONS; i++) await op();
    await tick();
    best = Math.min(best, (performance.now() - t0 - 1) / ITERATIONS);
  }
  return best;
}

/** A 2026-07-28 request as a client sends it (the wire harness's builder), and its parsed message. */
function mcpRequest(method: string, params: Record<string, unknown>): { request: Request; message: Record<string, unknown> } {
  const { headers, body } = modernRequest(method, params, { client: { name: "bench", version: "1" } });
  return { request: new Request(`${ORIGIN}/mcp`, { method: "POST", headers, body }), message: JSON.parse(body) as Record<string, unknown> };
}

/** An SDK server with nothing of ours in it: one tool that answers "ok". */
function bareServer(): McpServer {
  const server = new McpServer({ name: "bare", version: "1" }, { capabilities: { tools: {} } });
  server.registerTool("tiny", { description: "answers ok" }, async () => ({ content: [{ type: "text", text: "ok" }] }));
  return server;
}

/** A scatter G = 100 field object, generated and playing, and the same field generated here (its solution). */
async function playingField(gameId: string, seed: string): Promise<{ stub: Api; field: Field }> {
  const stub = env.FIELDS.getByName(gameId) as unknown as Api;
  ok(await stub.create({ gameId, params: { kind: "scatter", G: 100 }, rules: RULES, G: 100, seed }));
  await runDurableObjectAlarm(env.FIELDS.getByName(gameId));
  while ((await stub.status()).status === "generating") await new Promise((r) => setTimeout(r, 100));
  return { stub, field: await generateField({ kind: "scatter", G: 100, seed }) };
}

function ok(outcome: Outcome): void {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
}

it("one request inside workerd, piece by piece", async () => {
  const app = createApp();
  const throughApp = async (request: Request): Promise<string> => {
    const ctx = createExecutionContext();
    const response = await app.fetch(request, env, ctx);
    const text = await response.text();
    await waitOnExecutionContext(ctx);
    return text;
  };
  const mcp = (method: string, params: Record<string, unknown> = {}) => () => throughApp(mcpRequest(method, params).request);

  // A real G = 100 field to observe and to build a real commit event from.
  const gameId = "request-costs";
  const seed = "bench-request-costs";
  const { stub, field } = await playingField(gameId, seed);
  const cells = field.tiles[0].cellIds.slice(0, 48).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
  const event: RefereeEvent = {
    rev: 7,
    type: "commit",
    at: 1_796_000_000_000,
    agent: "m-0123456789abcdef/1",
    intent: "proven: 48 cells of tile 0 agree in every solution left",
    cells: cells.map(([c]) => c),
    accepted: cells.map(([id, v]) => ({ id, v, class: "forced", rule: "run" })),
    rejected: [],
    solved: [],
  };
  const args = { game_id: gameId, agent: "m-0123456789abcdef/1", expected_revision: 7, cells, intent: "bench" };

  const health = await measure(() => throughApp(new Request(`${ORIGIN}/api/health`)));
  const rows: Array<[string, number]> = [
    ["GET /api/health, the whole app (baseline)", health],
    ["tools/list, the whole app", await measure(mcp("tools/list"))],
    ["tools/call list_games, the whole app (one registry RPC)", await measure(mcp("tools/call", { name: "list_games", arguments: {} }))],
    ["tools/call observe 1×1 rect, the whole app (one field RPC)", await measure(mcp("tools/call", { name: "observe", arguments: { game_id: gameId, rect: [0, 0, 1, 1] } }))],
    [
      "tools/call list_games, the direct path alone (directToolCall, one registry RPC)",
      await measure(async () => {
        const { request, message } = mcpRequest("tools/call", { name: "list_games", arguments: {} });
        return (await directToolCall(request, message, { env, request, harness: harnessFromMessage(message) }, KEEP_ALIVE_MS))?.text();
      }),
    ],
    [
      "tools/call list_games, the SDK's per-request server instead (serveMcp, direct: false)",
      await measure(async () => {
        const { request, message } = mcpRequest("tools/call", { name: "list_games", arguments: {} });
        return (await serveMcp(request, message, { env, request, harness: harnessFromMessage(message) }, { direct: false })).text();
      }),
    ],
    [
      "the checks before either: era classification and params (isLegacyRequest, invalidParams)",
      await measure(async () => {
        const { request, message } = mcpRequest("tools/call", { name: "list_games", arguments: {} });
        return (await isLegacyRequest(request, message)) || invalidParams(message, "modern");
      }),
    ],
    [
      "tools/list, the MCP SDK's dispatch alone (serveMcp)",
      await measure(async () => {
        const { request, message } = mcpRequest("tools/list", {});
        return (await serveMcp(request, message, { env, request, harness: harnessFromMessage(message) })).text();
      }),
    ],
    [
      "tools/call of a bare SDK server with one tool answering \"ok\" (the SDK's floor)",
      await measure(async () => {
        const { request, message } = mcpRequest("tools/call", { name: "tiny", arguments: {} });
        return (await createMcpHandler(bareServer, { legacy: "reject" }).fetch(request, { parsedBody: message })).text();
      }),
    ],
    ["one field object RPC (status)", await measure(() => stub.status())],
    ["commit arguments, 48 cells: validation", await measure(() => commitArgs.safeParse(args))],
    ["chaining a 48-cell commit event (canonical JSON + SHA-256)", await measure(() => chainEvent("ab".repeat(32), event))],
  ];
  console.log(`\none request inside workerd (no proxy): mean ms per operation, best of ${ROUNDS} rounds of ${ITERATIONS}`);
  console.log("| operation | ms | / health |");
  console.log("|---|---|---|");
  for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(3)} | ${(ms / health).toFixed(1)}× |`);
});

/**
 * Real commits (every cell fresh, true values, a whole tile's open cells at once, as the reference
 * agent commits), in three ways taking turns tile by tile on one G = 100 field: through the whole
 * app with the agent's secret; the field object's write RPC with that secret; the same RPC for a
 * machine already proven. Each call is timed by the I/O that ends it (workerd's clock moves only
 * then, in whole milliseconds), so the table gives means over many calls. Then the same writes
 * are replayed on a referee in this isolate: the judging alone.
 */
it("a real commit inside workerd: the whole app, the field object, the referee", async () => {
  const app = createApp();
  const gameId = "request-costs-commits";
  const seed = "bench-request-costs-commits";
  const { stub, field } = await playingField(gameId, seed);
  const machineId = "m-00000000000000aa";
  const details = { machineId, session: "1", name: "bench", model: "bench", harness: "bench", harnessSource: "argument", tags: {}, verified: true } as const;
  const seat = await stub.join({ ...details, issueSecret: true });
  if (!seat.ok) throw new Error(seat.error.message);
  const agent = String(seat.answer.agent);
  const secret = String(seat.answer.agent_secret);
  let revision = Number(seat.answer.revision);
  let frontier = [Number(seat.answer.seed_tile)];
  const intent = "proven: the open cells of one tile";
  const ways = ["tools/call commit, the whole app (agent secret)", "the field object's write RPC (agent secret)", "the field object's write RPC (machine already proven)"] as const;
  const samples = ways.map(() => ({ ms: [] as number[], cells: [] as number[] }));
  const inputs: WriteInput[] = [{ type: "join", ...details }];
  const contexts: Array<Promise<void>> = [];
  const follow = (answer: Record<string, unknown>): void => {
    revision = Number(answer.revision);
    if (Array.isArray(answer.frontier)) frontier = answer.frontier as number[];
  };
  const known = new Set<number>();
  const revealed = new Set<number>();
  for (let turn = 0; ; turn++) {
    const tile = frontier.find((t) => field.tiles[t].cellIds.some((c) => !known.has(c)));
    if (tile === undefined) break;
    if (!revealed.has(tile)) {
      revealed.add(tile);
      const input = { type: "reveal", agent, expectedRevision: revision, tile, intent: "open" } as const;
      inputs.push({ ...input, machineId });
      const r = await stub.write({ machineId, input });
      if (!r.ok) throw new Error(r.error.message);
      follow(r.answer);
    }
    const cells = field.tiles[tile].cellIds.filter((c) => !known.has(c)).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
    for (const [c] of cells) known.add(c);
    const input = { type: "commit", agent, expectedRevision: revision, cells, intent } as const;
    inputs.push({ ...input, machineId });
    const way = turn % ways.length;
    const t0 = performance.now();
    if (way === 0) {
      const ctx = createExecutionContext();
      const args = { game_id: gameId, agent, agent_secret: secret, expected_revision: revision, cells, intent };
      const text = await (await app.fetch(mcpRequest("tools/call", { name: "commit", arguments: args }).request, env, ctx)).text();
      samples[way].ms.push(performance.now() - t0);
      // The usage count is flushed a second later in waitUntil, after the answer: not timed.
      contexts.push(waitOnExecutionContext(ctx));
      follow((JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as { result: { structuredContent: Record<string, unknown> } }).result.structuredContent);
    } else {
      const r = await stub.write(way === 1 ? { agentSecret: secret, input } : { machineId, input });
      samples[way].ms.push(performance.now() - t0);
      if (!r.ok) throw new Error(r.error.message);
      follow(r.answer);
    }
    samples[way].cells.push(cells.length);
  }
  await Promise.all(contexts);
  const referee = new Referee({ gameId, seed, field, rules: RULES });
  await tick();
  const r0 = performance.now();
  for (const input of inputs) if (!referee.apply(input, 1_800_000_000_000).ok) throw new Error("the replay refused a write");
  await tick();
  const commits = inputs.filter((i) => i.type === "commit").length;
  const judging = (performance.now() - r0 - 1) / commits;
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`\nreal commits of one tile's open cells on a G = ${field.G} field, three ways taking turns: mean ms per call`);
  console.log("| call | n | cells per commit | ms |");
  console.log("|---|---|---|---|");
  ways.forEach((name, i) => console.log(`| ${name} | ${samples[i].ms.length} | ${mean(samples[i].cells).toFixed(0)} | ${mean(samples[i].ms).toFixed(3)} |`));
  console.log(`| the referee's judging alone (all ${inputs.length} writes replayed in this isolate, per commit) | ${commits} | ${mean(samples.flatMap((x) => x.cells)).toFixed(0)} | ${judging.toFixed(3)} |`);
});
