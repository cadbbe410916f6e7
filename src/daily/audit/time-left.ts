/**
 * An estimate of the time a check has left, from its progress so far: the rate since the check
 * started (its first progress), once there is enough of it to go on. The page shows it per step.
 */
export class TimeLeft {
  private started = new Map<string, { at: number; done: number }>();

  /** Milliseconds left for `key` at `done` of `total`, or null while there is too little to go on. */
  update(key: string, done: number, total: number, now: number): number | null {
    let s = this.started.get(key);
    if (!s) {
      s = { at: now, done };
      this.started.set(key, s);
    }
    const elapsed = now - s.at;
    const progressed = done - s.done;
    if (elapsed < 1000 || progressed <= 0 || progressed < total * 0.02) return null;
    return ((total - done) * elapsed) / progressed;
  }

  reset(): void {
    this.started.clear();
  }
}

/** "about 40 s left", "about 2 min left". */
export function timeLeftText(ms: number): string {
  if (ms < 1500) return "a moment left";
  if (ms < 90_000) return `about ${Math.round(ms / 1000)} s left`;
  return `about ${Math.round(ms / 60_000)} min left`;
}
