// A played round for the MCP Apps view: an agent joins a small field, reveals its seed, commits
// it with one wrong cell and observes, through the official SDK client; the answers are kept as
// a host would hand them to the view, with the view's document as the server serves it.
import { expect } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { connectClient } from "../support/mcp-clients";
import { mintToken, newMachine } from "../support/identity";
import { startPlaying } from "./play-helpers";

export interface ViewRound {
  html: string;
  /** The tool calls' arguments and answers, in the order they were made. */
  results: Array<{ args: Record<string, unknown>; result: CallToolResult }>;
  /** The rejected cell as the view lists it, `(x,y)`. */
  rejectedAt: string;
}

export async function playForView(baseUrl: string): Promise<ViewRound> {
  const token = await mintToken(baseUrl, newMachine());
  const client = await connectClient(baseUrl, { headers: { Authorization: `Bearer ${token}` } });
  try {
    const G = 11;
    const { gameId, field } = await startPlaying(client, { kind: "grid", n: 6, G });
    const results: ViewRound["results"] = [];
    const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const r = await client.callTool(name, args);
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
      results.push({ args, result: { content: [{ type: "text", text: r.text }], structuredContent: r.structuredContent } });
      return r.structuredContent as T;
    };
    const joined = await call<{ agent: string; seed_tile: number; revision: number }>("join", { game_id: gameId, session: "1", model: "a11y-view" });
    const { agent } = joined;
    const revealed = await call<{ revision: number; givens: Array<[number, number]> }>("reveal", { game_id: gameId, agent, expected_revision: joined.revision, tile: joined.seed_tile, intent: "seed" });
    const given = new Set(revealed.givens.map(([c]) => c));
    const open = field.tiles[joined.seed_tile].cellIds.filter((c) => !given.has(c));
    const wrong = open[0];
    const cells = open.map((c) => [c, c === wrong ? 1 - field.solution[c] : field.solution[c]]);
    const committed = await call<{ rejected: Array<{ id: number }> }>("commit", { game_id: gameId, agent, expected_revision: revealed.revision, cells, intent: "one wrong on purpose" });
    expect(committed.rejected.map((r) => r.id)).toContain(wrong);
    await call("observe", { game_id: gameId, agent });
    const [content] = await client.readResource("ui://mosaic/field");
    return { html: content.text ?? "", results, rejectedAt: `(${wrong % G},${Math.floor(wrong / G)})` };
  } finally {
    await client.close();
  }
}
