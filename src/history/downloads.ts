/**
 * The whole history as a download (SPEC §11.1): JSON (every day's record as stored) and CSV (one
 * row per day and machine, the columns of SPEC §11.1).
 */
import type { HistoryDay } from "./types";

export const HISTORY_FORMAT = "mosaic-history-v1";

export function historyJson(days: readonly HistoryDay[]): string {
  return JSON.stringify({ format: HISTORY_FORMAT, days });
}

const CSV_COLUMNS = [
  "day", "game_id", "machine", "name", "account", "models", "harnesses", "tags", "sessions", "reward", "tiles", "cells", "writes",
  "wrong", "guesses", "forced", "forced_share", "retractions", "health", "rate_bp", "died_at", "died_rev",
] as const;

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. Lists are joined
 * by `;`. A text starting with = + - @ gets a leading apostrophe, so a spreadsheet opening the
 * file never runs a machine's chosen name as a formula.
 */
function field(v: string | number | null): string {
  const s = v === null ? "" : typeof v === "string" && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function historyCsv(days: readonly HistoryDay[]): string {
  const lines: string[] = [CSV_COLUMNS.join(",")];
  for (const d of days) {
    for (const m of d.machines) {
      const share = m.cells > 0 ? String(Math.round((m.forced / m.cells) * 10000) / 10000) : "";
      const row: Array<string | number | null> = [
        d.day, d.game_id, m.machine, m.name, m.account, m.models.join(";"), m.harnesses.join(";"), m.tags.join(";"), m.sessions,
        m.reward, m.tiles, m.cells, m.writes, m.wrong, m.guesses, m.forced, share, m.retractions, m.health, m.rate_bp, m.died_at, m.died_rev,
      ];
      lines.push(row.map(field).join(","));
    }
  }
  return `${lines.join("\r\n")}\r\n`;
}
