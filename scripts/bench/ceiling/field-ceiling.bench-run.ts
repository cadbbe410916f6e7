// The ceiling of one field object, in workerd (the vitest plugin runs the Worker's own code and
// storage): 16 writers commit 48 correct cells at a time, through the object's RPC surface as the
// MCP tools call it, as fast as the object answers. Like agents sharing their frontier, a writer
// skips a tile another has taken, so (nearly) every call changes the field; the calls that did
// not (a tile's cells committed by a neighbour's propagation meanwhile) are counted apart.
// Prints one `CEILING {json}` line for scripts/bench/load.ts. Not a test of anything: it measures.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { it } from "vitest";
import { generateField } from "../../../src/engine";
import type { FieldObject, Outcome } from "../../../src/game/field-object";

const G = 320;
const WRITERS = 16;
const CELLS = 48;
const SECONDS = 20;

type Api = Pick<FieldObject, "create" | "join" | "write" | "status">;

function ok(outcome: Outcome): Record<string, unknown> {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.answer;
}

it("one field object: writes per second with 16 writers and 48-cell commits", async () => {
  const gameId = "ceiling";
  const seed = "bench-ceiling";
  const stub = env.FIELDS.getByName(gameId) as unknown as Api;
  ok(await stub.create({ gameId, params: { kind: "scatter", G }, rules: { guess: "accept", depth: 0, fog: false }, G, seed }));
  await runDurableObjectAlarm(env.FIELDS.getByName(gameId));
  while ((await stub.status()).status === "generating") await new Promise((r) => setTimeout(r, 200));
  const field = await generateField({ kind: "scatter", G, seed });

  // When each state-changing write was answered, and what a commit accepted.
  const stamps: Array<{ at: number; commit: boolean; cells: number }> = [];
  const deadline = { at: Number.POSITIVE_INFINITY };
  // Tiles a writer has taken: the others leave them alone (what the reference agents share).
  const taken = new Set<number>();
  const calls = { all: 0, unchanged: 0, refused: 0 };
  const writer = async (w: number) => {
    const machineId = `m-${(0xc0 + w).toString(16).padStart(16, "0")}`;
    const joined = ok(await stub.join({ machineId, session: "1", name: `w${w}`, model: "bench", harness: "bench", harnessSource: "argument", tags: {}, verified: true, issueSecret: false }));
    const agent = String(joined.agent);
    let revision = Number(joined.revision);
    let queue: number[] = [Number(typeof joined.seed_tile === "number" ? joined.seed_tile : (joined.seed_tile as { id: number }).id)];
    const write = async (input: Record<string, unknown>): Promise<Record<string, unknown> | null> => {
      const r = await stub.write({ input: { agent, expectedRevision: revision, intent: "ceiling", ...input } as never, machineId });
      if (performance.now() <= deadline.at) {
        calls.all++;
        if (!r.ok) calls.refused++;
        else if (r.answer.changed === false) calls.unchanged++;
      }
      if (!r.ok) {
        if (typeof r.error.revision === "number") revision = r.error.revision;
        return null;
      }
      const a = r.answer;
      revision = Math.max(revision, Number(a.revision));
      if (a.changed !== false) stamps.push({ at: performance.now(), commit: input.type === "commit", cells: Array.isArray(a.accepted) ? a.accepted.length : 0 });
      return a;
    };
    while (performance.now() < deadline.at) {
      const tile = queue.shift();
      // The first writer out of work ends the measurement: from then on fewer than 16 would write.
      if (tile === undefined) {
        deadline.at = Math.min(deadline.at, performance.now());
        return;
      }
      if (taken.has(tile)) continue;
      taken.add(tile);
      await write({ type: "reveal", tile });
      const givens = new Set(field.tiles[tile].givens);
      const open = field.tiles[tile].cellIds.filter((c) => !givens.has(c));
      let frontier: number[] = [];
      for (let i = 0; i < open.length && performance.now() < deadline.at; i += CELLS) {
        const batch = open.slice(i, i + CELLS).map((c) => [c, field.solution[c]]);
        const a = await write({ type: "commit", cells: batch });
        if (a && Array.isArray(a.frontier)) frontier = a.frontier as number[];
      }
      queue = [...queue, ...frontier.filter((t) => !taken.has(t) && !queue.includes(t))];
    }
  };
  const t0 = performance.now();
  deadline.at = t0 + SECONDS * 1000;
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  // The window: from the first write after the joins to the end of the measurement.
  const play = stamps.filter((s) => s.at <= deadline.at);
  const seconds = (play[play.length - 1].at - play[0].at) / 1000;
  const writes = play.length - 1;
  const commits = play.slice(1).filter((s) => s.commit);
  const cells = commits.reduce((n, s) => n + s.cells, 0);
  console.log(`CEILING ${JSON.stringify({ G, tiles: field.tiles.length, writes, seconds, writesPerS: writes / seconds, commitsPerS: commits.length / seconds, cellsPerS: cells / seconds, calls: calls.all, unchanged: calls.unchanged, refused: calls.refused, callsPerS: calls.all / seconds })}`);
});
