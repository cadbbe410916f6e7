import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { concatBytes } from "../../text/bytes";

/** How long a whole request body may take to arrive before the request is refused with 408. */
export const BODY_TIMEOUT_MS = 30_000;

export interface BodyLimitOptions {
  /** The largest body accepted, in bytes (counted as they arrive, whatever Content-Length says). */
  maxBytes: number;
  /** The whole body must have arrived within this time (default BODY_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The refusal in the route's own error format: 413 over the limit, 408 too slow, 400 broken off. */
  refuse: (status: 413 | 408 | 400, message: string) => Response;
}

/**
 * The one body guard of every route that reads a body (SPEC §7, §12: every limit enforced at the
 * edge). It refuses before the route sees anything:
 *
 * - 413 at once when `Content-Length` declares more than the limit, without reading a byte;
 * - 413 as soon as the bytes received pass the limit, chunked or not and whatever
 *   `Content-Length` claimed, and nothing more is read;
 * - 408 when the body has not ended within the timeout (a body held open forever);
 * - 400 when the body broke off (the client went away).
 *
 * An accepted body is kept as `bodyBytes`, and the request is rebuilt around those bytes, so the
 * route reads it with `c.req.text()` / `c.req.json()` as usual.
 */
export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler<AppEnv> {
  const timeoutMs = options.timeoutMs ?? BODY_TIMEOUT_MS;
  const tooLarge = () => options.refuse(413, `request body too large: the limit is ${options.maxBytes} bytes`);
  return async (c, next) => {
    const body = c.req.raw.body;
    if (body === null) return next();
    const declared = Number(c.req.header("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > options.maxBytes) return tooLarge();
    const read = await readLimited(body, options.maxBytes, timeoutMs);
    if (read === "too_large") return tooLarge();
    if (read === "timeout") return options.refuse(408, `request body not received within ${Math.round(timeoutMs / 1000)} s`);
    if (read === "broken") return options.refuse(400, "the request body could not be read");
    c.set("bodyBytes", read);
    // The stream is spent: later readers (`c.req.text()`, the MCP SDK) get the bytes read here.
    c.req.raw = new Request(c.req.raw, { body: read });
    await next();
  };
}

const TIMEOUT = Symbol("timeout");

/** The whole body, or why not: it passed `maxBytes` (the rest is never read) or did not end in time. */
async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number, timeoutMs: number): Promise<Uint8Array<ArrayBuffer> | "too_large" | "timeout" | "broken"> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<typeof TIMEOUT>((resolve) => (timer = setTimeout(() => resolve(TIMEOUT), timeoutMs)));
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === TIMEOUT) return stop(reader, "timeout");
      if (next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) return stop(reader, "too_large");
      chunks.push(next.value);
    }
  } catch {
    // The client went away or sent a broken body: nothing usable arrived.
    return stop(reader, "broken");
  } finally {
    clearTimeout(timer);
  }
  return concatBytes(chunks);
}

/** Stop reading: the rest of the body is discarded, never buffered. */
function stop<R>(reader: ReadableStreamDefaultReader<Uint8Array>, result: R): R {
  reader.cancel().catch(() => undefined);
  return result;
}
