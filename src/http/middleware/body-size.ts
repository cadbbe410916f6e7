import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { INVALID_REQUEST, jsonRpcErrorResponse, PARSE_ERROR } from "../jsonrpc";

/** The largest /mcp body accepted: far above any legal call (a 8192-cell retract is ~60 KB). */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(limit: number): Response {
  return jsonRpcErrorResponse(413, INVALID_REQUEST, `Request body too large: the limit is ${limit} bytes`);
}

/**
 * Reads a POST body under a byte limit, refusing an oversized one with 413 before anything is
 * parsed: at once when Content-Length says so, else as soon as the stream passes the limit.
 * Invalid UTF-8 is a parse error.
 */
export function bodySizeLimit(limit = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const declared = Number(c.req.header("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > limit) return tooLarge(limit);
    const bytes = await readAtMost(c.req.raw.body, limit);
    if (bytes === undefined) return tooLarge(limit);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return jsonRpcErrorResponse(400, PARSE_ERROR, "Parse error: the body is not valid UTF-8");
    }
    c.set("bodyText", text);
    await next();
  };
}

/** The whole stream, or undefined once it exceeds `limit` bytes (the rest is not read). */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.releaseLock(); // stop reading; the rest of the body is never consumed
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
