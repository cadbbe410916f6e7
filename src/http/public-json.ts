import { createHash } from "node:crypto";
import { etagMatches } from "../text/etag";

/** Shared by the public read routes: JSON text answers with weak ETags and 304s (CORS: `publicCors`). */

export const JSON_TYPE = "application/json; charset=utf-8";

/** Revalidate every time (cheap with If-None-Match), or keep for good when the body can never change. */
export function cacheControl(immutable: boolean): string {
  return immutable ? "public, max-age=31536000, immutable" : "public, no-cache";
}

export function jsonError(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { "Content-Type": JSON_TYPE, "Cache-Control": "no-store" } });
}

/** The 404 of every route under /api/games/:id: the id is no field the registry knows. */
export function noSuchGame(gameId: string): Response {
  return new Response(missingBody(gameId), { status: 404, headers: { "Content-Type": JSON_TYPE, "Cache-Control": "no-store" } });
}

/** The body of that 404. */
export function missingBody(gameId: string): string {
  return JSON.stringify({ error: { code: "missing", message: `no such game: ${JSON.stringify(gameId.slice(0, 80))} (GET /api/games lists them)` } });
}

/** A ready JSON text with its ETag, or 304 when the client's If-None-Match holds it. */
export function jsonAnswer(status: number, body: string, etag: string | undefined, immutable = false): Response {
  const headers: Record<string, string> = { "Cache-Control": status >= 400 ? "no-store" : cacheControl(immutable) };
  if (etag) headers.ETag = etag;
  if (status === 304) return new Response(null, { status, headers });
  headers["Content-Type"] = JSON_TYPE;
  return new Response(body, { status, headers });
}

/** A JSON body whose ETag is its own hash (small lists), answered 304 when the client has it. */
export function hashedJson(request: Request, body: string): Response {
  const etag = `W/"${createHash("sha256").update(body).digest("hex").slice(0, 24)}"`;
  if (etagMatches(request.headers.get("If-None-Match"), etag)) return jsonAnswer(304, "", etag);
  return jsonAnswer(200, body, etag);
}

/**
 * Whether the client itself accepts gzip. Cloudflare (and wrangler dev) replace Accept-Encoding
 * with "br, gzip" before the Worker sees it and keep the client's own value, possibly empty, in
 * `cf.clientAcceptEncoding`; a client that asked for nothing must get plain bytes.
 */
export function clientAcceptsGzip(request: Request): boolean {
  const original = (request.cf as { clientAcceptEncoding?: unknown } | undefined)?.clientAcceptEncoding;
  const header = typeof original === "string" ? original : (request.headers.get("Accept-Encoding") ?? "");
  return header.split(",").some((part) => {
    const [coding, ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "x-gzip" && coding !== "*") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
