/**
 * Where the renderer's main thread spends its long tasks beyond JavaScript (style, layout, paint,
 * canvas rasterisation, garbage collection): a Chromium trace over a short window, with the self
 * time of every trace event inside the tasks longer than 50 ms, summed by event name.
 */
import type { Browser, Page } from "playwright-core";

const CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "blink", "cc", "gpu", "skia", "benchmark", "renderer.scheduler"];

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The time the thread ran within the span (µs), as opposed to its wall time `dur`. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: unknown };
}

export async function startTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: CATEGORIES });
}

export interface TraceSummary {
  /** Long tasks on the renderer's main thread, and their total (ms). */
  tasks: number;
  total: number;
  /** Self time by event name within those tasks (ms), largest first. */
  names: Array<{ name: string; ms: number }>;
  /** Every task's time on the main thread (ms), and its self time by event name. */
  allTotal: number;
  allNames: Array<{ name: string; ms: number }>;
  /** How many frames the main thread produced (BeginMainFrame). */
  frames: number;
}

/** The events of a trace, as `browser.stopTracing()` returns it. */
export function traceEventsOf(trace: Buffer): TraceEvent[] {
  const raw = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(raw) ? raw : raw.traceEvents;
}

/** The page's main thread: the renderer main thread that ran the most task time. */
export function mainThreadOf(events: TraceEvent[]): TraceEvent | undefined {
  const busy = new Map<string, number>();
  for (const e of events) if (e.ph === "X" && e.name === "RunTask") busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  return events
    .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
    .sort((a, b) => (busy.get(`${b.pid}:${b.tid}`) ?? 0) - (busy.get(`${a.pid}:${a.tid}`) ?? 0))[0];
}

export async function stopTrace(browser: Browser): Promise<TraceSummary> {
  const events = traceEventsOf(await browser.stopTracing());
  const main = mainThreadOf(events);
  if (!main) return { tasks: 0, total: 0, names: [], allTotal: 0, allNames: [], frames: 0 };
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur !== undefined).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const allSelf = new Map<string, number>();
  let tasks = 0;
  let total = 0;
  let allTotal = 0;
  // A stack of open spans: each span's self time is its duration less its direct children's.
  const stack: Array<{ e: TraceEvent; end: number; children: number; inLong: boolean }> = [];
  const close = (upTo: number): void => {
    while (stack.length && stack[stack.length - 1].end <= upTo) {
      const top = stack.pop()!;
      allSelf.set(top.e.name, (allSelf.get(top.e.name) ?? 0) + ((top.e.dur ?? 0) - top.children) / 1000);
      if (top.inLong) self.set(top.e.name, (self.get(top.e.name) ?? 0) + ((top.e.dur ?? 0) - top.children) / 1000);
      if (stack.length) stack[stack.length - 1].children += top.e.dur ?? 0;
    }
  };
  for (const e of spans) {
    close(e.ts);
    if (stack.length === 0) allTotal += (e.dur ?? 0) / 1000;
    const long = stack.length === 0 && e.name === "RunTask" && (e.dur ?? 0) > 50_000;
    if (long) {
      tasks++;
      total += (e.dur ?? 0) / 1000;
    }
    stack.push({ e, end: e.ts + (e.dur ?? 0), children: 0, inLong: long || (stack.length > 0 && stack[0].inLong) });
  }
  close(Infinity);
  const sorted = (m: Map<string, number>) => [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { tasks, total, names: sorted(self), allTotal, allNames: sorted(allSelf), frames: spans.filter((e) => e.name === "ProxyMain::BeginMainFrame").length };
}
