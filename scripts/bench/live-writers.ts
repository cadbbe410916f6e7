import type { Field } from "../../src/engine";
import { messageOf, modernRequest } from "../../test/support/mcp-wire";

/**
 * The live benchmarks' write load: scripted agents that commit the true values of their frontier
 * tiles, a few cells per write, each at its share of a steady rate, over MCP.
 */
type Structured = Record<string, unknown>;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** An absolute time (ms), comparable across worker threads. */
export const now = (): number => performance.timeOrigin + performance.now();

export async function tool(base: string, name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: Structured }> {
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

/** What the writers saw: when each revision's write was answered (absolute ms), and each write call's duration. */
export class WriteLog {
  readonly answeredAt = new Map<number, number>();
  latencies: number[] = [];
  /** Tool calls made (joins, observes, writes), and writes refused (conflicts and the like). */
  calls = 0;
  refused = 0;
}

export interface WriterOptions {
  base: string;
  gameId: string;
  field: Field;
  /** Writers in all, and which one this is. */
  writers: number;
  index: number;
  /** Events a second the writers offer together. */
  rate: number;
  /** Distinguishes the machines of one phase from another's (a taken seat gives a rejoin no agent_secret). */
  phase: number;
  log: WriteLog;
  stop: () => boolean;
}

/** One agent committing until `stop()`; answers how many writes it made. */
export async function writer(o: WriterOptions): Promise<number> {
  const { base, gameId, field, index, log } = o;
  const machine = `m-${(0xbe00 + 0x100 * o.phase + index).toString(16).padStart(16, "0")}`;
  log.calls++;
  const join = await tool(base, "join", { game_id: gameId, machine_id: machine, session: "1", model: "bench", harness: "bench-live" });
  const seat = join.structuredContent as { agent: string; agent_secret: string };
  const interval = (1000 * o.writers) / o.rate;
  let writes = 0;
  let next = performance.now();
  while (!o.stop()) {
    log.calls++;
    const observed = (await tool(base, "observe", { game_id: gameId, agent: seat.agent })).structuredContent as {
      observation: { revision: number; frontier: number[]; tiles: Array<{ id: number; status: string }>; known: { gaps: number[]; values: string } };
    };
    const obs = observed.observation;
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
      log.calls++;
      const r = await tool(base, type, { game_id: gameId, agent: seat.agent, agent_secret: seat.agent_secret, intent: "bench", ...args });
      const t = now();
      log.latencies.push(t - sent);
      const rev = Number(r.structuredContent?.revision);
      if (r.isError) log.refused++;
      if (!r.isError && Number.isInteger(rev)) log.answeredAt.set(rev, Math.min(log.answeredAt.get(rev) ?? Infinity, t));
      writes++;
      return rev;
    };
    let rev = obs.revision;
    if (status === "hidden") rev = await write({ tile, expected_revision: rev }, "reveal");
    const cells = field.tiles[tile].cellIds.filter((c) => !known.has(c) && !field.tiles[tile].givens.includes(c));
    for (let i = 0; i < cells.length && !o.stop(); i += 3) {
      const batch = cells.slice(i, i + 3).map((c) => [c, field.solution[c]]);
      const r = await write({ cells: batch, expected_revision: Number.isInteger(rev) ? rev : obs.revision }, "commit");
      if (Number.isInteger(r)) rev = r;
    }
  }
  return writes;
}
