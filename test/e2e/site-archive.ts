// A day archive (mosaic-archive-v1) made with the project's own pure parts, as the close writes it:
// a generated field, a day played by three machines through the real referee, the chain from
// seed_commit, real commitments and tile HMACs, and the archive writer. Lets the replay tests
// tamper with a known-good archive.
import { generateField } from "../../src/engine";
import { bytesToHex, hashKeyCommit, seedCommit, tileEncoding, tileGivensString, tileHash, tileSolutionString } from "../../src/engine/commitments";
import { archiveHealth, archiveScores, type ArchiveEvent, type ArchiveTile } from "../../src/daily/archive/format";
import { archiveText } from "../../src/daily/archive/writer";
import { chainEvent } from "../../src/game/chain";
import { Referee } from "../../src/referee/referee";
import type { RefereeEvent, WriteInput } from "../../src/referee/types";

export const HOSTILE_INTENT = `<img src=x onerror="window.__pwned=1">`;

export async function makeArchive(day = "2026-11-30", opts: { fog?: boolean } = {}): Promise<{ text: string; day: string; events: number }> {
  const gameId = `day-${day}`;
  const daySeed = "5e".repeat(32);
  const dayKey = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 255);
  const rules = { guess: "accept" as const, depth: 0 as const, fog: opts.fog ?? false };
  const field = await generateField({ kind: "scatter", G: 60, seed: daySeed });
  const referee = new Referee({ gameId, seed: daySeed, field, rules });
  const commit = await seedCommit(daySeed);
  let prev = commit;
  let at = 1_800_000_000_000;
  const events: ArchiveEvent[] = [];
  const record = (event: RefereeEvent | null): void => {
    if (!event) return;
    const chained = chainEvent(prev, event);
    prev = chained.hash;
    events.push(JSON.parse(JSON.stringify(chained.event)) as ArchiveEvent);
  };
  const write = (input: WriteInput): void => {
    const r = referee.apply(input, (at += 800));
    if (r.ok) record(r.event);
  };
  const agents: string[] = [];
  for (const m of ["m-1111111111111111", "m-2222222222222222", "m-3333333333333333"]) {
    write({ type: "join", machineId: m, session: "1", name: `bot ${m.slice(2, 5)}`, model: "model-a", harness: "harness-b", harnessSource: "argument", tags: { replay: "" }, verified: true });
    agents.push(`${m}/1`);
  }
  for (let round = 0; round < 80; round++) {
    let moved = false;
    for (const agent of agents) {
      const machineId = agent.slice(0, agent.indexOf("/"));
      for (const tile of (referee.frontier(agent) ?? []).slice(0, 2)) {
        if (referee.tileStatus(tile)?.status === "hidden") {
          write({ type: "reveal", machineId, agent, expectedRevision: referee.revision, tile, intent: round === 0 ? `${HOSTILE_INTENT} reveal ${tile}` : `reveal ${tile}` });
        }
        const cells = field.tiles[tile].cellIds.filter((c) => referee.cell(c)?.value === -1).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
        if (!cells.length) continue;
        if (round % 7 === 3) cells[0] = [cells[0][0], (1 - cells[0][1]) as 0 | 1];
        write({ type: "commit", machineId, agent, expectedRevision: referee.revision, cells, intent: `solve ${tile}` });
        moved = true;
      }
    }
    if (!moved) break;
  }
  record(referee.close((at += 1000)));
  const tiles: ArchiveTile[] = [];
  for (const t of field.tiles) {
    const status = referee.tileStatus(t.id)!;
    tiles.push({
      id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, cells: t.cellIds.length, m: t.m,
      solution: tileSolutionString(t, field.solution, field.G), givens: tileGivensString(t, field.G),
      hash: await tileHash(dayKey, tileEncoding(gameId, t, field.solution, field.G)), status: status.status, agent: status.agent,
    });
  }
  const text = archiveText({
    header: { format: "mosaic-archive-v1", game_id: gameId, day, G: field.G, params: { kind: "scatter", G: 60, rules }, rings: 0, seed_commit: commit, hash_key_commit: await hashKeyCommit(dayKey), day_seed: daySeed, day_key: bytesToHex(dayKey) },
    tiles: () => tiles,
    events: () => events,
    log_head: { hash: prev, rev: events.length },
    scores: archiveScores(referee),
    health: archiveHealth(referee),
  });
  return { text, day: gameId, events: events.length };
}
