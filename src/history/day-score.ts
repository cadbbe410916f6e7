/**
 * The day score and the day's pairwise comparisons (docs/history.md "Method").
 *
 * A competitor is what one entry fielded on one machine that day: for `by=model`, the agents of
 * one model on one machine, pooled (their reward and writes summed); for `by=harness` the same by
 * harness; for `by=machine`, the machine. Its day score is reward per write — the archive's
 * points over the writes that earned them, so it does not grow with how long or with how many
 * sessions an agent played, and wrong cells, refused guesses and idle reveals all cost it. A
 * competitor without a write has no score and takes no part. A dead machine's competitors lose to
 * every live one; otherwise the higher score wins and equal scores draw (half a win each).
 * Scores are compared as integer cross-products, so no rounding ever decides an outcome.
 */
import type { HistoryDay, MachineDay } from "./types";

export type RatingDimension = "model" | "harness" | "machine";

export interface Competitor {
  key: string;
  machine: string;
  reward: number;
  writes: number;
  dead: boolean;
}

/** The day's competitors for one dimension, in machine then first-agent order. */
export function competitors(day: HistoryDay, by: RatingDimension): Competitor[] {
  const out: Competitor[] = [];
  for (const m of day.machines) {
    const dead = m.died_at !== null;
    if (by === "machine") {
      if (m.writes > 0) out.push({ key: m.machine, machine: m.machine, reward: m.reward, writes: m.writes, dead });
      continue;
    }
    const pooled = new Map<string, Competitor>();
    for (const a of m.agents) {
      const key = by === "model" ? a.model : a.harness;
      const c = pooled.get(key);
      if (c) {
        c.reward += a.reward;
        c.writes += a.writes;
      } else pooled.set(key, { key, machine: m.machine, reward: a.reward, writes: a.writes, dead });
    }
    for (const c of pooled.values()) if (c.writes > 0) out.push(c);
  }
  return out;
}

/** 1 if `a` beats `b`, 0 if it loses, 0.5 for a draw. */
export function outcome(a: Competitor, b: Competitor): number {
  if (a.dead !== b.dead) return a.dead ? 0 : 1;
  const x = a.reward * b.writes;
  const y = b.reward * a.writes;
  return x > y ? 1 : x < y ? 0 : 0.5;
}

/**
 * One day's comparisons, summed per pair of entries: for entries i < j (indices into `keys`),
 * how many comparisons and how many of them i won. A day's weight is spread evenly over its
 * comparisons (each counts 1 / `total`), so every day weighs the same in the fit.
 */
export interface DayComparisons {
  /** Flat triples: i, j, count; and wins of i (draws as halves) in `wins`, same order. */
  pairs: number[];
  wins: number[];
  total: number;
  /** Entry indices that took part in at least one comparison this day. */
  entries: number[];
}

export function dayComparisons(list: readonly Competitor[], indexOf: (key: string) => number): DayComparisons {
  const pairIndex = new Map<number, number>();
  const pairs: number[] = [];
  const wins: number[] = [];
  const seen = new Set<number>();
  let total = 0;
  for (let x = 0; x < list.length; x++) {
    for (let y = x + 1; y < list.length; y++) {
      const a = list[x];
      const b = list[y];
      if (a.key === b.key) continue; // one entry against itself tells the fit nothing
      let i = indexOf(a.key);
      let j = indexOf(b.key);
      let won = outcome(a, b);
      if (i > j) {
        [i, j] = [j, i];
        won = 1 - won;
      }
      const id = i * 65536 + j;
      let at = pairIndex.get(id);
      if (at === undefined) {
        at = wins.length;
        pairIndex.set(id, at);
        pairs.push(i, j, 0);
        wins.push(0);
      }
      pairs[3 * at + 2]++;
      wins[at] += won;
      seen.add(i);
      seen.add(j);
      total++;
    }
  }
  return { pairs, wins, total, entries: [...seen].sort((p, q) => p - q) };
}

/** Did the machine die that day? */
export const died = (m: MachineDay): boolean => m.died_at !== null;
