// The floor under a tool call through `wrangler dev`, measured by `npm run bench:load` on the idle
// server before its scenarios. Four requests, interleaved, each after the same pause as a paced
// agent's turn, so each meets the server as cold as the agents' calls do:
//
//   1. GET /api/health                        the baseline the latency target is judged against
//   2. POST /mcp that the edge refuses        what any request with a body pays (no tool, no object)
//   3. a commit that changes nothing          the MCP layers, the token, the field object's call;
//                                             nothing judged, nothing stored (one given cell)
//   4. a one-cell commit, then its retract    a real write, stored durably before its answer, with
//                                             the least judging a write can have
//
// Rung 4 over rung 1 is what the cheapest real write costs against the baseline on this machine;
// what a whole tile's commit costs above rung 4 is its judging, chaining and larger answer.
import { generateField } from "../../src/engine";
import { messageOf, modernRequest } from "../../test/support/mcp-wire";
import { percentile, timed } from "./samples";

export interface LatencyFloor {
  health: number;
  refusedPost: number;
  unchangedCommit: number;
  durableWrite: number;
}

export interface FloorOptions {
  base: string;
  fetchImpl: typeof fetch;
  /** A bearer token of a machine that plays nowhere else. */
  token: string;
  /** A playing field, and the kind, G and seed it was started with (regenerated here for one cell's value). */
  gameId: string;
  field: { kind: "scatter" | "grid"; G: number; seed: string };
  rounds: number;
  gapMs: number;
}

/**
 * A body of about a commit's size that is not JSON: the edge reads it (Host, Origin, size limit)
 * and answers -32700, with no tool, no SDK and no object behind it.
 */
const REFUSED_POST_BODY = `{${"x".repeat(2000)}`;
const INTENT = "latency floor probe";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const p50 = (samples: number[]) => percentile([...samples].sort((a, b) => a - b), 50);

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** The p50 of each rung over `rounds` interleaved rounds; throws when a write does not answer as designed. */
export async function latencyFloor(o: FloorOptions): Promise<LatencyFloor> {
  const call = async (name: string, args: Record<string, unknown>): Promise<{ ms: number; answer: ToolAnswer }> => {
    const request = modernRequest("tools/call", { name, arguments: args }, { headers: { Authorization: `Bearer ${o.token}` } });
    const t0 = performance.now();
    const res = await o.fetchImpl(`${o.base}/mcp`, { method: "POST", headers: request.headers, body: request.body });
    const text = await res.text();
    const ms = performance.now() - t0;
    // The clock stopped at the body's end; the harness's parser reads it as JSON or as SSE.
    const message = (await messageOf(new Response(text, { headers: res.headers }))) as { result?: ToolAnswer };
    if (!message.result) throw new Error(`${name}: no result: ${text.slice(0, 300)}`);
    return { ms, answer: message.result };
  };
  const structured = (name: string, answer: ToolAnswer): Record<string, unknown> => {
    if (answer.isError || !answer.structuredContent) throw new Error(`${name} failed: ${JSON.stringify(answer).slice(0, 300)}`);
    return answer.structuredContent;
  };

  const seat = structured("join", (await call("join", { game_id: o.gameId, session: "floor" })).answer) as { agent: string; revision: number; seed_tile: number };
  const agent = seat.agent;
  const shown = structured("reveal", (await call("reveal", { game_id: o.gameId, agent, tile: seat.seed_tile, expected_revision: seat.revision, intent: INTENT })).answer) as {
    revision: number;
    givens: Array<[number, 0 | 1]>;
    seam: Array<[number, 0 | 1]>;
  };
  let revision = shown.revision;
  const field = await generateField(o.field);
  const shownIds = new Set([...shown.givens, ...shown.seam].map(([id]) => id));
  const open = field.tiles[seat.seed_tile].cellIds.find((c) => !shownIds.has(c));
  if (open === undefined || shown.givens.length === 0) throw new Error("the seed tile has no given or no open cell to probe with");
  const given = shown.givens[0];
  const openCell: [number, 0 | 1] = [open, field.solution[open] as 0 | 1];

  const samples: Record<keyof LatencyFloor, number[]> = { health: [], refusedPost: [], unchangedCommit: [], durableWrite: [] };
  for (let round = 0; round < o.rounds; round++) {
    await sleep(o.gapMs);
    await timed(samples.health, () => o.fetchImpl(`${o.base}/api/health`));
    await sleep(o.gapMs);
    await timed(samples.refusedPost, () =>
      o.fetchImpl(`${o.base}/mcp`, { method: "POST", body: REFUSED_POST_BODY, headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" } }),
    );
    await sleep(o.gapMs);
    const unchanged = await call("commit", { game_id: o.gameId, agent, expected_revision: revision, cells: [given], intent: INTENT });
    if (structured("commit", unchanged.answer).changed !== false) throw new Error("the commit of a given cell changed the field");
    samples.unchangedCommit.push(unchanged.ms);
    await sleep(o.gapMs);
    // The open cell, committed on even rounds and retracted on odd ones: a stored event each time.
    const write =
      round % 2 === 0
        ? await call("commit", { game_id: o.gameId, agent, expected_revision: revision, cells: [openCell], intent: INTENT })
        : await call("retract", { game_id: o.gameId, agent, expected_revision: revision, cells: [open], intent: INTENT });
    const written = structured(round % 2 === 0 ? "commit" : "retract", write.answer);
    if (written.changed !== true || typeof written.revision !== "number") throw new Error(`the probe's write changed nothing: ${JSON.stringify(written).slice(0, 300)}`);
    revision = written.revision;
    samples.durableWrite.push(write.ms);
  }
  return {
    health: p50(samples.health),
    refusedPost: p50(samples.refusedPost),
    unchangedCommit: p50(samples.unchangedCommit),
    durableWrite: p50(samples.durableWrite),
  };
}
