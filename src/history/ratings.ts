/**
 * Ratings across days (SPEC §11.1, docs/history.md): every day's pairwise comparisons
 * (day-score.ts), each day weighing the same, fitted by Bradley–Terry (bradley-terry.ts), with a
 * 95 % interval from a bootstrap that resamples whole days. Pure and deterministic: the
 * resampling draws from the engine's PRNG with a fixed seed per dimension.
 */
import { percentile } from "../analysis/analysis";
import { rngFor } from "../engine/random";
import { fitBradleyTerry, PRIOR, ratingOf } from "./bradley-terry";
import { competitors, dayComparisons, type DayComparisons, type RatingDimension } from "./day-score";
import type { HistoryDay } from "./types";

/** Bootstrap resamples (each a draw of as many days as were compared, with replacement). */
export const ROUNDS = 500;
/** Days an entry must have been compared on before it is ranked; below, it is provisional. */
export const MIN_DAYS = 3;
export const BOOTSTRAP_SEED = "mosaic-history-ratings-v1";

export interface RatingEntry {
  key: string;
  /** Machines: the display name on the latest day. */
  name?: string;
  /** The name was declared by the agents themselves (every model; a harness not named by the transport). */
  self_reported: boolean;
  rating: number;
  lo: number;
  hi: number;
  /** 1 + the number of ranked entries whose interval lies wholly above this one's; null while provisional. */
  rank: number | null;
  provisional: boolean;
  /** Days the entry was compared on. */
  days: number;
  /** Share of its comparisons won (draws as halves), days weighted equally. */
  win_share: number;
}

export interface RatingsTable {
  by: RatingDimension;
  /** Days with at least one comparison, and the newest of them. */
  days: number;
  through: string | null;
  method: { score: string; rounds: number; min_days: number; prior: number; interval: string };
  entries: RatingEntry[];
}

export async function ratingsTable(history: readonly HistoryDay[], by: RatingDimension): Promise<RatingsTable> {
  const days = [...history].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const perDay = days.map((d) => competitors(d, by));
  const keys = [...new Set(perDay.flat().map((c) => c.key))].sort();
  const index = new Map(keys.map((k, i) => [k, i]));
  const compared: Array<{ day: string; c: DayComparisons }> = [];
  perDay.forEach((list, i) => {
    const c = dayComparisons(list, (key) => index.get(key)!);
    if (c.total > 0) compared.push({ day: days[i].day, c });
  });
  const k = keys.length;
  const daysOf = new Array<number>(k).fill(0);
  for (const { c } of compared) for (const e of c.entries) daysOf[e]++;

  const weightedDays = compared.map((x) => weighted(k, x.c));
  const full = fit(k, weightedDays);
  const samples: number[][] = keys.map(() => []);
  if (compared.length > 0) {
    const rng = await rngFor(BOOTSTRAP_SEED, by);
    const count = new Uint16Array(compared.length);
    for (let round = 0; round < ROUNDS; round++) {
      count.fill(0);
      for (let d = 0; d < compared.length; d++) count[rng.int(compared.length)]++;
      const { ratings, present } = fit(k, weightedDays, count, full.theta);
      // An entry absent from every drawn day has nothing to say in this round.
      for (let e = 0; e < k; e++) if (present[e]) samples[e].push(ratings[e]);
    }
  }

  const entries: RatingEntry[] = keys.map((key, e) => {
    const s = samples[e].sort((x, y) => x - y);
    const rating = full.ratings[e];
    const lo = s.length ? percentile(s, 0.025) : rating;
    const hi = s.length ? percentile(s, 0.975) : rating;
    return {
      key,
      ...(by === "machine" ? { name: latestName(days, key) } : {}),
      self_reported: selfReported(days, by, key),
      rating: round1(rating),
      lo: round1(Math.min(lo, rating)),
      hi: round1(Math.max(hi, rating)),
      rank: null,
      provisional: daysOf[e] < MIN_DAYS,
      days: daysOf[e],
      win_share: full.games[e] > 0 ? Math.round((full.wins[e] / full.games[e]) * 10000) / 10000 : 0,
    };
  });
  const ranked = entries.filter((x) => !x.provisional);
  for (const x of ranked) x.rank = 1 + ranked.filter((y) => y.lo > x.hi).length;
  entries.sort((a, b) => (a.provisional !== b.provisional ? (a.provisional ? 1 : -1) : (a.rank ?? 0) - (b.rank ?? 0) || b.rating - a.rating || (a.key < b.key ? -1 : 1)));
  return {
    by,
    days: compared.length,
    through: compared.length ? compared[compared.length - 1].day : null,
    method: {
      score: "reward per write; a dead machine loses to every live one; same entry on one machine pooled",
      rounds: ROUNDS,
      min_days: MIN_DAYS,
      prior: PRIOR,
      interval: "95 %, percentile bootstrap over whole days",
    },
    entries,
  };
}

interface Fit {
  theta: Float64Array;
  ratings: Float64Array;
  present: Uint8Array;
  wins: Float64Array;
  games: Float64Array;
}

/**
 * A day's comparisons as flat arrays, each already weighted by 1 / (the day's comparisons): the
 * upper-triangle index i*k + j, the weight, and i's weighted wins.
 */
interface WeightedDay {
  at: Int32Array;
  first: Int32Array;
  second: Int32Array;
  weight: Float64Array;
  won: Float64Array;
  entries: Int32Array;
}

function weighted(k: number, c: DayComparisons): WeightedDay {
  const n = c.wins.length;
  const day: WeightedDay = { at: new Int32Array(n), first: new Int32Array(n), second: new Int32Array(n), weight: new Float64Array(n), won: new Float64Array(n), entries: Int32Array.from(c.entries) };
  const w = 1 / c.total;
  for (let t = 0; t < n; t++) {
    const i = c.pairs[3 * t];
    const j = c.pairs[3 * t + 1];
    day.at[t] = i * k + j;
    day.first[t] = i;
    day.second[t] = j;
    day.weight[t] = c.pairs[3 * t + 2] * w;
    day.won[t] = c.wins[t] * w;
  }
  return day;
}

/**
 * The fit of a multiset of days (`count[d]` copies of day d; all once without counts), each day's
 * comparisons weighing 1 in all.
 */
function fit(k: number, days: readonly WeightedDay[], count?: Uint16Array, start?: Float64Array): Fit {
  const games = new Float64Array(k * k);
  const wins = new Float64Array(k);
  const played = new Float64Array(k);
  const present = new Uint8Array(k);
  for (let di = 0; di < days.length; di++) {
    const c = count ? count[di] : 1;
    if (c === 0) continue;
    const { at, first, second, weight, won, entries } = days[di];
    for (let t = 0; t < at.length; t++) {
      const n = weight[t] * c;
      const w = won[t] * c;
      games[at[t]] += n;
      wins[first[t]] += w;
      wins[second[t]] += n - w;
      played[first[t]] += n;
      played[second[t]] += n;
    }
    for (let e = 0; e < entries.length; e++) present[entries[e]] = 1;
  }
  // An entry absent from every drawn day must start at 0, where the prior alone holds it.
  const from = start ? Float64Array.from(start, (t, e) => (present[e] ? t : 0)) : undefined;
  const theta = fitBradleyTerry(k, games, wins, from);
  const ratings = new Float64Array(k);
  for (let e = 0; e < k; e++) ratings[e] = ratingOf(theta[e]);
  return { theta, ratings, present, wins, games: played };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function latestName(days: readonly HistoryDay[], machine: string): string {
  for (let i = days.length - 1; i >= 0; i--) {
    const m = days[i].machines.find((x) => x.machine === machine);
    if (m) return m.name;
  }
  return machine;
}

/** Models are always declared by the agents; a harness is unless every agent's transport named it. */
function selfReported(days: readonly HistoryDay[], by: RatingDimension, key: string): boolean {
  if (by === "machine") return false;
  if (by === "model") return true;
  return days.some((d) => d.machines.some((m) => m.agents.some((a) => a.harness === key && a.harness_source !== "transport")));
}
