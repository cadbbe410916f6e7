import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateField } from "../../src/engine";
import { harnessFromMessage, type ToolContext } from "../../src/mcp/context";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { DIRECT_REVISION, directToolCall, plainModernCall, sseAnswer } from "../../src/mcp/direct-call";
import { KEEP_ALIVE_MS, serveMcp } from "../../src/mcp/handler";
import { legacyRequest, modernRequest, parseSse } from "../support/mcp-wire";
import { uniqueId } from "./game-helpers";

/**
 * The direct `tools/call` path (src/mcp/direct-call.ts) against the SDK's answer to the very same
 * request: status, headers and bytes must be equal, for every tool, for answers and refusals, as
 * JSON and as SSE. The SDK path is the reference (`direct: false`); a write is compared on two
 * fields generated from one seed, where the same move gets the same answer.
 */

const devEnv = { ...env, MOSAIC_DEV: "1" };
const ACCEPTS = { json: "application/json", sse: "application/json, text/event-stream" } as const;
type Mode = keyof typeof ACCEPTS;

interface Wire {
  status: number;
  type: string | null;
  cache: string | null;
  text: string;
}

function build(name: string, args: Record<string, unknown>, mode: Mode, headers: Record<string, string> = {}): { request: Request; message: Record<string, unknown> } {
  const wire = modernRequest("tools/call", { name, arguments: args }, { accept: ACCEPTS[mode], headers, client: { name: "direct-test", version: "1.0" } });
  return { request: new Request("http://localhost:8787/mcp", { method: "POST", headers: wire.headers, body: wire.body }), message: JSON.parse(wire.body) as Record<string, unknown> };
}

function contextOf(request: Request, message: Record<string, unknown>): ToolContext {
  return { env: devEnv, request, harness: harnessFromMessage(message) };
}

function withoutHeader(call: { request: Request; message: Record<string, unknown> }, name: string): { request: Request; message: Record<string, unknown> } {
  const headers = new Headers(call.request.headers);
  headers.delete(name);
  return { request: new Request(call.request.url, { method: "POST", headers, body: JSON.stringify(call.message) }), message: call.message };
}

async function read(response: Response): Promise<Wire> {
  return { status: response.status, type: response.headers.get("content-type"), cache: response.headers.get("cache-control"), text: await response.text() };
}

async function viaDirect(name: string, args: Record<string, unknown>, mode: Mode): Promise<Wire> {
  const { request, message } = build(name, args, mode);
  const answer = directToolCall(request, message, contextOf(request, message), KEEP_ALIVE_MS);
  if (!answer) throw new Error(`${name} did not take the direct path`);
  return read(await answer);
}

async function viaSdk(name: string, args: Record<string, unknown>, mode: Mode): Promise<Wire> {
  const { request, message } = build(name, args, mode);
  return read(await serveMcp(request, message, contextOf(request, message), { direct: false }));
}

/** A call whose answer does not depend on which of the two goes first (reads, refusals, no-ops). */
async function sameBothWays(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  let result: Record<string, unknown> = {};
  for (const mode of ["json", "sse"] as const) {
    const reference = await viaSdk(name, args, mode);
    const direct = await viaDirect(name, args, mode);
    expect(direct, `${name} ${mode}`).toEqual(reference);
    const body = mode === "sse" ? parseSse(direct.text).events[0].data : direct.text;
    result = (JSON.parse(body) as { result: Record<string, unknown> }).result;
  }
  return result;
}

const structured = (result: Record<string, unknown>) => result.structuredContent as Record<string, unknown>;

async function playingField(seed: string): Promise<string> {
  const start = await viaSdk("start_mosaic", { kind: "scatter", G: 24, seed }, "json");
  const gameId = (JSON.parse(start.text) as { result: { structuredContent: { game_id: string } } }).result.structuredContent.game_id;
  for (let i = 0; i < 500; i++) {
    const o = await viaSdk("observe", { game_id: gameId, rect: [0, 0, 1, 1] }, "json");
    if (o.text.includes('"status":"playing"')) return gameId;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("field did not start");
}

describe("the direct tools/call path answers exactly as the SDK does", () => {
  it("for reads, refusals and no-op writes of every tool, as JSON and as SSE", async () => {
    await sameBothWays("list_games", {});
    const seed = uniqueId("direct");
    const gameId = await playingField(seed);
    // A join issues a fresh agent secret every time: it is compared on twin fields (next test).
    const seat = JSON.parse((await viaDirect("join", { game_id: gameId, session: "s1", model: "m" }, "json")).text).result.structuredContent;
    expect(seat.agent).toMatch(/\/s1$/);
    const agent = seat.agent as string;
    const secret = seat.agent_secret as string;
    const observed = structured(await sameBothWays("observe", { game_id: gameId, agent }));
    await sameBothWays("observe", { game_id: gameId, rect: [0, 0, 12, 12] });
    await sameBothWays("observe", { game_id: gameId, full: true });
    const revision = (observed.observation as { revision: number }).revision;
    const tile = seat.seed_tile as number;
    // The first reveal changes the field; the repeat is a read on both paths.
    await viaDirect("reveal", { game_id: gameId, agent, agent_secret: secret, expected_revision: revision, tile, intent: "look" }, "json");
    const again = structured(await sameBothWays("reveal", { game_id: gameId, agent, agent_secret: secret, expected_revision: revision, tile, intent: "look again" }));
    expect(again.changed).toBe(false);
    // Refusals: unknown field, wrong secret, stale commit of a cell that is not the caller's.
    await sameBothWays("observe", { game_id: "no-such-field" });
    await sameBothWays("commit", { game_id: gameId, agent, agent_secret: "as_wrong", expected_revision: 0, cells: [[0, 1]], intent: "x" });
    await sameBothWays("retract", { game_id: gameId, agent, agent_secret: secret, expected_revision: 0, cells: [0], intent: "x" });
    await sameBothWays("join", { game_id: "no-such-field", session: "s1" });
    await sameBothWays("start_mosaic", { kind: "grid", G: 7 });
  });

  it("for a write that changes the field: the same move on two fields of one seed gets the same answer", async () => {
    const seed = uniqueId("direct-twin");
    const field = await generateField({ kind: "scatter", seed, G: 24 });
    const twins = [await playingField(seed), await playingField(seed)];
    const answers: Wire[][] = [];
    let seedTile = -1;
    for (const [i, gameId] of twins.entries()) {
      const send = i === 0 ? viaDirect : viaSdk;
      const joined = await send("join", { game_id: gameId, session: "w", model: "m" }, "json");
      const seat = JSON.parse(joined.text).result.structuredContent;
      const tile = field.tiles[seat.seed_tile as number];
      seedTile = tile.id;
      const base = { game_id: gameId, agent: seat.agent, agent_secret: seat.agent_secret, intent: "solve the seed" };
      const reveal = await send("reveal", { ...base, expected_revision: 0, tile: tile.id }, "json");
      const revealed = JSON.parse(reveal.text).result.structuredContent;
      const given = new Set(tile.givens);
      const cells = tile.cellIds.filter((c) => !given.has(c)).map((c) => [c, field.solution[c]]);
      const committed = await send("commit", { ...base, expected_revision: revealed.revision, cells }, "sse");
      const anonymous = (wire: Wire): Wire => ({ ...wire, text: wire.text.replaceAll(gameId, "<game>").replaceAll(seat.agent_secret, "<secret>") });
      answers.push([joined, reveal, committed].map(anonymous));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0][0].text).toContain("<secret>");
    const result = JSON.parse(parseSse(answers[0][2].text).events[0].data).result;
    expect(result.structuredContent.solved).toContain(seedTile);
    expect(result.structuredContent.changed).toBe(true);
  });

  it("leaves to the SDK every call it could answer differently", async () => {
    const plain = build("list_games", {}, "json");
    const ctx = contextOf(plain.request, plain.message);
    expect(directToolCall(plain.request, plain.message, ctx, KEEP_ALIVE_MS)).toBeDefined();
    const cases: Array<[string, { request: Request; message: Record<string, unknown> }]> = [
      ["an unknown tool", build("no_such_tool", {}, "json")],
      ["arguments the schema refuses", build("observe", { game_id: 7 }, "json")],
      ["an Mcp-Name header that disagrees", build("list_games", {}, "json", { "Mcp-Name": "observe" })],
      ["an encoded Mcp-Name header", build("list_games", {}, "json", { "Mcp-Name": "=?base64?bGlzdF9nYW1lcw==?=" })],
      ["an empty Mcp-Method header", build("list_games", {}, "json", { "Mcp-Method": "" })],
      ["no Mcp-Method header", withoutHeader(build("list_games", {}, "json"), "mcp-method")],
      ["no Mcp-Name header", withoutHeader(build("list_games", {}, "json"), "mcp-name")],
      ["a protocol version header that disagrees", build("list_games", {}, "json", { "MCP-Protocol-Version": "2025-06-18" })],
      ["a body that is not declared JSON", build("list_games", {}, "json", { "Content-Type": "text/plain" })],
    ];
    const legacy = legacyRequest("tools/call", { name: "list_games", arguments: {} }, { version: "2025-06-18" });
    cases.push(["a 2025-era call", { request: new Request("http://localhost:8787/mcp", { method: "POST", headers: legacy.headers, body: legacy.body }), message: JSON.parse(legacy.body) }]);
    const list = modernRequest("tools/list");
    cases.push(["another method", { request: new Request("http://localhost:8787/mcp", { method: "POST", headers: list.headers, body: list.body }), message: JSON.parse(list.body) }]);
    for (const [why, { request, message }] of cases) {
      expect(directToolCall(request, message, contextOf(request, message), KEEP_ALIVE_MS), why).toBeUndefined();
    }
    // A call the path classifies as plain is modern traffic for the SDK too: the handler skips the
    // SDK's own era check for it. Checked on every case the classification takes.
    let taken = 0;
    for (const [why, { request, message }] of [["a plain call", plain] as const, ...cases]) {
      if (!plainModernCall(request, message)) continue;
      taken++;
      expect(await isLegacyRequest(request, message), why).toBe(false);
    }
    expect(taken).toBe(3);
    expect(DIRECT_REVISION).toBe((plain.message.params as { _meta: Record<string, string> })._meta["io.modelcontextprotocol/protocolVersion"]);
  });

  it("sends a message ready before the first keep-alive is due as one whole frame", async () => {
    const response = await sseAnswer(Promise.resolve({ jsonrpc: "2.0", id: 1, result: { ok: true } }), 10_000);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { ok: true } })}\n\n`);
  });

  it("streams keep-alive comments while a slow call runs, then the one message frame", async () => {
    let finish: (value: Record<string, unknown>) => void = () => {};
    const message = new Promise<Record<string, unknown>>((resolve) => (finish = resolve));
    setTimeout(() => finish({ jsonrpc: "2.0", id: 1, result: { ok: true } }), 90);
    const opened = Date.now();
    const response = await sseAnswer(message, 20);
    expect(Date.now() - opened).toBeLessThan(90);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { events, comments } = parseSse(await response.text());
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(comments.every((c) => c.trim() === "keepalive")).toBe(true);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].data)).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
  });
});
