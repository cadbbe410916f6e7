/** The history's public JSON (SPEC §11.1) as the page reads it; shapes from the server's own modules. */
import { getJson } from "../api";
import type { LeaderboardTable } from "../../history/leaderboard";
import type { RatingsTable } from "../../history/ratings";
import type { Series } from "../../history/series";
import type { HistorySummary } from "../../history/summary";

export type { LeaderboardTable, RatingsTable, Series, HistorySummary };
export type { LeaderboardRow } from "../../history/leaderboard";
export type { RatingEntry } from "../../history/ratings";

export const historySummary = (): Promise<HistorySummary> => getJson("/api/history");
export const ratings = (by: string): Promise<RatingsTable> => getJson(`/api/history/ratings?by=${encodeURIComponent(by)}`);

export function leaderboard(by: string, from: string, to: string): Promise<LeaderboardTable> {
  const q = new URLSearchParams({ by });
  if (from) q.set("from", from);
  if (to) q.set("to", to);
  return getJson(`/api/history/leaderboard?${q.toString()}`);
}

export function series(kind: "model" | "machine" | "account", key: string): Promise<Series> {
  return getJson(`/api/history/${kind}s/${encodeURIComponent(key)}`);
}
