import type { ChainedEvent } from "../referee/types";
import type { LiveHost } from "./live-host";
import { packTiles, type LiveMessage, type LogHead, type PublicEvent, type SpectatorModel, type TileGeometry } from "../spectator";
import type { LiveStore } from "./live-store";
import { RelaySubscribers } from "./relay-subscribers";
import { spectatorGate } from "./spectator-gate";
import type { SpectatorState } from "./spectator-state";

/** Tag of spectator sockets (`ctx.getWebSockets(SPECTATOR_TAG)`). */
export const SPECTATOR_TAG = "spectator";
/**
 * New events are broadcast in one message per batch, at most every BATCH_MS. Every flush costs a
 * send per socket on the object that also judges the writes (measured through wrangler dev: ~80 µs
 * of the object's CPU per send, the same order as judging a commit for each 200 sockets), so with
 * many sockets the window widens to keep the sends near SENDS_PER_MS per millisecond, up to
 * MAX_BATCH_MS: 100 ms up to 100 spectators, 500 ms at 500, 1 s from 1,000.
 */
export const BATCH_MS = 100;
export const MAX_BATCH_MS = 1000;
export const SENDS_PER_MS = 1;
/** A message carries at most about this many bytes of events; a longer batch is split. */
const MESSAGE_BYTES = 512 * 1024;
/** A spectator further behind than this gets a resync (a snapshot is cheaper than the log). */
export const MAX_CATCH_UP_BYTES = 8 << 20;

interface Pending {
  rev: number;
  text: string;
  /** Tiles the event made visible (null: unknown, work them out from the model at the head). */
  tiles: number[] | null;
}

/** A relay's spectator joining: what to send it, or the refusal to answer the upgrade with. */
export type RelayOpening =
  | { ok: true; head: number; messages: string[] }
  | { ok: false; status: number; body: string; retryAfter?: number };

interface Attachment {
  from: number;
  connectedAt: number;
}

/**
 * The live feed of one field (docs/spectator.md): spectators' WebSockets, accepted with the
 * hibernation API so idle sockets cost nothing, and fed the chained events as they are committed,
 * batched every ~100 ms (wider with hundreds of sockets, see batchWindow), each batch with the
 * log head and the geometry of the tiles it makes visible (under fog only reached tiles are ever
 * described).
 *
 * Every socket is at the feed's broadcast position `sent_rev` (stored, so it survives
 * hibernation and eviction) or ahead of it: a new socket is caught up to the head from the stored
 * log when it connects, and every batch holds all events from `sent_rev` to the head (read back
 * from storage if a timer was lost). A client skips events it already has.
 */
export class LiveFeed {
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sentRev: number | null = null;
  /**
   * How many spectator sockets are open, or null when not known (after a wake-up or a close).
   * `getWebSockets` builds an array of every socket: asking it on each commit cost a commit as
   * much as judging it with 500 spectators, and made 500 connections quadratic.
   */
  private socketCount: number | null = null;

  private readonly relays: RelaySubscribers;

  constructor(
    private readonly f: LiveHost,
    private readonly state: SpectatorState,
    private readonly store: LiveStore,
  ) {
    this.relays = new RelaySubscribers(f, store);
    // Pings are answered by the runtime without waking the object.
    f.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  private sockets(): WebSocket[] {
    const sockets = this.f.ctx.getWebSockets(SPECTATOR_TAG);
    this.socketCount = sockets.length;
    return sockets;
  }

  /** Open sockets; counted once, then kept up to date by accept (a close forgets the count). */
  private openSockets(): number {
    return this.socketCount ?? this.sockets().length;
  }

  /** `GET /api/games/:id/live?from=REV`: upgrade to a spectator socket (the route checked the id). */
  accept(request: Request): Response {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return json(426, { error: { code: "bad_input", message: "the live feed is a WebSocket: send Upgrade: websocket" } });
    }
    const gate = spectatorGate(this.f);
    if (gate) {
      const headers = new Headers({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      if (gate.retryAfter !== undefined) headers.set("retry-after", String(gate.retryAfter));
      return new Response(gate.body, { status: gate.status, headers });
    }
    // The gate let through a loaded field, whose model is always there.
    const model = this.state.current();
    if (!model) return json(409, { error: { code: "failed", message: this.f.loadError ?? "the field could not be loaded" } });
    const fromParam = new URL(request.url).searchParams.get("from");
    const from = fromParam === null || fromParam === "" ? model.revision : Number(fromParam);
    if (!Number.isSafeInteger(from) || from < 0) return json(400, { error: { code: "bad_input", message: "from must be a revision: a non-negative integer" } });

    // A socket that connects while none is open starts the broadcast position at the head.
    const open = this.openSockets();
    if (open === 0 && this.relays.count() === 0) this.setSentRev(model.revision);
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.f.ctx.acceptWebSocket(server, [SPECTATOR_TAG]);
    this.socketCount = open + 1;
    server.serializeAttachment({ from, connectedAt: Date.now() } satisfies Attachment);
    for (const text of this.opening(model, from)) server.send(text);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * A relay's spectator connects from `from` (relay-object.ts): the relay is subscribed to the
   * batches and gets the socket's hello and catch-up to send, or the refusal to answer instead.
   */
  relayJoin(relay: string, from: number): RelayOpening {
    const gate = spectatorGate(this.f);
    if (gate) return { ok: false, status: gate.status, body: gate.body, retryAfter: gate.retryAfter };
    const model = this.state.current();
    if (!model) return { ok: false, status: 409, body: JSON.stringify({ error: { code: "failed", message: this.f.loadError ?? "the field could not be loaded" } }) };
    const at = from < 0 ? model.revision : from;
    if (this.openSockets() === 0 && this.relays.count() === 0) this.setSentRev(model.revision);
    this.relays.add(relay);
    return { ok: true, head: model.revision, messages: this.opening(model, at) };
  }

  /** The events after `from` to the head, for a relay that missed a batch (or a resync). */
  relayCatchUp(from: number): { head: number; messages: string[] } {
    const model = this.state.current();
    if (!model) return { head: from, messages: [] };
    return { head: model.revision, messages: this.catchUp(model, from) };
  }

  /** A relay whose last socket closed. */
  relayLeave(relay: string): void {
    this.relays.remove(relay);
  }

  /** What a new socket is sent first: the hello, then the catch-up from `from` (or a resync). */
  private opening(model: SpectatorModel, from: number): string[] {
    const hello = JSON.stringify({ type: "hello", game_id: model.gameId, from, log_head: model.head, status: model.status, fog: model.fog } satisfies LiveMessage);
    return [hello, ...this.catchUp(model, from)];
  }

  /** The stored events after `from` up to the head as messages, or a resync when that cannot be done. */
  private catchUp(model: SpectatorModel, from: number): string[] {
    if (from > model.revision) {
      return [JSON.stringify({ type: "resync", reason: `revision ${from} is ahead of the field (head ${model.revision})`, log_head: model.head } satisfies LiveMessage)];
    }
    const batch: Pending[] = [];
    let bytes = 0;
    let after = from;
    while (after < model.revision) {
      const page = this.f.store.events(after, 1000);
      if (page.length === 0) break;
      for (const e of page) {
        const text = JSON.stringify(e);
        bytes += text.length;
        batch.push({ rev: Number(e.rev), text, tiles: null });
      }
      if (bytes > MAX_CATCH_UP_BYTES) {
        return [JSON.stringify({ type: "resync", reason: `more than ${MAX_CATCH_UP_BYTES >> 20} MB of events behind: load a snapshot`, log_head: model.head } satisfies LiveMessage)];
      }
      after = batch[batch.length - 1].rev;
    }
    return this.messages(model, batch);
  }

  /** A committed event: queue it for the next batch (nothing to do without spectators). */
  onCommitted(event: ChainedEvent, newlyVisible: number[] | null): void {
    const sockets = this.openSockets() + this.relays.count();
    if (sockets === 0) {
      // Nobody to tell; the next socket starts the broadcast position afresh.
      this.pending = [];
      return;
    }
    this.pending.push({ rev: event.rev, text: JSON.stringify(event), tiles: newlyVisible });
    // The window follows the busiest sender: this object's own sockets, or the fullest relay's.
    this.timer ??= setTimeout(() => this.flush(), batchWindow(Math.max(this.openSockets(), this.relays.largest())));
  }

  /** Broadcasts every event from the broadcast position to the head, in order. */
  flush(): void {
    this.timer = null;
    const sockets = this.sockets();
    const model = this.state.current();
    if (!model) return;
    if (sockets.length === 0 && this.relays.count() === 0) {
      this.pending = [];
      return;
    }
    const sent = this.getSentRev(model.revision);
    let batch = this.pending.filter((p) => p.rev > sent);
    if (batch.length === 0 ? sent < model.revision : batch[0].rev !== sent + 1 || batch[batch.length - 1].rev !== model.revision) {
      batch = this.fromStore(sent, model.revision);
    }
    this.pending = [];
    if (batch.length === 0) return;
    const texts = this.messages(model, batch);
    for (const text of texts) {
      for (const ws of sockets) {
        try {
          ws.send(text);
        } catch {
          // A socket that is closing; its close handler tidies up.
        }
      }
    }
    // Once per relay, however many sockets each holds.
    if (this.relays.count() > 0) this.relays.deliver(model.gameId, texts, batch[0].rev, batch[batch.length - 1].rev);
    this.setSentRev(batch[batch.length - 1].rev);
  }

  private fromStore(after: number, head: number): Pending[] {
    const out: Pending[] = [];
    while (after < head) {
      const page = this.f.store.events(after, 1000);
      if (page.length === 0) break;
      for (const e of page) out.push({ rev: Number(e.rev), text: JSON.stringify(e), tiles: null });
      after = out[out.length - 1].rev;
    }
    return out;
  }

  /** The batch as `events` messages of at most ~512 KB, each with the geometry its events reveal. */
  private messages(model: SpectatorModel, batch: Pending[]): string[] {
    const out: string[] = [];
    const head = JSON.stringify(model.head satisfies LogHead);
    let texts: string[] = [];
    let tiles = new Set<number>();
    let bytes = 0;
    const close = (): void => {
      if (texts.length === 0) return;
      const geometry = [...tiles].sort((a, b) => a - b).map((t) => model.tile(t)).filter((g): g is TileGeometry => g !== undefined);
      const tilesPart = geometry.length > 0 ? `,"tiles":${JSON.stringify(packTiles(geometry))}` : "";
      out.push(`{"type":"events","events":[${texts.join(",")}]${tilesPart},"log_head":${head}}`);
      texts = [];
      tiles = new Set();
      bytes = 0;
    };
    for (const p of batch) {
      if (bytes > 0 && bytes + p.text.length > MESSAGE_BYTES) close();
      texts.push(p.text);
      bytes += p.text.length;
      const visible = p.tiles ?? model.candidateTiles(JSON.parse(p.text) as PublicEvent);
      for (const t of visible) if (model.visible(t)) tiles.add(t);
    }
    close();
    return out;
  }

  message(ws: WebSocket, data: string | ArrayBuffer): void {
    // Pings are answered by the auto-response; anything else from a spectator is ignored.
    if (data === "ping") ws.send("pong");
  }

  close(ws: WebSocket, code: number, reason: string): void {
    // Counted afresh when next needed (the closing socket may still be listed until it is gone).
    this.socketCount = null;
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  private getSentRev(head: number): number {
    this.sentRev ??= this.store.getMeta<number>("sent_rev") ?? head;
    return this.sentRev;
  }

  private setSentRev(rev: number): void {
    if (this.sentRev === rev) return;
    this.sentRev = rev;
    this.store.setMeta("sent_rev", rev);
  }
}

/** The batching window for this many spectators (ms). */
export function batchWindow(sockets: number): number {
  return Math.min(MAX_BATCH_MS, Math.max(BATCH_MS, Math.round(sockets / SENDS_PER_MS)));
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}
