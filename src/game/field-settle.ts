import type { FieldContext } from "./field-context";

/** How long after a write its pending propagation is worked out: its answer has left by then. */
export const SETTLE_AFTER_MS = 20;

/**
 * Propagation brought up to date between writes, off the answer path. The referee's propagation
 * is lazy: what a write leaves pending (the lines of a tile just revealed, the rule stages around
 * cells just committed) would be worked out by the next commit, after the agent's pause for
 * thought, when the caches are cold and its caller waits. A short timer after each write does it
 * instead. The result is the same whenever it is computed (Referee.settle); a write that arrives
 * before the timer simply does the work itself, as before.
 */
export function settleSoon(f: FieldContext): void {
  if (f.settling) return;
  f.settling = setTimeout(() => {
    f.settling = null;
    try {
      f.referee?.settle();
    } catch (err) {
      // Never fatal: the next write works it out, or rebuilds the referee if it really is broken.
      console.error("settling the field's propagation failed", err);
    }
  }, SETTLE_AFTER_MS);
}
