import { env } from "cloudflare:workers";
import { createExecutionContext, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { relayHubName } from "../../src/live/relay-subscribers";
import type { Referee } from "../../src/referee";
import { applyLiveMessage, SpectatorModel, type LiveMessage, type SpectatorSnapshot } from "../../src/spectator";
import { createPlaying, ScriptedPlayers, type RawStub } from "./game-helpers";

// The live feed through relays (src/live/relay-object.ts, docs/scale.md): spectators spread over
// a field's relays, each socket hearing every event once and in order; relays evicted mid-stream;
// a batch lost on its way to a relay read back; the field holding no socket and one subscription
// per relay; an emptied relay unsubscribed.

const BASE = "http://mosaic.test";

async function get(path: string, relays: string, init: RequestInit = {}): Promise<Response> {
  return createApp().fetch(new Request(BASE + path, init), { ...env, MOSAIC_LIVE_RELAYS: relays }, createExecutionContext());
}

class Spectator {
  model!: SpectatorModel;
  ws: WebSocket | null = null;
  readonly received: number[] = [];
  readonly resyncs: string[] = [];
  /** Every events message carried the log head. */
  headsOk = true;

  constructor(readonly gameId: string, readonly relays: string) {}

  async start(): Promise<void> {
    const snap = await get(`/api/games/${this.gameId}/snapshot`, this.relays);
    expect(snap.status).toBe(200);
    this.model = SpectatorModel.fromSnapshot((await snap.json()) as SpectatorSnapshot);
    await this.connect(this.model.revision);
  }

  async connect(from: number): Promise<void> {
    const r = await get(`/api/games/${this.gameId}/live?from=${from}`, this.relays, { headers: { Upgrade: "websocket" } });
    expect(r.status).toBe(101);
    const ws = r.webSocket!;
    ws.accept();
    ws.addEventListener("message", (m) => {
      const message = JSON.parse(String(m.data)) as LiveMessage;
      if (message.type === "events") {
        if (!message.log_head || typeof message.log_head.rev !== "number") this.headsOk = false;
        for (const e of message.events) if (e.rev > this.model.revision) this.received.push(e.rev);
      }
      const result = applyLiveMessage(this.model, message);
      if (result.resync) this.resyncs.push(result.resync);
    });
    this.ws = ws;
  }

  async until(rev: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.model.revision < rev) {
      if (Date.now() > deadline) throw new Error(`spectator stuck at ${this.model.revision}, waiting for ${rev}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Every revision after `from` up to `to`, each once, in order. */
  expectContiguous(from: number, to: number): void {
    expect(this.resyncs).toEqual([]);
    expect(this.headsOk).toBe(true);
    expect(this.received).toEqual(Array.from({ length: to - from }, (_, i) => from + i + 1));
  }
}

const headOf = (raw: RawStub): Promise<number> =>
  runInDurableObject(raw, (instance) => (instance as unknown as { context: { referee: Referee } }).context.referee.revision);

/** The relays the field delivers to, and the sockets it holds itself. */
const fieldAudience = (raw: RawStub): Promise<{ relays: string[]; sockets: number }> =>
  runInDurableObject(raw, (instance, state) => {
    const store = (instance as unknown as { live: { store: { getMeta<T>(k: string): T | undefined } } }).live.store;
    return { relays: store.getMeta<string[]>("relays") ?? [], sockets: state.getWebSockets().length };
  });

/** Every relay of the field, and its hub, leaves memory (woken first, so there is something to evict); storage and sockets stay. */
async function evictRelays(raw: RawStub, gameId: string): Promise<void> {
  const names = (await fieldAudience(raw)).relays;
  expect(names.length).toBeGreaterThan(0);
  for (const name of [...names, relayHubName(gameId)]) {
    const relay = env.RELAYS.getByName(name);
    await runInDurableObject(relay, () => undefined);
    await evictDurableObject(relay);
  }
}

async function playingField(seed: string) {
  const playing = await createPlaying({ kind: "scatter", G: 30 }, 30, { seed });
  for (let i = 0; i < 200 && (await get(`/api/games/${playing.gameId}`, "1")).status === 404; i++) await new Promise((r) => setTimeout(r, 25));
  const players = new ScriptedPlayers(playing.stub, playing.field);
  await players.join();
  return { ...playing, players };
}

describe("the live feed through relays", () => {
  it("spreads spectators over the relays; every socket gets every event once, in order, with the log head; the field holds no socket, the hub nothing", async () => {
    const { raw, gameId, players } = await playingField("relays-crowd");
    await players.pass(1);
    const crowd = Array.from({ length: 12 }, () => new Spectator(gameId, "3"));
    for (const s of crowd) await s.start();
    const starts = crowd.map((s) => s.model.revision);
    await players.pass(4);
    const head = await headOf(raw);
    for (const s of crowd) await s.until(head);
    crowd.forEach((s, i) => s.expectContiguous(starts[i], head));
    const audience = await fieldAudience(raw);
    expect(audience.sockets).toBe(0);
    expect(audience.relays.length).toBeGreaterThanOrEqual(1);
    expect(audience.relays.length).toBeLessThanOrEqual(3);
    for (const name of audience.relays) expect(name).toMatch(new RegExp(`^${gameId}#[0-2]$`));
    // The batches went through the hub, which holds no socket and keeps nothing.
    const hub = await runInDurableObject(env.RELAYS.getByName(relayHubName(gameId)), (_, state) => ({
      sockets: state.getWebSockets().length,
      keys: [...state.storage.kv.list()].length,
    }));
    expect(hub).toEqual({ sockets: 0, keys: 0 });
    for (const s of crowd) s.ws?.close(1000, "bye");
  });

  it("keeps every event when relays and their hub are evicted and re-created mid-stream", async () => {
    const { raw, gameId, players } = await playingField("relays-evicted");
    const spectators = Array.from({ length: 4 }, () => new Spectator(gameId, "2"));
    for (const s of spectators) await s.start();
    const starts = spectators.map((s) => s.model.revision);
    await players.pass(2);
    await evictRelays(raw, gameId);
    await players.pass(2);
    await evictRelays(raw, gameId);
    await evictDurableObject(raw);
    await players.pass(2);
    const head = await headOf(raw);
    for (const s of spectators) await s.until(head);
    spectators.forEach((s, i) => s.expectContiguous(starts[i], head));
    for (const s of spectators) s.ws?.close(1000, "bye");
  });

  it("reads back a batch that never reached a relay, before sending the next one on", async () => {
    const { raw, gameId, players } = await playingField("relays-lost-batch");
    const spectator = new Spectator(gameId, "1");
    await spectator.start();
    const start = spectator.model.revision;
    await players.pass(2);
    const mid = await headOf(raw);
    await spectator.until(mid);
    // Deliveries to the relay are lost while play goes on (as in a reset mid-call): the field
    // forgets the relay, then knows it again; the relay's next batch starts past its position.
    const name = `${gameId}#0`;
    const subscribers = (on: boolean) =>
      runInDurableObject(raw, (instance) => {
        const relays = (instance as unknown as { live: { feed: { relays: { add(n: string): void; remove(n: string): void } } } }).live.feed.relays;
        if (on) relays.add(name);
        else relays.remove(name);
      });
    await subscribers(false);
    // A socket held by the field itself keeps its batches (and its broadcast position) moving.
    const direct = (await raw.fetch(new Request(`${BASE}/live`, { headers: { Upgrade: "websocket" } }))).webSocket!;
    direct.accept();
    await players.pass(2);
    const lost = await headOf(raw);
    expect(lost).toBeGreaterThan(mid);
    await new Promise((r) => setTimeout(r, 300));
    expect(spectator.model.revision).toBe(mid); // nothing arrived meanwhile
    await subscribers(true);
    direct.close(1000, "bye");
    await players.pass(2);
    const head = await headOf(raw);
    await spectator.until(head);
    spectator.expectContiguous(start, head);
    spectator.ws?.close(1000, "bye");
  });

  it("catches a socket up from its revision through the relay, and resyncs one ahead of the field", async () => {
    const { raw, gameId, players } = await playingField("relays-catch-up");
    const spectator = new Spectator(gameId, "2");
    await spectator.start();
    const start = spectator.model.revision;
    spectator.ws?.close(1000, "bye");
    // Away while the field moves on: the reconnect from its revision catches up from the log.
    await players.pass(6);
    const head = await headOf(raw);
    expect(head).toBeGreaterThan(start);
    await spectator.connect(start);
    await spectator.until(head);
    spectator.expectContiguous(start, head);
    spectator.ws?.close(1000, "bye");
    const ahead = new Spectator(gameId, "2");
    ahead.model = spectator.model;
    await ahead.connect(head + 7);
    for (let i = 0; i < 100 && ahead.resyncs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ahead.resyncs[0]).toMatch(/ahead of the field/);
    ahead.ws?.close(1000, "bye");
  });

  it("unsubscribes a relay whose last spectator left, and the field stops delivering to it", async () => {
    const { raw, gameId, players } = await playingField("relays-empty");
    const spectator = new Spectator(gameId, "1");
    await spectator.start();
    await players.pass(1);
    expect((await fieldAudience(raw)).relays).toEqual([`${gameId}#0`]);
    spectator.ws?.close(1000, "bye");
    for (let i = 0; i < 100 && (await fieldAudience(raw)).relays.length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await fieldAudience(raw)).relays).toEqual([]);
  });
});
