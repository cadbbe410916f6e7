import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** Headers the live route sets when it hands a spectator's upgrade to a relay. */
export const RELAY_GAME_HEADER = "X-Mosaic-Game";
export const RELAY_NAME_HEADER = "X-Mosaic-Relay";

/**
 * A relay of one field's live feed (docs/scale.md "The live feed"): it holds spectator sockets
 * with the hibernation API and sends on each batch the field delivers once through its hub (one
 * relay of the field that holds no socket, see `fanOut`), so the field's work per event is one
 * call, however many spectators there are.
 *
 * The messages are the field's own (`hello`, `events` with `log_head`, `resync`), byte for byte.
 * A new socket gets its hello and catch-up from the field (`relayJoin`), which also subscribes
 * the relay. The relay stores the last revision it sent on (`rev`), so after an eviction or a
 * delivery lost in a reset it sees the gap in the next batch and reads the missing events back
 * from the field before sending the batch: nothing is missed. Sockets are at `rev` or ahead of
 * it (a new one was caught up to the head), and a client skips events it already has.
 */
export class RelayObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Pings are answered by the runtime without waking the relay.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** The upgrade of `GET /api/games/:id/live?from=REV`, handed over by the live route. */
  override async fetch(request: Request): Promise<Response> {
    const gameId = request.headers.get(RELAY_GAME_HEADER);
    const name = request.headers.get(RELAY_NAME_HEADER);
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !gameId || !name) {
      return Response.json({ error: { code: "bad_input", message: "the live feed is a WebSocket: send Upgrade: websocket" } }, { status: 426 });
    }
    const fromParam = new URL(request.url).searchParams.get("from");
    const from = fromParam === null || fromParam === "" ? -1 : Number(fromParam);
    if (!Number.isSafeInteger(from) || (fromParam !== null && fromParam !== "" && from < 0)) {
      return Response.json({ error: { code: "bad_input", message: "from must be a revision: a non-negative integer" } }, { status: 400 });
    }
    const opening = await this.env.FIELDS.getByName(gameId).relayJoin(name, from);
    if (!opening.ok) {
      const headers = new Headers({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      if (opening.retryAfter !== undefined) headers.set("retry-after", String(opening.retryAfter));
      return new Response(opening.body, { status: opening.status, headers });
    }
    this.ctx.storage.kv.put("game", gameId);
    this.ctx.storage.kv.put("name", name);
    // The first socket of an empty relay starts its position at the head the field answered.
    if (this.ctx.getWebSockets().length === 0) this.ctx.storage.kv.put("rev", opening.head);
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    for (const text of opening.messages) server.send(text);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * As the field's hub (relay-subscribers.ts): passes a batch on to each of the field's `relays`
   * and answers, once all have taken it, how many sockets each holds (a relay that failed is left
   * out: it catches up at its next batch). The hub keeps nothing, so a reset loses nothing.
   */
  async fanOut(gameId: string, relays: string[], messages: string[], first: number, last: number): Promise<{ open: Array<{ relay: string; open: number }> }> {
    const answers = await Promise.allSettled(relays.map((name) => this.env.RELAYS.getByName(name).deliver(gameId, messages, first, last)));
    const open: Array<{ relay: string; open: number }> = [];
    answers.forEach((answer, i) => {
      if (answer.status === "fulfilled") open.push({ relay: relays[i], open: answer.value.open });
      else console.error(`live relay ${relays[i]}: delivery of ${first}..${last} failed; it catches up at its next batch`, answer.reason);
    });
    return { open };
  }

  /** A batch from the field: events `first`..`last` as messages. Answers how many sockets are open. */
  async deliver(gameId: string, messages: string[], first: number, last: number): Promise<{ open: number }> {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return { open: 0 };
    const rev = this.ctx.storage.kv.get<number>("rev");
    // A batch this relay already sent on (a late delivery after a catch-up): nothing to send.
    if (rev !== undefined && last <= rev) return { open: sockets.length };
    let out = messages;
    let upTo = last;
    if (rev !== undefined && first > rev + 1) {
      // A batch went missing (this relay was reset mid-delivery): read the gap back first.
      const caught = await this.env.FIELDS.getByName(gameId).relayCatchUp(rev);
      out = [...caught.messages, ...messages];
      upTo = Math.max(last, caught.head);
    }
    for (const text of out) {
      for (const ws of sockets) {
        try {
          ws.send(text);
        } catch {
          // A socket that is closing; its close handler tidies up.
        }
      }
    }
    if (rev === undefined || upTo > rev) this.ctx.storage.kv.put("rev", upTo);
    return { open: sockets.length };
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // Pings are answered by the auto-response; anything else from a spectator is ignored.
    if (message === "ping") ws.send("pong");
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
    await this.leaveWhenEmpty(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.leaveWhenEmpty(ws);
  }

  /** The last socket gone: the field stops delivering here. */
  private async leaveWhenEmpty(closing: WebSocket): Promise<void> {
    if (this.ctx.getWebSockets().some((ws) => ws !== closing && ws.readyState === WebSocket.OPEN)) return;
    const gameId = this.ctx.storage.kv.get<string>("game");
    const name = this.ctx.storage.kv.get<string>("name");
    if (gameId && name) await this.env.FIELDS.getByName(gameId).relayLeave(name);
  }
}
