/** Cancelling an audit: the error an aborted signal stands for, and a yield that lets a cancel arrive. */

/** The signal's reason as an error (an AbortError DOMException when none was given). */
export function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The audit was cancelled", "AbortError");
}

/** Whether an error is the cancellation of an audit rather than something it found. */
export function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && (err === signal.reason || (err instanceof Error && err.name === "AbortError"));
}

/** The next task of the event loop: lets messages (a cancel, a worker's result) be handled between steps. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Yields to the event loop when a check has worked for `everyMs` since its last yield, then stops
 * if the audit was cancelled: a long check stays cancellable, and a page's progress keeps flowing.
 */
export class Breather {
  private last = Date.now();
  constructor(
    private readonly signal?: AbortSignal,
    private readonly everyMs = 40,
  ) {}

  async tick(): Promise<void> {
    if (Date.now() - this.last >= this.everyMs) {
      await nextTask();
      this.last = Date.now();
    }
    this.signal?.throwIfAborted();
  }
}
