import type { Env } from "../env";
import { historyOf } from "../history-store/history-stub";
import type { Outcome } from "../game/field-types";
import { fail } from "../game/field-types";
import { gameExists, listGames } from "../game/registry";
import { addDays, dateOfGame, dayEnd, dayGameId, isDate, utcDate } from "./archive/day-dates";
import { planDay, type DayOverrides } from "./day-params";
import type { DayClosed } from "../game/day-close";

/**
 * The daily lifecycle (SPEC §9): one field a day, `day-YYYY-MM-DD` (UTC). Everything here is
 * at-least-once safe: opening an open day answers it unchanged (the field object refuses a second
 * creation, and the first one's seed stays), closing a closed day changes nothing and writes no
 * second archive.
 */

export interface DayOpened {
  game_id: string;
  /** False when the day was already open (nothing changed). */
  created: boolean;
}

/** A fresh secret day seed: 64 hex digits. */
function drawDaySeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Opens the day of `date`: a growing, fogged field with the pinned parameters (or, for the dev
 * route, smaller ones). It closes itself at the end of its day when that is still ahead.
 */
export async function openDay(env: Env, date: string, overrides?: DayOverrides, now = Date.now()): Promise<Outcome<DayOpened>> {
  if (!isDate(date)) return fail("bad_input", `date must be a UTC date YYYY-MM-DD, got ${JSON.stringify(date).slice(0, 40)}`);
  const planned = planDay(overrides);
  if (!planned.ok) return fail("bad_input", `day parameters: ${planned.message}`);
  const { plan } = planned;
  const gameId = dayGameId(date);
  const end = dayEnd(date);
  const stub = env.FIELDS.getByName(gameId);
  const created = await stub.create({
    gameId,
    params: plan.params,
    rules: plan.rules,
    G: plan.G,
    seed: drawDaySeed(),
    grow: plan.grow,
    day: { date, closesAt: end > now ? end : null },
  });
  if (created.ok) return { ok: true, answer: { game_id: gameId, created: true } };
  // The day exists already (a repeated cron, a second dev open): it stays as it is.
  if ((await stub.status()).status !== "missing") return { ok: true, answer: { game_id: gameId, created: false } };
  return created;
}

/** Closes the day of `date` and writes its archive; a day that was never opened is `missing` (and is not created). */
export async function closeDay(env: Env, date: string): Promise<Outcome<DayClosed>> {
  if (!isDate(date)) return fail("bad_input", `date must be a UTC date YYYY-MM-DD, got ${JSON.stringify(date).slice(0, 40)}`);
  const gameId = dayGameId(date);
  if (!(await gameExists(env, gameId))) return fail("missing", `no daily field ${gameId}`);
  return env.FIELDS.getByName(gameId).closeDay();
}

/** Days before today still checked by the cron even when listed closed (an archive that failed to upload). */
const RECHECK_DAYS = 3;

/**
 * The cron (SPEC §9, §13): opens today's field and closes every earlier day still open (the
 * previous day, or more after missed runs), writing their archives. Run twice, it changes nothing
 * the second time. Returns what it did, for the log.
 */
export async function runDailyCron(env: Env, now: number, overrides?: DayOverrides): Promise<{ opened: DayOpened | null; closed: string[]; errors: string[] }> {
  const today = utcDate(now);
  const errors: string[] = [];
  const opened = await openDay(env, today, overrides, now);
  if (!opened.ok) errors.push(`open ${today}: ${opened.error.message}`);
  const closed: string[] = [];
  const recheckFrom = addDays(today, -RECHECK_DAYS);
  for (const game of await listGames(env)) {
    const date = dateOfGame(game.game_id);
    if (date === null || date >= today) continue;
    if (game.status === "closed" && date < recheckFrom) continue;
    try {
      const r = await closeDay(env, date);
      if (r.ok) closed.push(game.game_id);
      else errors.push(`close ${game.game_id}: ${r.error.message}`);
    } catch (err) {
      errors.push(`close ${game.game_id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  // The history's backstop: any archive in R2 not on record yet (a close whose recording failed).
  try {
    const synced = await historyOf(env).sync();
    for (const e of synced.errors) errors.push(`history ${e}`);
  } catch (err) {
    errors.push(`history sync: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { opened: opened.ok ? opened.answer : null, closed, errors };
}
