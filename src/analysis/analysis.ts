/**
 * The analysis of a field (SPEC §11, docs/spectator.md "Analysis"): agents grouped by model, by
 * harness and by tag, with efficiency columns and bootstrap 95 % intervals. Pure: the numbers
 * come in, the document goes out; resampling uses the engine's PRNG, seeded by the caller, so
 * the same field at the same revision always gives the same intervals.
 */
import { rngFor, type Rng } from "../engine/random";
import type { AccountRef } from "../spectator/types";

/** What the analysis knows of one seated agent (a session of a machine). */
export interface AgentFacts {
  agent: string;
  machine: string;
  /** The machine's account (SPEC §8.2), null when it is in none. */
  account: AccountRef | null;
  model: string;
  harness: string;
  tags: Record<string, string>;
  reward: number;
  tiles: number;
  /** Cells accepted, of which forced and guesses. */
  accepted: number;
  forced: number;
  guesses: number;
  wrong: number;
  retractions: number;
  /** Tool calls and bytes served to its machine, shared equally among the machine's agents. */
  calls: number;
  bytes: number;
  /** Of its accepted cells, how many the field's optimum play obtained by propagation alone (null: not computed). */
  optimumForced: number | null;
}

/** A value with its bootstrap 95 % interval (null when undefined, e.g. per reward without reward). */
export interface Estimate {
  value: number;
  lo: number;
  hi: number;
}

export interface AnalysisRow {
  key: string;
  /** By account only: the account's name (null for a machine in no account, keyed by its machine id). */
  name?: string | null;
  agents: number;
  machines: number;
  reward: number;
  tiles: number;
  cells: number;
  forced_share: Estimate | null;
  /** Per 100 reward: tool calls, bytes served, wrong cells, accepted guesses. */
  calls: Estimate | null;
  bytes: Estimate | null;
  wrong: Estimate | null;
  guesses: Estimate | null;
  /** Share of the group's accepted cells that propagation alone gave in the field's optimum play. */
  propagation_share: Estimate | null;
  reward_per_agent: Estimate | null;
  calls_total: number;
  bytes_total: number;
  wrong_cells: number;
  guess_cells: number;
  retractions: number;
}

export interface AnalysisGroups {
  by_model: AnalysisRow[];
  by_harness: AnalysisRow[];
  by_tag: AnalysisRow[];
  /** A person's machines together (SPEC §8.2): an account's id, or a machine's id when it is in no account. */
  by_account: AnalysisRow[];
}

export const RESAMPLES = 1000;

/** A group statistic: a ratio of sums over the group's agents (null when the denominator is 0). */
type Statistic = (agents: readonly AgentFacts[]) => number | null;

const sum = (agents: readonly AgentFacts[], f: (a: AgentFacts) => number): number => agents.reduce((s, a) => s + f(a), 0);
const ratio = (num: number, den: number, scale = 1): number | null => (den > 0 ? (scale * num) / den : null);
/**
 * A sum of agents' shares of their machines' calls or bytes, to a thousandth: a machine's six
 * agents each holding a sixth add up to 0.9999999999999999 in floating point, and a total is read
 * as a count.
 */
const shareTotal = (agents: readonly AgentFacts[], f: (a: AgentFacts) => number): number => Math.round(sum(agents, f) * 1000) / 1000;

const STATISTICS: Record<"forced_share" | "calls" | "bytes" | "wrong" | "guesses" | "propagation_share" | "reward_per_agent", Statistic> = {
  forced_share: (g) => ratio(sum(g, (a) => a.forced), sum(g, (a) => a.accepted)),
  calls: (g) => ratio(sum(g, (a) => a.calls), sum(g, (a) => a.reward), 100),
  bytes: (g) => ratio(sum(g, (a) => a.bytes), sum(g, (a) => a.reward), 100),
  wrong: (g) => ratio(sum(g, (a) => a.wrong), sum(g, (a) => a.reward), 100),
  guesses: (g) => ratio(sum(g, (a) => a.guesses), sum(g, (a) => a.reward), 100),
  propagation_share: (g) => (g.some((a) => a.optimumForced === null) ? null : ratio(sum(g, (a) => a.optimumForced ?? 0), sum(g, (a) => a.accepted))),
  reward_per_agent: (g) => ratio(sum(g, (a) => a.reward), g.length),
};

/** Tag groups: `key` for a tag without a value, `key=value` otherwise; untagged agents in "(none)". */
export function tagKeys(tags: Record<string, string>): string[] {
  const keys = Object.entries(tags).map(([k, v]) => (v === "" ? k : `${k}=${v}`));
  return keys.length === 0 ? ["(none)"] : keys;
}

/**
 * The three groupings. `seed` names the field and revision; each group's resampling stream is
 * `rngFor(seed, "<dimension>|<key>")`.
 */
export async function analyse(agents: readonly AgentFacts[], seed: string): Promise<AnalysisGroups> {
  return {
    by_model: await grouped(agents, (a) => [a.model || "unknown"], seed, "model"),
    by_harness: await grouped(agents, (a) => [a.harness || "unknown"], seed, "harness"),
    by_tag: await grouped(agents, (a) => tagKeys(a.tags), seed, "tag"),
    by_account: (await grouped(agents, (a) => [a.account?.id ?? a.machine], seed, "account")).map(({ key, ...rest }) => ({ key, name: accountName(agents, key), ...rest })),
  };
}

/** The name of the account `key`, or null when `key` is a machine's id (a machine in no account). */
function accountName(agents: readonly AgentFacts[], key: string): string | null {
  return agents.find((a) => a.account?.id === key)?.account?.name ?? null;
}

async function grouped(agents: readonly AgentFacts[], keysOf: (a: AgentFacts) => string[], seed: string, dimension: string): Promise<AnalysisRow[]> {
  const groups = new Map<string, AgentFacts[]>();
  for (const a of agents) {
    for (const key of keysOf(a)) {
      const list = groups.get(key);
      if (list) list.push(a);
      else groups.set(key, [a]);
    }
  }
  const rows: AnalysisRow[] = [];
  for (const [key, members] of [...groups].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) {
    rows.push(row(key, members, await rngFor(seed, `${dimension}|${key}`)));
  }
  return rows.sort((x, y) => y.reward - x.reward || (x.key < y.key ? -1 : 1));
}

function row(key: string, members: readonly AgentFacts[], rng: Rng): AnalysisRow {
  const estimates = bootstrap(members, rng);
  return {
    key,
    agents: members.length,
    machines: new Set(members.map((a) => a.machine)).size,
    reward: sum(members, (a) => a.reward),
    tiles: sum(members, (a) => a.tiles),
    cells: sum(members, (a) => a.accepted),
    ...estimates,
    calls_total: shareTotal(members, (a) => a.calls),
    bytes_total: shareTotal(members, (a) => a.bytes),
    wrong_cells: sum(members, (a) => a.wrong),
    guess_cells: sum(members, (a) => a.guesses),
    retractions: sum(members, (a) => a.retractions),
  };
}

/**
 * Percentile bootstrap over the group's agents: RESAMPLES resamples of the same size drawn with
 * replacement; the interval holds the 2.5th to 97.5th percentile of each statistic (resamples
 * where it is undefined are left out). One agent gives a zero-width interval.
 */
export function bootstrap(members: readonly AgentFacts[], rng: Rng): Record<keyof typeof STATISTICS, Estimate | null> {
  const names = Object.keys(STATISTICS) as Array<keyof typeof STATISTICS>;
  const samples = new Map(names.map((n) => [n, [] as number[]]));
  const resample: AgentFacts[] = new Array(members.length);
  if (members.length > 1) {
    for (let b = 0; b < RESAMPLES; b++) {
      for (let i = 0; i < members.length; i++) resample[i] = members[rng.int(members.length)];
      for (const n of names) {
        const v = STATISTICS[n](resample);
        if (v !== null) samples.get(n)!.push(v);
      }
    }
  }
  const out = {} as Record<keyof typeof STATISTICS, Estimate | null>;
  for (const n of names) {
    const value = STATISTICS[n](members);
    if (value === null) {
      out[n] = null;
      continue;
    }
    const s = samples.get(n)!.sort((x, y) => x - y);
    out[n] = s.length === 0 ? { value: round(value), lo: round(value), hi: round(value) } : { value: round(value), lo: round(percentile(s, 0.025)), hi: round(percentile(s, 0.975)) };
  }
  return out;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank];
}

export function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
