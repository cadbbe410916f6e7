/**
 * What the live page's main thread does, measured from outside it: long tasks (> 50 ms, from a
 * `PerformanceObserver` installed before the page's own script), frame intervals while the camera
 * pans, the page's own draw times, and a V8 CPU profile over CDP with self time per function (an
 * unminified bundle keeps the names; each function is attributed to its source file by the
 * `// src/...` comments esbuild writes above every module).
 */
import type { CDPSession, Page } from "playwright-core";
import type { FrameTiming } from "../../src/site/field/frame-timing";

/** Installs the long-task recorder; call before the page loads. */
export async function recordLongTasks(page: Page): Promise<void> {
  // tsx compiles the functions handed to the page with esbuild's keepNames, which calls `__name`.
  await page.addInitScript("globalThis.__name ??= (f) => f;");
  await page.addInitScript(() => {
    const tasks: Array<[number, number]> = [];
    (window as unknown as { longTasks: Array<[number, number]> }).longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  });
}

export interface LongTaskFigures {
  count: number;
  /** Share of the window's wall time spent in long tasks. */
  share: number;
  p50: number;
  p95: number;
  max: number;
}

/** Long tasks that started in [from, to) (page clock, ms). */
export async function longTasks(page: Page, from: number, to: number): Promise<LongTaskFigures> {
  const tasks = await page.evaluate(([a, b]) => (window as unknown as { longTasks: Array<[number, number]> }).longTasks.filter(([t]) => t >= a && t < b).map(([, d]) => d), [from, to] as [number, number]);
  const sorted = [...tasks].sort((a, b) => a - b);
  const q = (p: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
  return { count: tasks.length, share: tasks.reduce((s, d) => s + d, 0) / Math.max(1, to - from), p50: q(0.5), p95: q(0.95), max: sorted[sorted.length - 1] ?? 0 };
}

export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/**
 * Pans the camera for `ms` (one small step per animation frame, back and forth, as a drag does)
 * and returns the intervals between frames and the page's draw times meanwhile.
 */
export async function pan(page: Page, ms: number): Promise<{ intervals: number[]; draws: number[]; count: number }> {
  return page.evaluate(async (duration) => {
    const view = window.mosaic!.view! as unknown as {
      camera: { panBy(x: number, y: number): void };
      timing: FrameTiming;
      invalidate(): void;
    };
    const intervals: number[] = [];
    const firstDraw = view.timing.drawCount;
    const start = performance.now();
    let last = start;
    let i = 0;
    await new Promise<void>((resolve) => {
      const step = (t: number): void => {
        if (i > 0) intervals.push(t - last);
        last = t;
        if (t - start >= duration) return resolve();
        view.camera.panBy(i % 60 < 30 ? 6 : -6, i % 46 < 23 ? 3 : -3);
        view.invalidate();
        i++;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    const n = Math.min(view.timing.drawCount - firstDraw, view.timing.drawTimes.length);
    const draws: number[] = [];
    for (let k = view.timing.drawCount - n; k < view.timing.drawCount; k++) draws.push(view.timing.drawTimes[k % view.timing.drawTimes.length]);
    return { intervals, draws, count: view.timing.drawCount - firstDraw };
  }, ms);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time (ms), idle excluded. */
  busy: number;
  /** Self time per function, largest first (ms), with its source file. */
  functions: Array<{ name: string; file: string; ms: number }>;
  /** Self time per source file (ms), largest first. */
  files: Array<{ file: string; ms: number }>;
}

export async function startProfile(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  return cdp;
}

/** Stops the profiler and sums self time per function; `bundle` is the served script's text. */
export async function stopProfile(cdp: CDPSession, bundle: string): Promise<ProfileSummary> {
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
  await cdp.detach();
  const fileAt = moduleLines(bundle);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const byFunction = new Map<string, { name: string; file: string; ms: number }>();
  const byFile = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (!ms) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    busy += ms;
    const file = url.endsWith("/app/site.js") ? fileAt(lineNumber) : url ? "other script" : "(native)";
    const name = functionName || "(anonymous)";
    const key = `${name}@${file}`;
    const entry = byFunction.get(key) ?? { name, file, ms: 0 };
    entry.ms += ms;
    byFunction.set(key, entry);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  return {
    busy,
    functions: [...byFunction.values()].sort((a, b) => b.ms - a.ms),
    files: [...byFile].map(([file, ms]) => ({ file, ms })).sort((a, b) => b.ms - a.ms),
  };
}

/** Line (0-based) → the source module esbuild bundled there (its `// src/...` header comments). */
function moduleLines(bundle: string): (line: number) => string {
  const starts: Array<[number, string]> = [];
  bundle.split("\n").forEach((text, line) => {
    const m = /^\/\/ (?:\S*\/)?(src\/\S+\.ts)$/.exec(text);
    if (m) starts.push([line, m[1]]);
  });
  return (line) => {
    let file = "site.js";
    for (const [at, name] of starts) {
      if (at > line) break;
      file = name;
    }
    return file;
  };
}
