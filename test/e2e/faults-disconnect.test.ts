import { describe, expect, inject, it } from "vitest";
import { readLog, type LoggedEvent } from "../support/event-log";
import { mintToken, newMachine } from "../support/identity";
import { callToolStructured, connectClient } from "../support/mcp-clients";
import { messagesOf, modernRequest } from "../support/mcp-wire";
import { knownCells } from "../support/oracle-agent";
import { startPlaying } from "./play-helpers";

/**
 * SPEC §4.9 "every write is atomic": a client that goes away in the middle of a tools/call
 * (aborts at once, after a few milliseconds, as soon as the answer's headers arrive, or while its
 * request body is still being sent) leaves a write that is either wholly applied or not at all,
 * and the event log says which: a logged commit has a verdict for every cell it sent and those
 * cells are known; an unlogged one left every one of its cells unknown.
 */

interface Observation {
  revision: number;
  frontier: number[];
  tiles: Array<{ id: number; status: string }>;
  known: { gaps: number[]; values: string };
}

type Cut = { kind: "after"; ms: number } | { kind: "headers" } | { kind: "body" };

const CUTS: Cut[] = [
  { kind: "after", ms: 0 },
  { kind: "headers" },
  { kind: "after", ms: 2 },
  { kind: "body" },
  { kind: "after", ms: 5 },
  { kind: "headers" },
  { kind: "after", ms: 10 },
  { kind: "after", ms: 20 },
];

describe("faults: a client disconnecting mid-call", () => {
  const base = inject("baseUrl");

  it("a tools/call cut at any moment is applied wholly or not at all, and the log says which", { timeout: 300_000 }, async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const host = { client: await connectClient(base, { headers: { Authorization: `Bearer ${token}` } }) };
    try {
      const { gameId, field } = await startPlaying(host.client, { kind: "scatter", G: 100 });
      const agent = (await callToolStructured<{ agent: string }>(host.client, "join", { game_id: gameId })).agent;
      const observe = async () => (await callToolStructured<{ observation: Observation }>(host.client, "observe", { game_id: gameId, agent })).observation;

      /** Sends one write as raw HTTP and cuts the connection as `cut` says. True when its answer arrived in full. */
      const cutCall = async (args: Record<string, unknown>, tool: string, cut: Cut): Promise<boolean> => {
        const request = modernRequest("tools/call", { name: tool, arguments: args });
        const abort = new AbortController();
        const headers = { ...request.headers, Authorization: `Bearer ${token}` };
        try {
          if (cut.kind === "body") {
            // Half the body, then the client vanishes: the server never sees a whole request.
            const bytes = new TextEncoder().encode(request.body);
            const body = new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(bytes.slice(0, bytes.length >> 1));
                setTimeout(() => abort.abort(), 50);
              },
            });
            await fetch(`${base}/mcp`, { method: "POST", headers, body, signal: abort.signal, duplex: "half" } as RequestInit);
            return true;
          }
          const pending = fetch(`${base}/mcp`, { method: "POST", headers, body: request.body, signal: abort.signal });
          if (cut.kind === "after") setTimeout(() => abort.abort(), cut.ms);
          const res = await pending;
          if (cut.kind === "headers") abort.abort();
          await messagesOf(res);
          return true;
        } catch {
          return false;
        }
      };

      const outcomes = { applied: 0, absent: 0, appliedUnanswered: 0 };
      let seen: LoggedEvent[] = [];
      for (let round = 0; round < 40; round++) {
        const cut = CUTS[round % CUTS.length];
        const o = await observe();
        if (o.frontier.length === 0) break;
        const status = new Map(o.tiles.map((t) => [t.id, t.status]));
        const hidden = o.frontier.find((t) => status.get(t) === "hidden");
        const known = knownCells(o.known);
        const intent = `cut ${round} ${cut.kind}`;
        let cells: Array<[number, number]> = [];
        let answered: boolean;
        if (hidden !== undefined && round % 4 === 3) {
          answered = await cutCall({ game_id: gameId, agent, expected_revision: o.revision, tile: hidden, intent }, "reveal", cut);
        } else {
          const open = o.frontier.filter((t) => status.get(t) !== "hidden").flatMap((t) => field.tiles[t].cellIds.filter((c) => !known.has(c)));
          if (open.length === 0) {
            if (hidden === undefined) break;
            await callToolStructured(host.client, "reveal", { game_id: gameId, agent, expected_revision: o.revision, tile: hidden, intent: `open ${round}` });
            seen = (await readLog(base, gameId)).events;
            continue;
          }
          cells = [...new Set(open)].slice(0, 512).map((c) => [c, field.solution[c]]);
          answered = await cutCall({ game_id: gameId, agent, expected_revision: o.revision, cells, intent }, "commit", cut);
        }
        // Let the server finish whatever it was doing, then read what the log says.
        await new Promise((r) => setTimeout(r, 100));
        const log = await readLog(base, gameId);
        const fresh = log.events.slice(seen.length);
        seen = log.events;
        const mine = fresh.filter((e) => e.intent === intent);
        expect(mine.length, intent).toBeLessThanOrEqual(1);
        const after = await observe();
        const nowKnown = knownCells(after.known);
        const solvedCells = new Set(after.tiles.filter((t) => t.status === "solved").flatMap((t) => field.tiles[t.id].cellIds));
        const isKnown = (c: number) => nowKnown.has(c) || solvedCells.has(c);
        if (mine.length === 1) {
          outcomes.applied++;
          if (!answered) outcomes.appliedUnanswered++;
          const e = mine[0];
          if (e.type === "commit") {
            const judged = ["accepted", "rejected", "ignored", "unevaluated"].reduce((n, k) => n + ((e[k] as unknown[] | undefined)?.length ?? 0), 0);
            expect(judged, intent).toBe(cells.length);
            for (const [c] of cells) expect(isKnown(c), `${intent}: cell ${c}`).toBe(true);
          } else expect(after.tiles.find((t) => t.id === e.tile)?.status, intent).not.toBe("hidden");
          expect(after.revision).toBe(e.rev + fresh.filter((x) => x.rev > e.rev).length);
        } else {
          outcomes.absent++;
          expect(fresh, `${intent}: nothing else wrote`).toEqual([]);
          for (const [c] of cells) expect(isKnown(c), `${intent}: cell ${c} of an unapplied commit`).toBe(false);
          expect(after.revision).toBe(o.revision);
        }
      }
      // Both outcomes occurred: calls cut before the server read them, and calls applied whose answer was lost.
      expect(outcomes.absent).toBeGreaterThan(0);
      expect(outcomes.appliedUnanswered).toBeGreaterThan(0);
    } finally {
      await host.client.close();
    }
  });
});
