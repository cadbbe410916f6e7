/**
 * The renderer main thread's tasks over a window, from a Chromium trace and a V8 CPU profile of
 * the same run: how many ran over 50 ms, how long the thread was busy, and for each long task how
 * much of it the thread actually ran (its thread time: on a loaded machine a task can last 150 ms
 * of wall time with 5 ms of CPU, the rest spent descheduled) and what it ran (trace events by
 * self time, JavaScript functions by profile samples).
 */
import { mainThreadOf, type TraceEvent } from "./live-page-trace";

/** A V8 CPU profile (Profiler.stop); its clock is the trace's (µs). */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LongTask {
  /** Start, in ms from the window's start. */
  at: number;
  wallMs: number;
  /** The time the thread ran in it (trace `tdur`). */
  cpuMs: number;
  /** Self time by trace event name inside it, largest first (ms; the top few). */
  events: Array<{ name: string; ms: number }>;
  /** JavaScript self time by function inside it, from the profile (ms; the top few). */
  functions: Array<{ name: string; ms: number }>;
}

export interface MainThreadTasks {
  tasks: number;
  /** Wall time inside tasks, and the thread's own CPU time in them (s). */
  busyWall: number;
  busyCpu: number;
  /** Tasks over 50 ms of wall time, and how many of them also ran over 50 ms of CPU. */
  long: LongTask[];
  longByCpu: number;
  /** JavaScript the profile sampled on the main thread in the window (ms), by function, largest first. */
  jsMs: number;
  functions: Array<{ name: string; ms: number }>;
}

const top = (m: Map<string, number>, n: number): Array<{ name: string; ms: number }> =>
  [...m]
    .map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);

/** Each sample's time and function (idle and the profiler's own frames left out). */
function samples(profile: CpuProfile | null): Array<{ ts: number; ms: number; name: string }> {
  if (!profile) return [];
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName || (n.callFrame.url ? "(anonymous)" : "")]));
  const out: Array<{ ts: number; ms: number; name: string }> = [];
  let ts = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    ts += profile.timeDeltas[i] ?? 0;
    const name = names.get(profile.samples[i]) ?? "";
    if (name && name !== "(idle)" && name !== "(program)" && name !== "(root)") out.push({ ts, ms: (profile.timeDeltas[i + 1] ?? 0) / 1000, name });
  }
  return out;
}

/**
 * The main thread's tasks that started in [from, to] (trace clock, µs). Trace events nest by time
 * on one thread: a stack gives each its self time (its duration less its direct children's).
 */
export function mainThreadTasks(events: TraceEvent[], from: number, to: number, profile: CpuProfile | null): MainThreadTasks {
  const main = mainThreadOf(events);
  const out: MainThreadTasks = { tasks: 0, busyWall: 0, busyCpu: 0, long: [], longByCpu: 0, jsMs: 0, functions: [] };
  if (!main) return out;
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur !== undefined && e.ts >= from && e.ts <= to).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const js = samples(profile).filter((s) => s.ts >= from && s.ts <= to);
  const allJs = new Map<string, number>();
  for (const s of js) allJs.set(s.name, (allJs.get(s.name) ?? 0) + s.ms);
  out.jsMs = Math.round(js.reduce((n, s) => n + s.ms, 0));
  out.functions = top(allJs, 8);
  let current: { e: TraceEvent; self: Map<string, number> } | null = null;
  const stack: Array<{ e: TraceEvent; end: number; children: number }> = [];
  const finishTask = (): void => {
    if (!current) return;
    const { e, self } = current;
    const wall = (e.dur ?? 0) / 1000;
    if (wall > 50) {
      const fns = new Map<string, number>();
      for (const s of js) if (s.ts >= e.ts && s.ts <= e.ts + (e.dur ?? 0)) fns.set(s.name, (fns.get(s.name) ?? 0) + s.ms);
      const cpu = (e.tdur ?? e.dur ?? 0) / 1000;
      out.long.push({ at: Math.round((e.ts - from) / 1000), wallMs: Math.round(wall), cpuMs: Math.round(cpu), events: top(self, 4), functions: top(fns, 4) });
      if (cpu > 50) out.longByCpu++;
    }
    current = null;
  };
  const close = (upTo: number): void => {
    while (stack.length && stack[stack.length - 1].end <= upTo) {
      const done = stack.pop()!;
      const self = ((done.e.dur ?? 0) - done.children) / 1000;
      current?.self.set(done.e.name, (current.self.get(done.e.name) ?? 0) + self);
      if (stack.length) stack[stack.length - 1].children += done.e.dur ?? 0;
      else finishTask();
    }
  };
  for (const e of spans) {
    close(e.ts);
    if (stack.length === 0) {
      // A top-level span is a task (RunTask, or the scheduler's own spans around one).
      out.tasks++;
      out.busyWall += (e.dur ?? 0) / 1e6;
      out.busyCpu += (e.tdur ?? e.dur ?? 0) / 1e6;
      current = { e, self: new Map() };
    }
    stack.push({ e, end: e.ts + (e.dur ?? 0), children: 0 });
  }
  close(Infinity);
  return out;
}

/** The trace clock (µs) at the page's `performance.now()` 0: the last navigation's start. */
export function pageClockOrigin(events: TraceEvent[], path: string): number | null {
  const starts = events.filter((e) => e.name === "navigationStart" && JSON.stringify(e.args ?? {}).includes(path));
  return starts.length ? starts[starts.length - 1].ts : null;
}
