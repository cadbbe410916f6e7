import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { readModelText } from "../support/model-text";
import { fieldApi, ok, RULES, uniqueId, waitPlaying } from "./game-helpers";
import { machine, proof } from "./identity-helpers";

/** The play tools through the real /mcp route inside workerd (MOSAIC_DEV is "0" here, as deployed). */

type ToolResult = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };

async function call(name: string, args: Record<string, unknown>, options: { headers?: Record<string, string>; vars?: Partial<typeof env> } = {}): Promise<ToolResult> {
  const req = modernRequest("tools/call", { name, arguments: args }, { headers: options.headers, client: { name: "tools-test", version: "2.1" } });
  const request = new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body });
  const res = options.vars ? await createApp().fetch(request, { ...env, ...options.vars }, createExecutionContext()) : await exports.default.fetch(request);
  const message = await messageOf(res);
  if (!message.result) throw new Error(`protocol error: ${JSON.stringify(message.error)}`);
  return message.result as ToolResult;
}

type ListedTool = { name: string; description: string; inputSchema: { properties: Record<string, Record<string, unknown>> } };

async function toolNames(vars?: Partial<typeof env>): Promise<{ names: string[]; bytes: number; tools: ListedTool[] }> {
  const req = modernRequest("tools/list");
  const request = new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body });
  const res = vars ? await createApp().fetch(request, { ...env, ...vars }, createExecutionContext()) : await exports.default.fetch(request);
  const message = await messageOf(res);
  const tools = (message.result as { tools: ListedTool[] }).tools;
  return { names: tools.map((t) => t.name), bytes: JSON.stringify(message).length, tools };
}

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;

describe("play tools over /mcp", () => {
  it("lists the play tools within the token budget; join carries the rules; daily mode hides start_mosaic", async () => {
    const { names, bytes, tools } = await toolNames();
    expect(names).toEqual(expect.arrayContaining(["start_mosaic", "list_games", "join", "observe", "reveal", "commit", "retract"]));
    expect(bytes).toBeLessThan(16_000);
    expect(tools.find((t) => t.name === "join")!.description).toMatch(/balance/);
    for (const t of tools.filter((t) => t.name !== "join")) expect(t.description).toMatch(/mosaic:\/\/rules/);
    expect((await toolNames({ MOSAIC_DAILY: "1" })).names).not.toContain("start_mosaic");
  });

  it("publishes portable input schemas: fixed-length arrays as minItems/maxItems, no tuples", async () => {
    const { tools } = await toolNames();
    const json = JSON.stringify(tools);
    // Tuples would appear as prefixItems + items:false, which older JSON Schema clients reject.
    expect(json).not.toContain("prefixItems");
    expect(json).not.toMatch(/"items":false/);
    const schema = (name: string, prop: string) => tools.find((t) => t.name === name)!.inputSchema.properties[prop];
    expect(schema("commit", "cells")).toMatchObject({ type: "array", minItems: 1, items: { type: "array", minItems: 2, maxItems: 2, items: { type: "integer", minimum: 0 } } });
    expect(schema("observe", "rect")).toMatchObject({ type: "array", minItems: 4, maxItems: 4, items: { type: "integer", minimum: 0 } });
    expect(schema("retract", "cells")).toMatchObject({ type: "array", minItems: 1, items: { type: "integer", minimum: 0 } });
    expect(schema("commit", "xy")).toMatchObject({ type: "array", minItems: 1, items: { type: "array", minItems: 3, maxItems: 3, items: { type: "integer" } } });
    expect(schema("retract", "xy")).toMatchObject({ type: "array", minItems: 1, items: { type: "array", minItems: 2, maxItems: 2, items: { type: "integer" } } });
  });

  it("still checks every position of cells and rect, with messages naming the problem", async () => {
    const agent = "m-0123456789abcdef/1";
    const commit = (cells: unknown) => call("commit", { game_id: "g", agent, expected_revision: 0, cells, agent_secret: "as_x" });
    const text = (r: ToolResult) => (expect(r.isError).toBe(true), r.content[0].text);
    expect(text(await commit([[1, 2]]))).toMatch(/0 or 1, got 2/);
    expect(text(await commit([[1]]))).toMatch(/cells\.0: each cell is a \[cell_id, value\] pair/);
    expect(text(await commit([[1, 0, 1]]))).toMatch(/cells\.0: each cell is a \[cell_id, value\] pair/);
    expect(text(await commit([[-1, 0]]))).toMatch(/>=0/);
    expect(text(await commit([[1.5, 1]]))).toMatch(/must be a whole number/);
    expect(text(await commit([]))).toMatch(/>=1 items/);
    const observe = (rect: unknown) => call("observe", { game_id: "g", rect });
    expect(text(await observe([0, 0, 1]))).toMatch(/>=4 items/);
    expect(text(await observe([0, 0, 1, 1, 1]))).toMatch(/<=4 items/);
    expect(text(await observe([0, 0, 0, 1]))).toMatch(/>=1/);
    expect(text(await observe([0, 0, 1, 0]))).toMatch(/>=1/);
    expect(text(await observe([-1, 0, 1, 1]))).toMatch(/>=0/);
    // Well-formed arguments pass the edge and reach the field (which does not exist here).
    expect(code(await commit([[1, 0], [2, 1]]))).toBe("missing");
    expect(code(await observe([0, 0, 1, 1]))).toBe("missing");
  });

  it("answers malformed arguments with structuredContent.error like every other refusal (bad_input, too_large)", async () => {
    const agent = "m-0123456789abcdef/1";
    const refusal = (r: ToolResult) => {
      expect(r.isError).toBe(true);
      const error = r.structuredContent?.error as { code: string; message: string };
      // A refusal's text is its message, nothing more (SPEC §6 "What a model reads").
      expect(r.content[0].text).toBe(error.message);
      expect(readModelText(r.content[0].text).summary).toBe(error.message);
      return error;
    };
    const negative = refusal(await call("commit", { game_id: "g", agent, expected_revision: 0, cells: [[-1, 0]], agent_secret: "as_x" }));
    expect(negative.code).toBe("bad_input");
    expect(negative.message).toMatch(/cells\.0\.0.*>=0/);
    expect(refusal(await call("commit", { game_id: "g", agent, expected_revision: 0, cells: [] })).code).toBe("bad_input");
    expect(refusal(await call("retract", { game_id: "g", agent, expected_revision: -1, cells: [1] })).code).toBe("bad_input");
    expect(refusal(await call("observe", { game_id: "g", rect: [0, 0, 0, 0] })).code).toBe("bad_input");
    expect(refusal(await call("reveal", { game_id: "g", agent, expected_revision: 0, tile: "seven" })).code).toBe("bad_input");
    expect(refusal(await call("reveal", { game_id: "g", agent, expected_revision: 0, tile: 0, intent: "x".repeat(161) })).code).toBe("too_large");
  });

  it("says which tool refused and where a missing argument comes from, so a model can fix its call from the text alone", async () => {
    const agent = "m-0123456789abcdef/1";
    const refusal = async (name: string, args: Record<string, unknown>) => {
      const r = await call(name, args);
      expect(r.isError).toBe(true);
      return r.structuredContent?.error as { code: string; message: string };
    };
    const noRevision = await refusal("commit", { game_id: "g", agent, cells: [[1, 0]] });
    expect(noRevision.code).toBe("bad_input");
    expect(noRevision.message).toMatch(/^commit refused its arguments, nothing changed: /);
    expect(noRevision.message).toMatch(/expected_revision: missing \(required\): the revision of the latest answer/);
    expect(noRevision.message).not.toMatch(/Input validation error|received undefined/);
    const bare = await refusal("reveal", {});
    for (const name of ["game_id", "agent", "expected_revision", "tile"]) expect(bare.message).toMatch(new RegExp(`${name}: missing \\(required\\)`));
    // Cells go by id or by coordinates (SPEC §6): a call with neither is told both ways to send them.
    expect(await refusal("commit", { game_id: "g", agent, expected_revision: 0 })).toEqual({
      code: "bad_input",
      message: "commit takes exactly one of cells and xy (neither was sent): cells [[id, 0|1], …] or xy [[x, y, 0|1], …]; nothing changed.",
    });
    expect((await refusal("retract", { game_id: "g", agent, expected_revision: 0 })).message).toMatch(/^retract takes exactly one of cells and xy \(neither was sent\): cells \[id, …\] or xy \[\[x, y\], …\]/);
    // A value that is there but wrong keeps its own message.
    expect((await refusal("commit", { game_id: "g", agent, expected_revision: "3", cells: [[1, 0]] })).message).toMatch(/expected_revision: Invalid input: expected number, received string/);
    // A fraction is named as such, and a bad rect side is reported once.
    const fraction = (await refusal("commit", { game_id: "g", agent, expected_revision: 4.5, cells: [[1.5, 0]] })).message;
    expect(fraction).toMatch(/expected_revision: must be a whole number: the revision of the latest answer you got/);
    expect(fraction).toMatch(/cells\.0\.0: must be a whole number/);
    expect(fraction).not.toMatch(/expected int/);
    const rect = (await refusal("observe", { game_id: "g", rect: [0, 0, -1, 0] })).message;
    expect(rect.match(/rect\.2/g)).toHaveLength(1);
    expect(rect.match(/rect\.3/g)).toHaveLength(1);
    const long = await refusal("reveal", { game_id: "g", agent, expected_revision: 0, tile: 0, intent: "x".repeat(200) });
    expect(long).toMatchObject({ code: "too_large" });
    expect(long.message).toMatch(/intent: too long: at most 160 characters once trimmed, got 200/);
  });

  it("counts an intent's 160 characters as characters (code points), as JSON Schema's maxLength does", async () => {
    const agent = "m-0123456789abcdef/1";
    const { tools } = await toolNames();
    expect(tools.find((t) => t.name === "commit")!.inputSchema.properties.intent).toMatchObject({ type: "string", maxLength: 160 });
    // 160 emoji are 160 characters but 320 UTF-16 units: accepted at the edge, reaching the field.
    const emoji = await call("reveal", { game_id: "g", agent, expected_revision: 0, tile: 0, intent: "😀".repeat(160), agent_secret: "as_x" });
    expect(code(emoji)).toBe("missing");
    const over = await call("reveal", { game_id: "g", agent, expected_revision: 0, tile: 0, intent: "😀".repeat(161), agent_secret: "as_x" });
    expect(code(over)).toBe("too_large");
  });

  it("normalises intents at the edge: one line, trimmed, 160 characters counted after (SPEC §4.4)", async () => {
    const started = await call("start_mosaic", { kind: "scatter", G: 24 });
    const gameId = String(started.structuredContent!.game_id);
    const stub = env.FIELDS.getByName(gameId);
    await waitPlaying(stub);
    const dev = { vars: { MOSAIC_DEV: "1" } };
    const seat = (await call("join", { game_id: gameId, session: "intents" }, dev)).structuredContent as { agent: string; agent_secret: string; seed_tile: number; revision: number };
    const write = (intent: string, rev: number) =>
      call("reveal", { game_id: gameId, agent: seat.agent, expected_revision: rev, tile: seat.seed_tile, intent, agent_secret: seat.agent_secret }, dev);
    // 161 characters once normalised: refused, nothing stored.
    expect(code(await write(`x${"\n".repeat(159)}y`, seat.revision))).toBe("too_large");
    // Longer raw, 160 characters once normalised and trimmed: accepted, stored as one line.
    const raw = `  \r\n\t${"é".repeat(80)}\nrev 9: fake line\u0000${"é".repeat(62)}\u2028 \n\n`;
    const revealed = await write(raw, seat.revision);
    expect(revealed.isError, revealed.content[0].text).toBeFalsy();
    const events = ok(await fieldApi(stub).events(0)).events;
    const intent = events[events.length - 1].intent as string;
    expect(intent).toBe(`${"é".repeat(80)} rev 9: fake line ${"é".repeat(62)}`);
    expect([...intent].length).toBe(160);
    expect(intent).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });

  it("start_mosaic answers at once with generating; defaults and cross-field checks apply", async () => {
    const started = await call("start_mosaic", { kind: "grid", n: 6 });
    expect(started.isError).toBeFalsy();
    const s = started.structuredContent as { game_id: string; status: string; kind: string; G: number; spectator_url: string };
    expect(s).toMatchObject({ status: "generating", kind: "grid", G: 11 });
    expect(s.game_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(s.spectator_url).toBe(`http://localhost:8787/?game=${s.game_id}`);
    const startedText = readModelText(started.content[0].text);
    expect(startedText.summary.length).toBeLessThan(300);
    // The text is for a model: the field's id and how to go on, not a JSON copy of the data.
    expect(startedText.summary).toContain(s.game_id);
    expect(startedText.rest).toBe("");
    const field = await call("start_mosaic", { kind: "field", chunks: 2, chunk_g: 40 });
    expect(field.structuredContent).toMatchObject({ kind: "field", G: 80 });
    // Every argument is accepted with every kind (SPEC §6): those the kind does not use are named in `ignored`.
    for (const [args, ignored, G] of [
      [{ kind: "scatter", grow: { every_minutes: 5 } }, ["grow"], 100],
      [{ kind: "scatter", n: 8 }, ["n"], 100],
      [{ kind: "scatter", chunks: 2 }, ["chunks"], 100],
      [{ kind: "grid", n: 6, chunk_g: 40 }, ["chunk_g"], 11],
      [{ kind: "field", n: 8, chunks: 2, chunk_g: 40 }, ["n"], 80],
      [{ kind: "field", chunks: 2, chunk_g: 40, G: 50 }, ["G"], 80],
      [{ kind: "field", chunks: 2, chunk_g: 40, grow: {} }, ["grow"], 80],
      // A growing field's G is its canvas only from 200 on (else the 1000 default).
      [{ kind: "field", chunks: 2, chunk_g: 40, G: 150, grow: { every_minutes: 5 } }, ["G"], 1000],
      // Every default written out, as a reference agent may send them.
      [{ kind: "scatter", G: 100, n: 14, chunks: 3, chunk_g: 60, rules: { guess: "accept", depth: 0, fog: false }, grow: { every_minutes: 60, frontier_coverage: 0.5 } }, ["n", "chunks", "chunk_g", "grow"], 100],
    ] as const) {
      const started = await call("start_mosaic", args);
      expect(started.isError, started.content[0].text).toBeFalsy();
      expect(started.structuredContent).toMatchObject({ status: "generating", kind: args.kind, G, ignored });
      const text = readModelText(started.content[0].text);
      for (const name of ignored) expect(text.summary).toContain(name);
    }
    // Nothing ignored: no `ignored` field.
    expect(started.structuredContent).not.toHaveProperty("ignored");
    // Out-of-range values are still refused, whether the kind uses them or not.
    expect(code(await call("start_mosaic", { kind: "field", chunks: 3, chunk_g: 120, G: 300, grow: { every_minutes: 5 } }))).toBe("bad_input");
    expect(code(await call("start_mosaic", { kind: "scatter", n: 40 }))).toBe("bad_input");
    expect(code(await call("start_mosaic", { kind: "grid", n: 6, chunks: 1 }))).toBe("bad_input");
    expect(code(await call("start_mosaic", { kind: "scatter", grow: { every_minutes: 0 } }))).toBe("bad_input");
    const bad = await call("start_mosaic", { kind: "scatter", G: 5 });
    expect(bad.isError).toBe(true);
    // The manifest keeps the seed secret and records the growth policy apart from the engine parameters.
    const grown = await call("start_mosaic", { kind: "field", chunks: 2, chunk_g: 40, grow: { every_minutes: 5 }, seed: "very-secret" });
    const manifest = ok(await fieldApi(env.FIELDS.getByName(String(grown.structuredContent!.game_id))).manifest());
    expect(manifest).toMatchObject({ G: 1000, rules: { fog: true }, params: { kind: "field", grow: true, G: 1000 } });
    expect(JSON.stringify(manifest)).not.toContain("very-secret");
  });

  it("refuses a join without a verified identity, pointing to /identity; refuses unknown tokens", async () => {
    const started = await call("start_mosaic", { kind: "scatter", G: 24 });
    const gameId = String(started.structuredContent!.game_id);
    await waitPlaying(env.FIELDS.getByName(gameId));
    const anonymous = await call("join", { game_id: gameId });
    expect(code(anonymous)).toBe("identity");
    expect(anonymous.content[0].text).toMatch(/\/identity/);
    const forged = await call("join", { game_id: gameId }, { headers: { Authorization: "Bearer msc_forged" } });
    expect(code(forged)).toBe("token");
    expect(code(await call("join", { game_id: gameId, machine_id: "m-0123456789abcdef", public_key: "AAAA" }))).toBe("bad_input");
    const writes = await call("commit", { game_id: gameId, agent: "m-0123456789abcdef/1", expected_revision: 0, cells: [[0, 1]] });
    expect(code(writes)).toBe("identity");
    // Development mode seats without identity and hands out an agent_secret; writes need it.
    const dev = await call("join", { game_id: gameId, harness: "my-harness", session: "dev" }, { vars: { MOSAIC_DEV: "1" } });
    expect(dev.isError).toBeFalsy();
    const seat = dev.structuredContent as { agent: string; agent_secret: string; verified: boolean; harness: string; harness_source: string };
    expect(seat).toMatchObject({ verified: false });
    expect(seat.agent_secret).toMatch(/^as_/);
    // The transport identified the client (2026-07-28 clientInfo): that wins over the argument.
    expect(seat.harness).toContain("tools-test");
    expect(seat.harness_source).toBe("transport");
    expect(code(await call("reveal", { game_id: gameId, agent: seat.agent, expected_revision: 0, tile: 0, agent_secret: "as_nope" }))).toBe("not_your_agent");
  });

  it("development seats: a seat's secret goes to its first join only, and a verified machine's seats are not for unproven callers", async () => {
    const started = await call("start_mosaic", { kind: "scatter", G: 24 });
    const gameId = String(started.structuredContent!.game_id);
    await waitPlaying(env.FIELDS.getByName(gameId));
    const dev = { vars: { MOSAIC_DEV: "1" } };
    type Seat = { agent: string; agent_secret?: string; seed_tile: number; revision: number; changed: boolean };
    const first = (await call("join", { game_id: gameId, session: "mine" }, dev)).structuredContent as Seat;
    expect(first.agent_secret).toMatch(/^as_/);
    // Someone else names the same session: the same seat, but no secret that would let them write as it.
    const again = await call("join", { game_id: gameId, session: "mine" }, dev);
    expect(again.isError).toBeFalsy();
    const second = again.structuredContent as Seat;
    expect(second).toMatchObject({ agent: first.agent, changed: false });
    expect(second.agent_secret).toBeUndefined();
    expect(readModelText(again.content[0].text).summary).toMatch(/seated before: its agent_secret went to that first join only/);
    // The first joiner's secret still works.
    const reveal = await call("reveal", { game_id: gameId, agent: first.agent, expected_revision: first.revision, tile: first.seed_tile, agent_secret: first.agent_secret }, dev);
    expect(reveal.isError, reveal.content[0].text).toBeFalsy();
    // Callers without identity share one machine and its three sessions; the answers say so and
    // how to get a machine of one's own, which then seats.
    const shared = await call("join", { game_id: gameId, session: "b" }, dev);
    expect(readModelText(shared.content[0].text).summary).toMatch(/every caller shares machine m-0{16} .*pass machine_id/);
    expect((await call("join", { game_id: gameId, session: "c" }, dev)).isError).toBeFalsy();
    const fourth = await call("join", { game_id: gameId, session: "d" }, dev);
    expect(code(fourth)).toBe("bad_input");
    expect(fourth.content[0].text).toMatch(/already seated 3 sessions.*every caller shares machine m-0{16} .*pass machine_id/);
    const own = await call("join", { game_id: gameId, session: "d", machine_id: "m-00000000000000ab" }, dev);
    expect(own.isError, own.content[0].text).toBeFalsy();
    expect(readModelText(own.content[0].text).summary).not.toMatch(/shares machine/);

    // A machine that proved itself here: an unproven join naming it is refused, whatever the session.
    const m = await machine();
    const proven = await call("join", { game_id: gameId, machine_id: m.machineId, public_key: m.publicKey, proof: await proof(m, gameId, "1") }, dev);
    expect(proven.isError, proven.content[0].text).toBeFalsy();
    for (const session of ["1", "other"]) {
      const squat = await call("join", { game_id: gameId, machine_id: m.machineId, session }, dev);
      expect(code(squat), session).toBe("identity");
      expect(squat.content[0].text).toMatch(/has verified seats on this field/);
    }
  });

  it("refuses a proof join on a field not yet playable without spending the proof", async () => {
    const m = await machine();
    const proofArgs = async (gameId: string) => ({ game_id: gameId, machine_id: m.machineId, public_key: m.publicKey, proof: await proof(m, gameId, "1") });
    // No such field: refused before the proof is looked at.
    const missing = await call("join", await proofArgs(uniqueId("nowhere")));
    expect(code(missing)).toBe("missing");
    // A field large enough to still be generating when the join arrives.
    const gameId = uniqueId("proof-gen");
    const raw = env.FIELDS.getByName(gameId);
    ok(await fieldApi(raw).create({ gameId, params: { kind: "scatter", G: 140 }, rules: RULES, G: 140, seed: "s" }));
    const args = await proofArgs(gameId);
    const early = await call("join", args);
    expect(code(early)).toBe("generating");
    await waitPlaying(raw);
    // The very same proof (same minute, same signature) now seats the agent.
    const seated = await call("join", args);
    expect(seated.isError, seated.content[0].text).toBeFalsy();
    expect(seated.structuredContent).toMatchObject({ agent: `${m.machineId}/1`, verified: true });
    // And it is spent now.
    expect(code(await call("join", args))).toBe("proof");
  });

  it("validates sizes at the edge: too_large batches, bad game ids, out-of-range values", async () => {
    const agent = "m-0123456789abcdef/1";
    const many = await call("commit", { game_id: "g", agent, expected_revision: 0, cells: Array.from({ length: 600 }, (_, i) => [i, 1]) });
    expect(code(many)).toBe("too_large");
    const manyRetract = await call("retract", { game_id: "g", agent, expected_revision: 0, cells: Array.from({ length: 9000 }, (_, i) => i) });
    expect(code(manyRetract)).toBe("too_large");
    const badValue = await call("commit", { game_id: "g", agent, expected_revision: 0, cells: [[1, 2]] });
    expect(badValue.isError).toBe(true);
    const badId = await call("observe", { game_id: "../etc" });
    expect(badId.isError).toBe(true);
    expect(badId.content[0].text).toMatch(/game_id/);
    const longIntent = await call("reveal", { game_id: "g", agent, expected_revision: 0, tile: 0, intent: "x".repeat(161) });
    expect(longIntent.isError).toBe(true);
    expect(code(await call("observe", { game_id: "never-created" }))).toBe("missing");
  });
});
