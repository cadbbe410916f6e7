import type { Env } from "../env";

/** The one history object of the server. */
export function historyOf(env: Env): DurableObjectStub<import("./history-object").HistoryObject> {
  return env.HISTORY.getByName("history");
}

/**
 * Records a closed day in the history (at its close, again on every later close: idempotent). A
 * failure is logged, not thrown: the close and its archive stand, and the cron's sync records the
 * day from R2 later.
 */
export async function recordInHistory(env: Env, gameId: string): Promise<void> {
  try {
    await historyOf(env).recordDay(gameId);
  } catch (err) {
    console.error(`history: ${gameId} not recorded at its close (the cron's sync retries): ${err instanceof Error ? err.message : String(err)}`);
  }
}
