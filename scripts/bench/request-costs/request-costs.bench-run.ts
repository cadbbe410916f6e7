// What one request costs inside workerd, piece by piece, with no local proxy in front (the
// Worker's own app and objects through the vitest plugin): GET /api/health as the baseline, then
// /mcp calls through the whole app, the MCP SDK's dispatch alone, one Durable Object RPC, and the
// per-call work of our own code (argument validation, chaining an event). It explains the load
// benchmark's latency ratio: which part of a tool call's cost is ours and which is the runtime's.
// Not a test of anything: it measures and prints one table.
//
//   npm run bench:requests
import { env } from "cloudflare:workers";
import { createExecutionContext, runDurableObjectAlarm, waitOnExecutionContext } from "cloudflare:test";
import { createMcpHandler, isLegacyRequest, McpServer } from "@modelcontextprotocol/server";
import { it } from "vitest";
import { generateField } from "../../../src/engine";
import { chainEvent } from "../../../src/game/chain";
import type { FieldObject, Outcome } from "../../../src/game/field-object";
import { createApp } from "../../../src/http/app";
import { harnessFromMessage } from "../../../src/mcp/context";
import { directToolCall } from "../../../src/mcp/direct-call";
import { KEEP_ALIVE_MS, serveMcp } from "../../../src/mcp/handler";
import { invalidParams } from "../../../src/mcp/params";
import { commitArgs } from "../../../src/mcp/tools/play-schemas";
import type { RefereeEvent } from "../../../src/referee/types";
import { modernRequest } from "../../../test/e2e/harness/mcp-wire";

const ROUNDS = 3;
const ITERATIONS = 400;
const ORIGIN = "http://localhost:8787";

type Api = Pick<FieldObject, "create" | "status">;

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
  const stub = env.FIELDS.getByName(gameId) as unknown as Api;
  ok(await stub.create({ gameId, params: { kind: "scatter", G: 100 }, rules: { guess: "accept", depth: 0, fog: false }, G: 100, seed }));
  await runDurableObjectAlarm(env.FIELDS.getByName(gameId));
  while ((await stub.status()).status === "generating") await new Promise((r) => setTimeout(r, 100));
  const field = await generateField({ kind: "scatter", G: 100, seed });
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
