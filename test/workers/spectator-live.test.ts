import { env, exports } from "cloudflare:workers";
import { evictDurableObject, listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Field } from "../../src/engine/types";
import type { Referee } from "../../src/referee";
import {
  applyLiveMessage,
  SpectatorModel,
  type LiveMessage,
  type LeaderboardRow,
  type PublicEvent,
  type SpectatorSnapshot,
} from "../../src/spectator";
import { createPlaying, ScriptedPlayers, type RawStub } from "./game-helpers";

/**
 * The live feed and the spectator routes in workerd: a spectator loads a snapshot, opens the
 * WebSocket and must end with the server's own state while scripted agents play; it reconnects
 * from its revision after a drop; the object hibernates and wakes with its sockets; fog hides
 * unreached tiles; the leaderboard is the referee's; an unknown id creates nothing.
 */

const BASE = "http://mosaic.test";

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(new Request(BASE + path, { headers }));
}

/** Waits until the registry lists the field (it reports right after creation). */
async function whenListed(gameId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await get(`/api/games/${gameId}/snapshot`)).status !== 404) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the field never appeared in the registry");
}

/** A spectator as the site runs one: snapshot, then the live feed applied to the same model. */
class Spectator {
  model!: SpectatorModel;
  ws: WebSocket | null = null;
  readonly messages: LiveMessage[] = [];
  readonly received: PublicEvent[] = [];
  resyncs: string[] = [];

  constructor(readonly gameId: string) {}

  async load(): Promise<void> {
    const r = await get(`/api/games/${this.gameId}/snapshot`);
    expect(r.status).toBe(200);
    this.model = SpectatorModel.fromSnapshot((await r.json()) as SpectatorSnapshot);
  }

  async connect(from: number | null = this.model.revision): Promise<void> {
    const query = from === null ? "" : `?from=${from}`;
    const r = await exports.default.fetch(new Request(`${BASE}/api/games/${this.gameId}/live${query}`, { headers: { Upgrade: "websocket" } }));
    expect(r.status).toBe(101);
    const ws = r.webSocket;
    if (!ws) throw new Error("no WebSocket in the answer");
    ws.accept();
    ws.addEventListener("message", (m) => {
      const message = JSON.parse(String(m.data)) as LiveMessage;
      this.messages.push(message);
      if (message.type === "events") this.received.push(...message.events);
      const result = applyLiveMessage(this.model, message);
      if (result.resync) this.resyncs.push(result.resync);
    });
    this.ws = ws;
  }

  drop(): void {
    this.ws?.close(1000, "bye");
    this.ws = null;
  }

  async until(rev: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.model.revision < rev) {
      if (Date.now() > deadline) throw new Error(`spectator stuck at revision ${this.model.revision}, waiting for ${rev}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

async function refereeOf<T>(raw: RawStub, read: (referee: Referee, field: Field) => T): Promise<T> {
  return runInDurableObject(raw, (instance) => {
    const context = (instance as unknown as { context: { referee: Referee; field: Field } }).context;
    return read(context.referee, context.field);
  });
}

async function serverSnapshot(gameId: string): Promise<SpectatorSnapshot> {
  const r = await get(`/api/games/${gameId}/snapshot`);
  expect(r.status).toBe(200);
  return (await r.json()) as SpectatorSnapshot;
}

describe("spectator routes", () => {
  it("an unknown or malformed id answers 404 or 400 and creates no field object", async () => {
    const before = (await listDurableObjectIds(env.FIELDS)).map((id) => id.toString());
    for (const path of ["snapshot", "leaderboard"]) {
      const r = await get(`/api/games/no-such-field-${path}/${path}`);
      expect(r.status).toBe(404);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("missing");
    }
    const live = await exports.default.fetch(new Request(`${BASE}/api/games/no-such-field-live/live?from=0`, { headers: { Upgrade: "websocket" } }));
    expect(live.status).toBe(404);
    expect((await get("/api/games/bad%20id!/snapshot")).status).toBe(400);
    expect((await get("/api/games/no-such-field-live/live")).status).toBe(426);
    const after = (await listDurableObjectIds(env.FIELDS)).map((id) => id.toString());
    expect(after).toEqual(before);
    for (const name of ["no-such-field-snapshot", "no-such-field-leaderboard", "no-such-field-live"]) {
      expect(after).not.toContain(env.FIELDS.idFromName(name).toString());
    }
  });

  it("a spectator from revision 0 receives every event once, in order, and ends in the server's state; snapshots revalidate by ETag", async () => {
    const { stub, raw, gameId, field } = await createPlaying({ kind: "scatter", G: 30 }, 30);
    await whenListed(gameId);
    const spectator = new Spectator(gameId);
    await spectator.load();
    expect(spectator.model.revision).toBe(0);
    await spectator.connect();
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    await players.playToEnd();
    const head = await refereeOf(raw, (r) => r.revision);
    await spectator.until(head);
    expect(spectator.resyncs).toEqual([]);
    expect(spectator.received.map((e) => e.rev)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    // The very events of the public log, with their chain.
    const logged = await runInDurableObject(raw, (instance) => (instance as unknown as { events(after: number, limit: number): Promise<{ ok: true; answer: { events: unknown[] } }> }).events(0, 1000));
    expect(spectator.received).toEqual(logged.answer.events);
    expect(spectator.messages[0].type).toBe("hello");
    for (const m of spectator.messages) if (m.type === "events") expect(m.log_head.rev).toBeGreaterThanOrEqual(m.events[m.events.length - 1].rev);
    const server = await serverSnapshot(gameId);
    expect(server.status).toBe("solved");
    expect(JSON.parse(JSON.stringify(spectator.model.snapshot("public")))).toEqual(server);

    const first = await get(`/api/games/${gameId}/snapshot`, { "Accept-Encoding": "gzip" });
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^W\/"s\d+-/);
    expect(first.headers.get("Cache-Control")).toContain("no-cache");
    expect((await get(`/api/games/${gameId}/snapshot`, { "If-None-Match": etag ?? "" })).status).toBe(304);

    // The leaderboard is the referee's machines, ranked.
    const board = (await (await get(`/api/games/${gameId}/leaderboard`)).json()) as { revision: number; rows: LeaderboardRow[] };
    expect(board.revision).toBe(head);
    const machines = await refereeOf(raw, (r) => r.machines());
    expect(board.rows.map((r) => r.machine).sort()).toEqual(machines.map((m) => String(m.machine)).sort());
    for (const m of machines) {
      const row = board.rows.find((r) => r.machine === m.machine);
      expect(row && { reward: row.reward, tiles: row.tiles, cells: row.cells, forced: row.forced, guesses: row.guesses, wrong: row.wrong, retractions: row.retractions }).toEqual({
        reward: m.reward,
        tiles: m.solved,
        cells: m.accepted,
        forced: m.forced,
        guesses: m.guesses,
        wrong: m.wrong,
        retractions: m.retractions,
      });
    }
    expect(board.rows.map((r) => r.reward)).toEqual([...board.rows.map((r) => r.reward)].sort((a, b) => b - a));
    expect(board.rows[0].rank).toBe(1);
    spectator.drop();
  });

  it("spectators come and go: one leaves and the other hears every event; after the last leaves, a newcomer catches up from its revision", async () => {
    const { stub, raw, gameId, field } = await createPlaying({ kind: "scatter", G: 30 }, 30, { seed: "live-come-and-go" });
    await whenListed(gameId);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    const stays = new Spectator(gameId);
    const leaves = new Spectator(gameId);
    await stays.load();
    await leaves.load();
    const from = stays.model.revision;
    await stays.connect();
    await leaves.connect();
    await players.pass(1);
    await leaves.until(await refereeOf(raw, (r) => r.revision));
    leaves.drop();
    await players.pass(2);
    let head = await refereeOf(raw, (r) => r.revision);
    await stays.until(head);
    expect([...new Set(stays.received.map((e) => e.rev))]).toEqual(Array.from({ length: head - from }, (_, i) => from + i + 1));
    // Nobody listens while these are committed; a newcomer from an older revision still gets them.
    const newcomer = new Spectator(gameId);
    await newcomer.load();
    const newFrom = newcomer.model.revision;
    stays.drop();
    await players.pass(2);
    head = await refereeOf(raw, (r) => r.revision);
    expect(head).toBeGreaterThan(newFrom);
    await newcomer.connect(newFrom);
    await players.pass(1);
    head = await refereeOf(raw, (r) => r.revision);
    await newcomer.until(head);
    expect(newcomer.resyncs).toEqual([]);
    expect([...new Set(newcomer.received.map((e) => e.rev))]).toEqual(Array.from({ length: head - newFrom }, (_, i) => newFrom + i + 1));
    expect(JSON.parse(JSON.stringify(newcomer.model.snapshot("public")))).toEqual(await serverSnapshot(gameId));
    newcomer.drop();
  });

  it("a dropped socket reconnects from its revision and catches up; hibernation keeps sockets; a revision ahead gets a resync", async () => {
    const { stub, raw, gameId, field } = await createPlaying({ kind: "scatter", G: 30 }, 30, { seed: "live-reconnect" });
    await whenListed(gameId);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.pass(2);
    const spectator = new Spectator(gameId);
    await spectator.load();
    const loadedAt = spectator.model.revision;
    expect(loadedAt).toBeGreaterThan(0);
    await spectator.connect();
    await players.pass(2);
    await spectator.until(await refereeOf(raw, (r) => r.revision));
    spectator.drop();
    const droppedAt = spectator.model.revision;
    await players.join();
    await players.pass(3);
    const head = await refereeOf(raw, (r) => r.revision);
    expect(head).toBeGreaterThan(droppedAt);
    await spectator.connect(droppedAt);
    await spectator.until(head);
    // Hibernation: the object leaves memory, the socket stays and hears the next events.
    await evictDurableObject(raw);
    await players.pass(3);
    const later = await refereeOf(raw, (r) => r.revision);
    await spectator.until(later);
    expect(spectator.resyncs).toEqual([]);
    const revs = [...new Set(spectator.received.map((e) => e.rev))];
    expect(revs).toEqual(Array.from({ length: later - loadedAt }, (_, i) => loadedAt + i + 1));
    const server = await serverSnapshot(gameId);
    expect(JSON.parse(JSON.stringify(spectator.model.snapshot("public")))).toEqual(server);
    spectator.drop();

    const ahead = new Spectator(gameId);
    await ahead.load();
    await ahead.connect(later + 5);
    for (let i = 0; i < 100 && ahead.resyncs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ahead.resyncs[0]).toMatch(/ahead of the field/);
    ahead.drop();
  });

  it("under fog the snapshot and the feed describe reached tiles only", async () => {
    const { stub, raw, gameId, field } = await createPlaying({ kind: "scatter", G: 40 }, 40, { rules: { guess: "accept", depth: 0, fog: true }, seed: "live-fog" });
    await whenListed(gameId);
    const spectator = new Spectator(gameId);
    await spectator.load();
    expect(spectator.model.fog).toBe(true);
    expect(spectator.model.visibleTiles()).toEqual([]);
    await spectator.connect();
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    await players.pass(3);
    const head = await refereeOf(raw, (r) => r.revision);
    await spectator.until(head);
    // Reached: a seed, a revealed or solved tile, or a tile sharing a cell with one (from the oracle's geometry).
    const m = spectator.model;
    const cellsOf = field.tiles.map((t) => new Set(t.cellIds));
    const seeds = new Set(m.agents.map((a) => a.seed));
    const open = field.tiles.filter((t) => m.tileStatus[t.id] !== 0).map((t) => t.id);
    const reached = field.tiles
      .filter((t) => seeds.has(t.id) || m.tileStatus[t.id] !== 0 || open.some((o) => t.cellIds.some((c) => cellsOf[o].has(c))))
      .map((t) => t.id);
    expect(m.visibleTiles()).toEqual(reached);
    expect(reached.length).toBeLessThan(field.tiles.length);
    // No message ever described an unreached tile.
    const described = new Set<number>();
    for (const msg of spectator.messages) if (msg.type === "events" && msg.tiles) {
      let id = 0;
      for (const gap of msg.tiles.ids) described.add((id += gap));
    }
    for (const t of described) expect(reached).toContain(t);
    const server = await serverSnapshot(gameId);
    expect(server.tiles.status.length).toBe(reached.length);
    expect(JSON.parse(JSON.stringify(m.snapshot("public")))).toEqual(server);
    spectator.drop();
  });

  it("a growing field under fog: the ring arrives live, with the geometry of the new tiles it reaches only", async () => {
    const params = { kind: "field" as const, chunks: 2, chunk_g: 40, grow: true, G: 200 };
    const { stub, raw, gameId, field } = await createPlaying(params, 200, { rules: { guess: "accept", depth: 0, fog: true }, grow: { frontier_coverage: 0.1 }, seed: "live-grow" });
    await whenListed(gameId);
    const spectator = new Spectator(gameId);
    await spectator.load();
    await spectator.connect();
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    for (let i = 0; i < 400 && (await refereeOf(raw, (r) => r.grown)) === 0; i++) {
      if ((await players.pass(1)) === 0) await players.join();
      await runDurableObjectAlarm(raw);
    }
    for (let i = 0; i < 600 && (await refereeOf(raw, (r) => r.grown)) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const head = await refereeOf(raw, (r) => r.revision);
    await spectator.until(head);
    const grow = spectator.received.find((e) => e.type === "grow");
    expect(grow).toBeDefined();
    const m = spectator.model;
    expect(m.grown).toBe(1);
    const grownTiles = await refereeOf(raw, (_r, f) => f.tiles.map((t) => ({ id: t.id, cells: t.cellIds })));
    expect(m.tilesTotal).toBe(grownTiles.length);
    // The new tiles it shows are exactly those sharing a cell with a revealed or solved tile.
    const open = new Set<number>();
    for (const t of grownTiles) if (m.tileStatus[t.id] !== 0) for (const c of t.cells) open.add(c);
    const first = grow && grow.type === "grow" ? grow.first_tile : 0;
    const shownNew = m.visibleTiles().filter((t) => t >= first);
    const reachedNew = grownTiles.filter((t) => t.id >= first && t.cells.some((c) => open.has(c))).map((t) => t.id);
    expect(shownNew).toEqual(reachedNew);
    expect(JSON.parse(JSON.stringify(m.snapshot("public")))).toEqual(await serverSnapshot(gameId));
    spectator.drop();
  });
});
