import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/engine/canonical-json";
import { bytesToHex, chainEventHash, hashKeyCommit, seedCommit, sha256Hex, tileEncoding, tileHash } from "../../../src/engine/commitments";
import { ARCHIVE_FORMAT, archiveHealth, archiveScores, HEADER_KEYS, TILE_KEYS, type ArchiveEvent, type ArchiveTile } from "../../../src/daily/archive/format";
import { archiveTileOf, engineTileOf } from "../../../src/daily/archive/tiles";
import { archiveChunks, archiveText, type ArchiveSource } from "../../../src/daily/archive/writer";
import type { RefereeEvent } from "../../../src/referee/types";
import { chainField } from "../referee/fixtures";
import { commit, joinInput, makeReferee, playOut, retract, reveal, T0, unknownCellsOf } from "../referee/helpers";

const GAME = "day-2031-01-02";
const DAY_SEED = "ab".repeat(32);
const DAY_KEY = new Uint8Array(32).map((_, i) => i * 7 + 1);

/** A little played field (join, reveal, a wrong cell, a retract, play to the end, close), chained. */
async function playedSource(): Promise<ArchiveSource> {
  const field = chainField(4, 5, { givenEvery: 3 });
  const ref = makeReferee(field, {}, undefined, DAY_SEED);
  const raw: RefereeEvent[] = [];
  const log = (e: RefereeEvent | null | undefined): void => {
    if (e) raw.push(e);
  };
  const j = ref.apply(joinInput("m-a"), T0);
  if (!j.ok) throw new Error("join");
  log(j.event);
  const a = j.answer.agent as string;
  const seed = (ref.frontier(a) as number[])[0];
  const rv = reveal(ref, a, seed);
  if (!rv.ok) throw new Error("reveal");
  log(rv.event);
  const cells = unknownCellsOf(ref, field, seed);
  const [c0, c1] = cells;
  const wrong = commit(ref, a, [[c1[0], (1 - c1[1]) as 0 | 1], c0]);
  if (!wrong.ok) throw new Error("commit");
  log(wrong.event);
  const back = retract(ref, a, [c0[0]]);
  if (!back.ok) throw new Error("retract");
  log(back.event);
  // Play out, recording every event.
  const apply = ref.apply.bind(ref);
  ref.apply = (input, at) => {
    const r = apply(input, at);
    if (r.ok) log(r.event);
    return r;
  };
  playOut(ref, field, [a]);
  log(ref.close(T0 + 99));

  const commitHex = await seedCommit(DAY_SEED);
  const events: ArchiveEvent[] = [];
  let prev = commitHex;
  for (const e of raw) {
    const withPrev = { ...e, prev };
    const hash = await chainEventHash(prev, withPrev);
    events.push({ ...withPrev, hash } as ArchiveEvent);
    prev = hash;
  }
  const tiles: ArchiveTile[] = [];
  for (const t of field.tiles) {
    const hash = await tileHash(DAY_KEY, tileEncoding(GAME, t, field.solution, field.G));
    const s = ref.tileStatus(t.id)!;
    tiles.push(archiveTileOf(t, field.solution, field.G, hash, s.status, s.agent));
  }
  return {
    header: {
      format: ARCHIVE_FORMAT,
      game_id: GAME,
      day: "2031-01-02",
      G: field.G,
      params: { kind: "field", chunks: 2, chunk_g: 40, G: 200, grow: true, rules: { guess: "accept", depth: 0, fog: true }, growth: { every_minutes: 0.5, frontier_coverage: 0.6 } },
      rings: 0,
      seed_commit: commitHex,
      hash_key_commit: await hashKeyCommit(DAY_KEY),
      day_seed: DAY_SEED,
      day_key: bytesToHex(DAY_KEY),
    },
    tiles: () => tiles,
    events: () => events,
    log_head: { hash: prev, rev: events.length },
    scores: archiveScores(ref),
    health: archiveHealth(ref),
  };
}

describe("archive writer (mosaic-archive-v1)", () => {
  it("writes one JSON document with SPEC §9's keys in a fixed order, every event as its canonical JSON", async () => {
    const source = await playedSource();
    const text = archiveText(source);
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual([...HEADER_KEYS, "tiles", "events", "log_head", "scores", "health"]);
    expect(doc.format).toBe("mosaic-archive-v1");
    expect(doc.params).toEqual(source.header.params);
    const tiles = doc.tiles as ArchiveTile[];
    expect(tiles).toEqual([...source.tiles()]);
    for (const t of tiles) expect(Object.keys(t)).toEqual([...TILE_KEYS]);
    expect(tiles.every((t) => t.status === "solved" && t.agent === "m-a/1")).toBe(true);
    const events = doc.events as ArchiveEvent[];
    expect(events).toEqual([...source.events()]);
    expect(events.map((e) => e.type)).toContain("retract");
    expect(events.at(-1)?.type).toBe("close");
    // One event per line, exactly the canonical text its hash covers.
    const lines = text.split("\n");
    for (const e of events) {
      expect(lines).toContain(`${canonicalJson(e)},`.replace(/,$/, e.rev === events.length ? "" : ","));
      const { hash, ...rest } = e;
      expect(await sha256Hex(`${e.prev}|${canonicalJson(rest)}`)).toBe(hash);
    }
    expect(doc.log_head).toEqual(source.log_head);
    expect(doc.scores).toEqual(source.scores);
    expect((doc.scores as Array<{ reward: number }>)[0].reward).toBe(tiles.reduce((n, t) => n + t.cells, 0));
    expect(doc.health).toEqual([{ machine: "m-a", state: "warning", rate_bp: 232, committed: 43, wrong: 1, window: 43, wrong_total: 1, died_at: null, died_rev: null }]);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("is deterministic and streams: small pieces concatenate to the same bytes, rows are pulled lazily", async () => {
    const source = await playedSource();
    const whole = archiveText(source);
    expect(archiveText(source)).toBe(whole);
    const pieces = [...archiveChunks(source, { pieceChars: 200 })];
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe(whole);
    // The first piece leaves before the events are even asked for.
    let eventsAsked = false;
    const lazy: ArchiveSource = { ...source, events: () => ((eventsAsked = true), source.events()) };
    const gen = archiveChunks(lazy, { pieceChars: 200 });
    gen.next();
    expect(eventsAsked).toBe(false);
  });

  it("round-trips tiles: an archive row gives back the engine tile and its solution", async () => {
    const field = chainField(4, 3, { givenEvery: 3 });
    const solution = new Uint8Array(field.G * field.G);
    for (const t of field.tiles) {
      const row = archiveTileOf(t, field.solution, field.G, "h", "hidden", null);
      expect(row.cells).toBe(t.cellIds.length);
      expect(engineTileOf(row, field.G, solution)).toEqual(t);
      expect(() => engineTileOf({ ...row, solution: row.solution.slice(1) }, field.G, solution)).toThrow(`tile ${t.id}: solution`);
      expect(() => engineTileOf({ ...row, givens: row.givens.replace(/.$/, "2") }, field.G, solution)).toThrow(`tile ${t.id}: givens`);
    }
    for (const t of field.tiles) for (const c of t.cellIds) expect(solution[c]).toBe(field.solution[c]);
  });

  it("refuses a source that would make a broken archive", async () => {
    const source = await playedSource();
    const tiles = [...source.tiles()];
    const events = [...source.events()];
    const write = (s: Partial<ArchiveSource>): string => archiveText({ ...source, ...s });
    expect(() => write({ tiles: () => [tiles[1], tiles[0], ...tiles.slice(2)] })).toThrow("tile 1 where tile 0 was due");
    expect(() => write({ events: () => [events[0], ...events.slice(2)] })).toThrow("event revision 3 where 2 was due");
    expect(() => write({ events: () => [events[0], { ...events[1], prev: "0".repeat(64) }, ...events.slice(2)] })).toThrow("event 2 does not chain");
    expect(() => write({ events: () => [...events, { ...events.at(-1)!, rev: events.length + 1, prev: events.at(-1)!.hash }] })).toThrow("after the close");
    expect(() => write({ log_head: { hash: events[2].hash, rev: 3 } })).toThrow("log_head");
    expect(() => write({ header: { ...source.header, rings: 1 } })).toThrow("rings is 1 but the log has 0 grow events");
    expect(() => write({ events: () => [{ ...events[0], at: 1.5 }, ...events.slice(1)] })).toThrow("not a safe integer");
  });
});
