import { env, exports } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { createPlaying, machineId } from "./game-helpers";
import { machine, mint, proof } from "./identity-helpers";

/**
 * The analysis (SPEC §11) through the real routes: agents play through /mcp (development mode:
 * joins without identity, writes with their agent_secret), their calls and bytes are counted in
 * the Worker and reach the field in batches, and `GET /api/games/:id/analysis` groups them by
 * model, harness and tag with bootstrap intervals and the field's optimum.
 */

type ToolResult = { isError?: boolean; content?: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown> };
type Estimate = { value: number; lo: number; hi: number } | null;
type Row = {
  key: string;
  agents: number;
  machines: number;
  reward: number;
  cells: number;
  calls_total: number;
  bytes_total: number;
  calls: Estimate;
  bytes: Estimate;
  wrong: Estimate;
  guesses: Estimate;
  forced_share: Estimate;
  propagation_share: Estimate;
};
type Analysis = { revision: number; optimum: { status: string; share?: number; cells?: number; forced?: number; guesses?: number }; by_model: Row[]; by_harness: Row[]; by_tag: Row[] };

/** Execution contexts of the calls made, whose deferred work (usage batches) the test awaits. */
const contexts: ExecutionContext[] = [];

/** One tool call through the Worker in development mode. */
async function call(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ToolResult> {
  const req = modernRequest("tools/call", { name, arguments: args }, { client: null, headers });
  const ctx = createExecutionContext();
  contexts.push(ctx);
  const res = await createApp().fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body }), { ...env, MOSAIC_DEV: "1" }, ctx);
  const message = await messageOf(res);
  return message.result as ToolResult;
}

async function analysis(gameId: string): Promise<{ status: number; body: Analysis; etag: string | null }> {
  const r = await exports.default.fetch(new Request(`http://mosaic.test/api/games/${gameId}/analysis`));
  return { status: r.status, body: (await r.json()) as Analysis, etag: r.headers.get("ETag") };
}

describe("analysis", () => {
  it("groups agents by model, harness and tag with usage per 100 reward, bootstrap intervals and the field's optimum", async () => {
    const { gameId, field } = await createPlaying({ kind: "scatter", G: 30 }, 30, { seed: "analysis-field" });
    const seats: Array<{ agent: string; secret: string; calls: number; bytes: number; model: string }> = [];
    // What the meter counts for an answer: the bytes of the tool result's JSON (without the envelope's resultType and _meta).
    const answerBytes = (r: ToolResult): number => new TextEncoder().encode(JSON.stringify({ content: r.content, structuredContent: r.structuredContent })).length;
    const plan = [
      { machine: machineId(71), model: "alpha", harness: "h-one", tags: ["red", "fast"] },
      { machine: machineId(72), model: "alpha", harness: "h-two", tags: ["blue"] },
      { machine: machineId(73), model: "beta", harness: "h-one", tags: ["solo"] },
    ];
    for (const p of plan) {
      const r = await call("join", { game_id: gameId, machine_id: p.machine, session: "1", model: p.model, harness: p.harness, tags: p.tags });
      expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
      const s = r.structuredContent as { agent: string; agent_secret: string };
      seats.push({ agent: s.agent, secret: s.agent_secret, calls: 1, bytes: answerBytes(r), model: p.model });
    }
    // Each agent solves its seed and what its frontier offers, a few tiles each; one wrong cell per agent.
    let revision = 0;
    for (let round = 0; round < 3; round++) {
      for (const seat of seats) {
        const o = (await call("observe", { game_id: gameId, agent: seat.agent })).structuredContent as { observation: { frontier: number[]; revision: number } };
        revision = o.observation.revision;
        const tile = o.observation.frontier[0];
        if (tile === undefined) continue;
        const rv = await call("reveal", { game_id: gameId, agent: seat.agent, expected_revision: revision, tile, intent: "look", agent_secret: seat.secret });
        seat.calls++;
        seat.bytes += answerBytes(rv);
        revision = Number(rv.structuredContent?.revision ?? revision);
        const cells = field.tiles[tile].cellIds.filter((c) => !field.tiles[tile].givens.includes(c)).map((c) => [c, field.solution[c]]);
        const wrong = [[cells[0][0], 1 - Number(cells[0][1])]];
        const cm1 = await call("commit", { game_id: gameId, agent: seat.agent, expected_revision: revision, cells: wrong, intent: "try", agent_secret: seat.secret });
        seat.calls++;
        seat.bytes += answerBytes(cm1);
        revision = Number(cm1.structuredContent?.revision ?? revision);
        const cm2 = await call("commit", { game_id: gameId, agent: seat.agent, expected_revision: revision, cells, intent: "solve", agent_secret: seat.secret });
        seat.calls++;
        seat.bytes += answerBytes(cm2);
        expect(cm2.isError, JSON.stringify(cm2.structuredContent)).toBeFalsy();
        revision = Number(cm2.structuredContent?.revision ?? revision);
      }
    }
    // A refused write naming another machine's agent counts against nobody.
    await call("commit", { game_id: gameId, agent: seats[0].agent, expected_revision: revision, cells: [[0, 0]], intent: "x", agent_secret: "as_forged" });

    // The batches leave a second after the calls, once the answers are out.
    for (const ctx of contexts.splice(0)) await waitOnExecutionContext(ctx);
    let doc = await analysis(gameId);
    expect(doc.status).toBe(200);
    for (let i = 0; i < 300 && doc.body.optimum.status !== "ready"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      doc = await analysis(gameId);
    }
    const a = doc.body;
    expect(a.optimum.status).toBe("ready");
    expect(a.optimum.cells).toBe(a.optimum.forced! + a.optimum.guesses!);
    expect(a.optimum.share).toBeGreaterThan(0);
    expect(a.optimum.share).toBeLessThanOrEqual(1);

    expect(a.by_model.map((r) => [r.key, r.agents, r.machines]).sort()).toEqual([["alpha", 2, 2], ["beta", 1, 1]]);
    expect(a.by_harness.map((r) => r.key).sort()).toEqual(["h-one", "h-two"]);
    expect(a.by_tag.map((r) => [r.key, r.agents]).sort()).toEqual([["blue", 1], ["fast", 1], ["red", 1], ["solo", 1]]);
    // Observations without a token prove no machine; every join and write an agent made is counted once.
    const counted = a.by_model.reduce((n, r) => n + r.calls_total, 0);
    expect(counted).toBeCloseTo(seats.reduce((n, s) => n + s.calls, 0), 6);
    for (const model of ["alpha", "beta"]) {
      const row = a.by_model.find((r) => r.key === model)!;
      expect(row.bytes_total).toBe(seats.filter((s) => s.model === model).reduce((n, s) => n + s.bytes, 0));
    }
    for (const dimension of [a.by_model, a.by_harness, a.by_tag]) {
      for (const r of dimension) {
        expect(r.bytes_total).toBeGreaterThan(0);
        for (const e of [r.calls, r.bytes, r.wrong, r.guesses, r.forced_share, r.propagation_share]) {
          if (!e) continue;
          expect(e.lo).toBeLessThanOrEqual(e.value);
          expect(e.value).toBeLessThanOrEqual(e.hi);
        }
        if (r.reward > 0) {
          expect(r.calls?.value).toBeCloseTo((100 * r.calls_total) / r.reward, 3);
        }
        expect(r.propagation_share?.value).toBeGreaterThanOrEqual(0);
        expect(r.propagation_share?.value).toBeLessThanOrEqual(1);
      }
    }
    expect(a.by_model.some((r) => (r.wrong?.value ?? 0) > 0)).toBe(true);
    const alpha = a.by_model.find((r) => r.key === "alpha")!;
    expect(alpha.calls?.lo).toBeLessThanOrEqual(alpha.calls?.hi ?? -1);
    // The same field at the same revision gives the same document (deterministic resampling).
    const again = await analysis(gameId);
    expect(again.body).toEqual(a);
    expect(again.etag).toBe(doc.etag);
  });

  it("counts every call of a proven machine, its refused joins included", async () => {
    const { gameId } = await createPlaying({ kind: "scatter", G: 30 }, 30, { seed: "analysis-refusals" });
    const withToken = await machine();
    const token = await mint(withToken);
    const withProof = await machine();
    // Three sessions per machine and field: each machine's fourth join is refused, after its
    // machine was proven (by the field for a token, at the edge for a join proof).
    for (const session of ["1", "2", "3", "4"]) {
      const r = await call("join", { game_id: gameId, session, model: "counted", harness: "token" }, { Authorization: `Bearer ${token}` });
      expect(Boolean(r.isError), JSON.stringify(r.structuredContent)).toBe(session === "4");
    }
    for (const session of ["1", "2", "3", "4"]) {
      const signed = await proof(withProof, gameId, session);
      const r = await call("join", { game_id: gameId, session, machine_id: withProof.machineId, public_key: withProof.publicKey, proof: signed, model: "counted", harness: "proof" });
      expect(Boolean(r.isError), JSON.stringify(r.structuredContent)).toBe(session === "4");
    }
    for (const ctx of contexts.splice(0)) await waitOnExecutionContext(ctx);
    const a = (await analysis(gameId)).body;
    const byHarness = new Map(a.by_harness.map((r) => [r.key, r.calls_total]));
    expect(byHarness.get("token")).toBeCloseTo(4, 6);
    expect(byHarness.get("proof")).toBeCloseTo(4, 6);
  });
});
