// A scripted agent for the fault suites: it knows the field's solution (generation is a pure
// function of the seed), plays through a real MCP client, and keeps going through everything a
// faulty service or network throws at it: conflicts, refusals, cut connections, a server that is
// down for a while. Each write carries a unique intent (`<label>#<n> …`) so the event log says,
// write by write, whether it was applied.
import type { Field } from "../../src/engine/types";
import type { Rng } from "../../src/engine/random";
import type { McpClient, ToolCallResult } from "./mcp-clients";

interface ObservedTile {
  id: number;
  status: "hidden" | "revealed" | "solved";
}

interface Observation {
  status: string;
  revision: number;
  frontier: number[];
  tiles: ObservedTile[];
  known?: { gaps: number[]; values: string };
}

export interface OracleAgentOptions {
  label: string;
  gameId: string;
  field: Field;
  client: McpClient;
  rng: Rng;
  /** Cells per commit (the benchmark's 48 by default). */
  cellsPerCommit?: number;
  session?: string;
  /** Extra join arguments (a proof join's identity fields); the answer's agent_secret then goes with every write. */
  joinArgs?: () => Record<string, unknown>;
  /** Milliseconds to wait before each move (read before every move, so it can change during a run). */
  pause?: () => number;
}

/** Decodes `known` (sorted ids as gaps, values as a string) into a set of known cell ids. */
export function knownCells(known: { gaps: number[]; values: string } | undefined): Set<number> {
  const out = new Set<number>();
  if (!known) return out;
  let id = 0;
  for (const gap of known.gaps) {
    id += gap;
    out.add(id);
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class OracleAgent {
  agent = "";
  /** The newest revision this agent saw. */
  revision = 0;
  /** The agent_secret of a proof join (sent with every write). */
  secret: string | undefined;
  /** Writes this agent sent (whatever became of them). */
  writes = 0;
  /** Calls that threw (network down, connection cut). */
  failures = 0;
  finished = false;
  private n = 0;
  private readonly cellsPerCommit: number;

  constructor(private readonly o: OracleAgentOptions) {
    this.cellsPerCommit = o.cellsPerCommit ?? 48;
  }

  /** A tool call that survives a server that is down: retries a thrown call until `deadline`. */
  private async call(tool: string, args: Record<string, unknown>, retry: boolean): Promise<ToolCallResult | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.o.client.callTool(tool, args);
      } catch {
        this.failures++;
        if (!retry || attempt > 400) return null;
        await sleep(100);
      }
    }
  }

  async join(): Promise<void> {
    const r = await this.call("join", { game_id: this.o.gameId, session: this.o.session ?? "1", model: "oracle", name: this.o.label, ...this.o.joinArgs?.() }, true);
    if (!r || r.isError) throw new Error(`${this.o.label}: join failed: ${r?.text ?? "no answer"}`);
    this.agent = String(r.structuredContent?.agent);
    const secret = r.structuredContent?.agent_secret;
    if (typeof secret === "string") this.secret = secret;
  }

  private intent(what: string): string {
    return `${this.o.label}#${++this.n} ${what}`;
  }

  /**
   * One move: observe, pick a frontier tile, reveal it if hidden, else commit some of its unknown
   * cells. Returns false when there is nothing to do (the field is solved or the frontier empty).
   * A write that is not answered (the connection broke) is not retried: the next move observes.
   */
  async move(): Promise<boolean> {
    const o = await this.call("observe", { game_id: this.o.gameId, agent: this.agent }, true);
    if (!o || o.isError) return true;
    const obs = (o.structuredContent as { observation: Observation }).observation;
    this.revision = Math.max(this.revision, obs.revision);
    if (obs.status !== "playing") return false;
    if (obs.frontier.length === 0) return false;
    const status = new Map(obs.tiles.map((t) => [t.id, t.status]));
    const known = knownCells(obs.known);
    const tileId = obs.frontier[this.o.rng.int(obs.frontier.length)];
    const tile = this.o.field.tiles[tileId];
    const base = { game_id: this.o.gameId, agent: this.agent, expected_revision: obs.revision, ...(this.secret ? { agent_secret: this.secret } : {}) };
    this.writes++;
    if ((status.get(tileId) ?? "hidden") === "hidden") {
      await this.call("reveal", { ...base, tile: tileId, intent: this.intent(`reveal ${tileId}`) }, false);
      return true;
    }
    const cells = tile.cellIds.filter((c) => !known.has(c)).slice(0, this.cellsPerCommit);
    if (cells.length === 0) return true;
    await this.call("commit", { ...base, cells: cells.map((c) => [c, this.o.field.solution[c]]), intent: this.intent(`tile ${tileId}`) }, false);
    return true;
  }

  /** Moves until `stop()` says so or there is nothing left to do. */
  async run(stop: () => boolean): Promise<void> {
    while (!stop()) {
      const pause = this.o.pause?.() ?? 0;
      if (pause > 0) await sleep(pause);
      if (!(await this.move())) {
        this.finished = true;
        return;
      }
    }
  }
}
