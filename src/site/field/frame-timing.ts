/**
 * The page's own frame timing, kept beside the painter rather than in it: how long each draw
 * took, and when the first frame with tiles was drawn and painted. The site's benchmarks and
 * tests read it on `window.mosaic.view.timing` (scripts/bench/site.ts, live-page-probe.ts).
 */
const FRAME_SAMPLES = 240;

export class FrameTiming {
  /** Durations of the last draws in ms, a ring of `FRAME_SAMPLES` (the newest at `(drawCount - 1) % length`). */
  readonly drawTimes = new Float64Array(FRAME_SAMPLES);
  drawCount = 0;
  /** performance.now() at the end of the first draw call with tiles in it. */
  firstDrawAt = 0;
  /**
   * performance.now() once the frame holding that first draw was rendered: the task that ran it
   * (style, layout and paint of the whole page included) has ended. The first-paint benchmark reads this.
   */
  firstPaintAt = 0;

  /** A new scene: its first draw is timed afresh. */
  restart(): void {
    this.firstDrawAt = 0;
    this.firstPaintAt = 0;
  }

  /**
   * A draw that started at `started` has ended; `withTiles` says whether it drew any tile, and
   * `stillShown` whether the scene it drew is still the one on show once the frame is rendered.
   */
  drawn(started: number, withTiles: boolean, stillShown: () => boolean): void {
    if (withTiles && !this.firstDrawAt) {
      this.firstDrawAt = performance.now();
      // A task queued from inside a frame's callbacks runs once that frame's rendering is done.
      setTimeout(() => {
        if (stillShown()) this.firstPaintAt = performance.now();
      }, 0);
    }
    this.drawTimes[this.drawCount % FRAME_SAMPLES] = performance.now() - started;
    this.drawCount++;
  }

  /** Frame statistics of the recorded draws: p50, p95, max (ms). */
  frameStats(): { count: number; p50: number; p95: number; max: number } {
    const n = Math.min(this.drawCount, FRAME_SAMPLES);
    const sorted = Array.from(this.drawTimes.subarray(0, n)).sort((a, b) => a - b);
    const q = (p: number): number => (n ? sorted[Math.min(n - 1, Math.floor(p * n))] : 0);
    return { count: this.drawCount, p50: q(0.5), p95: q(0.95), max: n ? sorted[n - 1] : 0 };
  }
}
