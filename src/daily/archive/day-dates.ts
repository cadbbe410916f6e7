/** Days are UTC dates `YYYY-MM-DD`; the daily field of a date is `day-YYYY-MM-DD` (SPEC §9). */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_ID_RE = /^day-(\d{4}-\d{2}-\d{2})$/;
const DAY_MS = 86_400_000;

/** The UTC date of a moment. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Is `date` a real calendar date written `YYYY-MM-DD` (2000..2999)? */
export function isDate(date: string): boolean {
  const m = DATE_RE.exec(date);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 2000 || year > 2999) return false;
  return utcDate(Date.UTC(year, Number(m[2]) - 1, Number(m[3]))) === date;
}

export function dayGameId(date: string): string {
  return `day-${date}`;
}

/** The date of a daily game id, or null for any other id. */
export function dateOfGame(gameId: string): string | null {
  const m = DAY_ID_RE.exec(gameId);
  return m && isDate(m[1]) ? m[1] : null;
}

/** Unix ms of the UTC midnight that starts `date`. */
export function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

/** Unix ms when the day of `date` ends (the next UTC midnight). */
export function dayEnd(date: string): number {
  return dayStart(date) + DAY_MS;
}

/** The date `days` days after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return utcDate(dayStart(date) + days * DAY_MS);
}
