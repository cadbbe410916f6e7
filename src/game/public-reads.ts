import { createHash } from "node:crypto";
import { PUBLIC_RECT_MAX_AREA } from "../referee/limits";
import type { FieldContext } from "./field-context";
import { manifest } from "./field-reads";
import { etagMatches } from "../text/etag";
import { currentStatus, storedStatus } from "./status-gate";

/**
 * The field's public read side (SPEC §9 "Where the day is published", §10): manifest, tile
 * hashes, the tiles of a rectangle and the chained events, as ready JSON text with a weak ETag.
 * Nothing secret is in any of them before the close (the manifest releases the seed and key
 * only once closed); none changes state. A matching `If-None-Match` answers 304 without
 * building the body where the ETag is known first.
 */

export type PublicQuery =
  | { kind: "manifest" }
  | { kind: "hashes" }
  | { kind: "tiles"; rect: [number, number, number, number] }
  | { kind: "events"; from: number; limit: number };

export interface PublicAnswer {
  status: 200 | 304 | 400 | 404 | 409;
  body: string;
  etag?: string;
  /** The body can never change (a full page of events): cache it for good. */
  immutable?: boolean;
}

export const EVENTS_PAGE_MAX = 1_000;

export function publicRead(f: FieldContext, query: PublicQuery, ifNoneMatch: string | null): PublicAnswer {
  const status = currentStatus(f);
  if (status === "missing") return error(404, "missing", "no such game");
  switch (query.kind) {
    case "manifest":
      return manifestAnswer(f, ifNoneMatch);
    case "hashes":
      return hashesAnswer(f, ifNoneMatch);
    case "tiles":
      return tilesAnswer(f, query.rect, ifNoneMatch);
    case "events":
      return eventsAnswer(f, query.from, query.limit, ifNoneMatch);
  }
}

function manifestAnswer(f: FieldContext, ifNoneMatch: string | null): PublicAnswer {
  const m = manifest(f);
  if (!m.ok) return error(404, m.error.code, m.error.message);
  const body = JSON.stringify(m.answer);
  // The manifest also changes without a new revision (generated, growth ended, archive written).
  return withEtag(weakTag("m", createHash("sha256").update(body).digest("hex").slice(0, 24)), ifNoneMatch, () => body);
}

/** Every existing tile's {id, hash}: ids and hashes only (SPEC §9), so fog hides nothing by it. */
function hashesAnswer(f: FieldContext, ifNoneMatch: string | null): PublicAnswer {
  const gameId = f.store.getMeta<string>("game_id")!;
  const count = f.hashes.length;
  return withEtag(weakTag("h", `${count}`), ifNoneMatch, () => {
    if (f.hashesText?.count !== count) {
      const rows = f.hashes.map((hash, id) => `{"id":${id},"hash":${JSON.stringify(hash)}}`);
      f.hashesText = { count, text: rows.join(",") };
    }
    return `{"game_id":${JSON.stringify(gameId)},"tiles_total":${count},"hashes":[${f.hashesText.text}]}`;
  });
}

function tilesAnswer(f: FieldContext, rect: [number, number, number, number], ifNoneMatch: string | null): PublicAnswer {
  const [x, y, w, h] = rect;
  if (![x, y, w, h].every((n) => Number.isSafeInteger(n) && n >= 0) || w < 1 || h < 1) {
    return error(400, "bad_input", "rect must be x,y,w,h: four non-negative integers, w and h at least 1");
  }
  if (storedStatus(f) !== "playing" || !f.referee) {
    return error(409, storedStatus(f) === "generating" ? "generating" : "failed", "the field has no tiles to show yet (status " + currentStatus(f) + ")");
  }
  const referee = f.referee;
  const G = f.field?.G ?? f.store.getMeta<number>("G")!;
  const area = Math.min(w, Math.max(0, G - x)) * Math.min(h, Math.max(0, G - y));
  if (area > PUBLIC_RECT_MAX_AREA) return error(400, "too_large", `rect covers ${area} cells; at most ${PUBLIC_RECT_MAX_AREA} (for example 256×256) per request`);
  return withEtag(weakTag("t", `${f.head.rev}`), ifNoneMatch, () => {
    const view = referee.publicTiles(x, y, w, h);
    const tiles = view.tiles.map((t) => ({ ...t, hash: f.hashes[t.id] ?? "" }));
    return JSON.stringify({
      game_id: f.store.getMeta<string>("game_id"),
      status: currentStatus(f),
      revision: f.head.rev,
      G,
      fog: referee.rules.fog,
      rect: view.rect,
      tiles,
      known: view.known,
    });
  });
}

/** Chained events with `rev >= from`, oldest first, at most `limit` (and about 4 MB). */
function eventsAnswer(f: FieldContext, from: number, limit: number, ifNoneMatch: string | null): PublicAnswer {
  if (!Number.isSafeInteger(from) || from < 1) return error(400, "bad_input", "from must be a revision, 1 or more");
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > EVENTS_PAGE_MAX) return error(400, "bad_input", `limit must be 1..${EVENTS_PAGE_MAX}`);
  const head = f.head;
  const rows = from > head.rev ? [] : f.store.eventTexts(from - 1, limit);
  const last = rows.length > 0 ? rows[rows.length - 1].rev : from - 1;
  // A page that stops before the head (full, or cut at the byte budget) can never change.
  const complete = last < head.rev;
  const tag = complete ? weakTag("e", `${from}-${last}`) : weakTag("r", `${head.rev}`);
  const answer = withEtag(tag, ifNoneMatch, () =>
    `{"game_id":${JSON.stringify(f.store.getMeta<string>("game_id"))},"from":${from},"events":[${rows.map((r) => r.text).join(",")}],` +
    `"log_head":${JSON.stringify(head)},"next":${complete ? last + 1 : "null"}}`,
  );
  return complete ? { ...answer, immutable: true } : answer;
}

function weakTag(kind: string, value: string): string {
  return `W/"${kind}${value}"`;
}

/** 304 when the client holds this tag (If-None-Match may list several, or `*`); else the body. */
function withEtag(etag: string, ifNoneMatch: string | null, body: () => string): PublicAnswer {
  if (etagMatches(ifNoneMatch, etag)) return { status: 304, body: "", etag };
  return { status: 200, body: body(), etag };
}

function error(status: 400 | 404 | 409, code: string, message: string): PublicAnswer {
  return { status, body: JSON.stringify({ error: { code, message } }) };
}
