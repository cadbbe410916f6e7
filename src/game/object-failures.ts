/**
 * What a failed call to a Durable Object says, from the properties Cloudflare documents on its
 * errors: `overloaded` (never retry: it would deepen the overload), `retryable` (transient),
 * `durableObjectReset` (the object was reset under the call), `remote` (thrown by our own code
 * in the object). A read is idempotent and may be tried again; a write never is here: its outcome
 * is unknown (it may be stored and only its answer lost), so the agent must observe it.
 */
export interface ObjectFailure {
  overloaded: boolean;
  retryable: boolean;
  reset: boolean;
  remote: boolean;
  message: string;
}

export function objectFailure(err: unknown): ObjectFailure {
  const e = (typeof err === "object" && err !== null ? err : {}) as Record<string, unknown>;
  return {
    overloaded: e.overloaded === true,
    retryable: e.retryable === true,
    reset: e.durableObjectReset === true,
    remote: e.remote === true,
    message: err instanceof Error ? err.message : String(err),
  };
}

/** Seconds a caller should wait before trying again: longer for an overloaded object. */
export function retryAfterSeconds(f: ObjectFailure): number {
  return f.overloaded ? 5 : 1;
}

/** Was the failure the platform's (reset, overload, transient) rather than an error of our code? */
export function isPlatformFailure(f: ObjectFailure): boolean {
  return f.overloaded || f.retryable || f.reset;
}

/** Attempts of a read in all (the first and two retries) and the first pause between them. */
export const READ_ATTEMPTS = 3;
const FIRST_PAUSE_MS = 25;

/**
 * Runs a read, trying again after a failure that is not an overload, with exponential backoff
 * (25 ms, then 50 ms). `run` must reach the object through a fresh stub on every attempt: a stub
 * that saw its object reset stays broken. The last failure is rethrown.
 */
export async function retryRead<T>(run: () => Promise<T>, attempts = READ_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= attempts || objectFailure(err).overloaded) throw err;
      await new Promise((resolve) => setTimeout(resolve, FIRST_PAUSE_MS * 2 ** (attempt - 1)));
    }
  }
}

/** A request's id for the logs and the `X-Request-Id` header: Cloudflare's ray id when there is one. */
export function requestIdOf(request: Request): string {
  return request.headers.get("cf-ray")?.slice(0, 64) ?? crypto.randomUUID();
}
