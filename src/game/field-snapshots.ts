import type { FieldContext } from "./field-context";
import { SNAPSHOT_EVERY } from "./replay";

/**
 * Referee snapshots, taken off the answer path. A wake-up restores the newest snapshot and
 * replays only the writes after it (field-restore.ts); taking one costs 50–120 ms of CPU on a
 * large field, which used to land on every 128th write's answer. Now, once SNAPSHOT_EVERY events
 * have been stored since the last snapshot, a background task:
 *
 * 1. waits for the next turn (the write that made it due has been answered), then captures the
 *    referee's state at the current revision: between writes memory equals storage (every write
 *    is judged and stored synchronously), so the capture is exactly the stored state at that
 *    revision;
 * 2. encodes it in bounded steps, yielding between them so that queued writes run in between
 *    (they change the live referee, never the capture);
 * 3. stores it, replacing the previous one, unless the referee was rebuilt or deleted meanwhile.
 *
 * Restore guarantees are unchanged: a snapshot stored at revision R is the state after event R,
 * and every event after R is in the log. If the object is evicted mid-way, nothing is stored and
 * the next wake-up restores the previous snapshot (or replays the whole log) as before.
 */
export function snapshotWhenDue(f: FieldContext): void {
  if (f.snapshotting || !f.referee) return;
  if (f.head.rev - f.snapshotRev < SNAPSHOT_EVERY) return;
  const running = takeSnapshot(f)
    .catch((err) => console.error("referee snapshot failed; the next one is taken later", err))
    .finally(() => {
      f.snapshotting = null;
    });
  f.snapshotting = running;
  f.ctx.waitUntil(running);
}

async function takeSnapshot(f: FieldContext): Promise<void> {
  await nextTurn();
  const referee = f.referee;
  if (!referee) return;
  const { revision, steps } = referee.snapshotInSteps();
  let step = steps.next();
  while (!step.done) {
    await nextTurn();
    if (f.referee !== referee) return;
    step = steps.next();
  }
  await nextTurn();
  if (f.referee !== referee) return;
  const bytes = new TextEncoder().encode(JSON.stringify(step.value));
  await nextTurn();
  if (f.referee !== referee || f.head.rev < revision) return;
  f.ctx.storage.transactionSync(() => f.store.saveSnapshot(revision, bytes));
  f.snapshotRev = revision;
}

/** A macrotask yield: requests queued at the object's input gate run before the next step. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
