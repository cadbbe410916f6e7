import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * CPU seconds used so far by the processes of a process group (`wrangler dev` leads the group its
 * workerd runs in), keyed by command name, or by `name#pid` with `perProcess` (Linux /proc).
 */
export function groupCpu(pgid: number, perProcess = false): Map<string, number> {
  const out = new Map<string, number>();
  if (!pgid) return out;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      // utime and stime, in clock ticks (100 per second on Linux).
      const key = perProcess ? `${name}#${entry}` : name;
      out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** CPU seconds per process name between two readings of `groupCpu`. */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, s] of after) out[name] = s - (before.get(name) ?? 0);
  return out;
}

/** The process ids of a process group whose command is `name` (e.g. the group's workerd). */
export function groupPids(pgid: number, name: string): number[] {
  return [...groupCpu(pgid, true).keys()].filter((key) => key.startsWith(`${name}#`)).map((key) => Number(key.slice(name.length + 1)));
}

/** CPU seconds used so far by these processes together (one /proc read each: cheap enough per call). */
export function processCpu(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * The workerd processes `wrangler dev` runs in its group, told apart: `proxy` is wrangler's own
 * proxy, which listens on the public `port` and passes every request and socket frame on; `user`
 * runs the Worker and its Durable Objects.
 */
export function devWorkerd(pgid: number, port: number): { proxy: number[]; user: number[] } {
  const out = { proxy: [] as number[], user: [] as number[] };
  for (const pid of groupPids(pgid, "workerd")) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      (args.some((a) => a.endsWith(`entry=127.0.0.1:${port}`)) ? out.proxy : out.user).push(pid);
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** Lowers the scheduling priority (nice) of every thread of every process in a group (Linux: nice is per thread). */
export function niceGroup(pgid: number, nice: number): void {
  for (const key of groupCpu(pgid, true).keys()) {
    const pid = key.slice(key.lastIndexOf("#") + 1);
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) setPriority(Number(tid), nice);
    } catch {
      // The process ended meanwhile.
    }
  }
}
