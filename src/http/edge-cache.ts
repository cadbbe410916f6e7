import { etagMatches } from "../text/etag";
import { cacheControl, clientAcceptsGzip, JSON_TYPE } from "./public-json";

/**
 * Public reads through the edge cache (SPEC §13.1, docs/scale.md "Public reads"): a crowd of
 * spectators reading the same answer costs the field's object one read.
 *
 * An answer is stored in the location's cache (`caches.default`) under its URL with its ETag,
 * which names the revision it was read at. A page of events that stops before the head and an
 * archive can never change: they are kept for good. An answer at the head (snapshot, manifest,
 * tiles, hashes, the last page of events, leaderboard, analysis) is kept for `MOSAIC_EDGE_CACHE_S`
 * seconds (1 in production): every reader within that second gets the same revision, then the
 * next reader reads the object again, so the object serves at most one read per second per
 * answer and location however many read, and concurrent misses in one isolate share one read.
 * With 0 (the local default) answers at the head are never kept: a read sees every write that
 * was answered before it, as tests and development expect. Readers' own `If-None-Match` is
 * answered 304 from the cache. The Cache API does nothing on `*.workers.dev` (docs/deploy.md):
 * there every read reaches the object, as before.
 */

/** The head's time in the cache from the `MOSAIC_EDGE_CACHE_S` variable (seconds, 0 = not kept, at most 60). */
export function headTtl(value: string | undefined): number {
  const n = Number(value ?? "0");
  return Number.isInteger(n) && n > 0 ? Math.min(n, 60) : 0;
}
/** The header saying where an answer came from: `hit` (the cache) or `miss` (the object). */
export const CACHE_HEADER = "X-Mosaic-Cache";

/** A read as its producer answers it: what the field's object (or R2) gave. */
export interface ReadAnswer {
  status: number;
  body: string;
  etag?: string;
  /** The answer can never change (a complete page of events). */
  immutable?: boolean;
  retryAfter?: number;
}

/** Reads in flight per cache key in this isolate: concurrent misses wait for the same one. */
const inFlight = new Map<string, Promise<ReadAnswer>>();

/**
 * The answer to `request` from the cache, or from `produce` (asked without the reader's
 * If-None-Match when answers at the head are kept, so the whole answer can be stored). Only 200 answers with an ETag are stored;
 * refusals (a generating field's 503, a 404) always come from the producer.
 */
export async function cachedRead(request: Request, options: CacheOptions, produce: (ifNoneMatch: string | null) => Promise<ReadAnswer>): Promise<Response> {
  const { waitUntil, gzip, headTtlS } = options;
  const key = cacheKey(request);
  const cache = edgeCache();
  const stored = cache ? await cache.match(key) : undefined;
  if (stored) {
    const etag = stored.headers.get("ETag") ?? undefined;
    const immutable = (stored.headers.get("Cache-Control") ?? "").includes("immutable");
    return toReader(request, { status: 200, body: await stored.text(), etag, immutable }, "hit", gzip);
  }
  // Sharing a read already in flight is only right where a reader may get the last second's answer.
  let pending = headTtlS > 0 ? inFlight.get(key.url) : undefined;
  if (!pending) {
    // Without a head cache the reader's own revalidation goes to the producer, which answers 304
    // without building the body; with one, the whole answer is wanted, to be stored.
    pending = produce(headTtlS > 0 ? null : request.headers.get("If-None-Match"));
    if (headTtlS > 0) {
      inFlight.set(key.url, pending);
      void pending.finally(() => inFlight.delete(key.url)).catch(() => undefined);
    }
  }
  const answer = await pending;
  if (cache && answer.status === 200 && answer.etag && (answer.immutable || headTtlS > 0)) {
    const put = cache.put(key, storedResponse(answer, headTtlS)).catch((err: unknown) => console.error("edge cache put failed", err));
    if (waitUntil) waitUntil(put);
    else await put;
  }
  return toReader(request, answer, "miss", gzip);
}

export interface CacheOptions {
  /** The request's `ctx.waitUntil`, so storing happens after the answer leaves (null: store first). */
  waitUntil: ((p: Promise<unknown>) => void) | null;
  /** Compress bodies over 1 KB for readers that accept gzip (the spectator's large documents). */
  gzip: boolean;
  /** Seconds an answer at the head is kept (`headTtl(env.MOSAIC_EDGE_CACHE_S)`); 0: only answers that never change. */
  headTtlS: number;
}

/** `ctx.waitUntil` of a Hono context, or null when the request came without one (Hono throws then). */
export function waitUntilOf(c: { readonly executionCtx: { waitUntil(promise: Promise<unknown>): void } }): ((p: Promise<unknown>) => void) | null {
  try {
    const ec = c.executionCtx;
    return (p) => ec.waitUntil(p);
  } catch {
    return null;
  }
}

/** The location's cache, or null where the runtime has none. */
function edgeCache(): Cache | null {
  // The DOM's CacheStorage type (in the project's lib) hides the Workers runtime's `default`.
  return typeof caches === "undefined" ? null : (caches as unknown as { default: Cache }).default;
}

/** The cache entry's key: the URL with its query sorted (`?a=1&b=2` and `?b=2&a=1` are one answer), GET. */
function cacheKey(request: Request): Request {
  const url = new URL(request.url);
  url.searchParams.sort();
  url.hash = "";
  return new Request(url.toString(), { method: "GET" });
}

/** What the cache keeps: the plain JSON with its ETag and how long it may be served. */
function storedResponse(answer: ReadAnswer, headTtlS: number): Response {
  const headers = new Headers({ "Content-Type": JSON_TYPE, "Cache-Control": answer.immutable ? cacheControl(true) : `public, max-age=${headTtlS}` });
  if (answer.etag) headers.set("ETag", answer.etag);
  return new Response(answer.body, { status: 200, headers });
}

/** The reader's answer: 304 when its If-None-Match holds the ETag, gzip when it accepts it. */
function toReader(request: Request, answer: ReadAnswer, source: "hit" | "miss", gzip: boolean): Response {
  const headers = new Headers({ "Content-Type": JSON_TYPE, [CACHE_HEADER]: source });
  if (gzip) headers.set("Vary", "Accept-Encoding");
  headers.set("Cache-Control", answer.status >= 400 || !answer.etag ? "no-store" : cacheControl(answer.immutable === true));
  if (answer.etag) headers.set("ETag", answer.etag);
  if (answer.retryAfter !== undefined) headers.set("Retry-After", String(answer.retryAfter));
  if (answer.etag && answer.status === 200 && etagMatches(request.headers.get("If-None-Match"), answer.etag)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  if (answer.status === 304) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  // The runtime compresses the body itself when Content-Encoding is set.
  if (gzip && answer.body.length > 1024 && clientAcceptsGzip(request)) headers.set("Content-Encoding", "gzip");
  return new Response(answer.body, { status: answer.status, headers });
}
