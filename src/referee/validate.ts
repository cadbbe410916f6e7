import { MAX_INTENT_CHARS } from "./limits";
import type { RefereeError } from "./types";

/**
 * Input checks the referee repeats behind the edge's schemas (SPEC §12): anything malformed gets
 * a specific message and changes nothing. Every function returns null when the value is fine.
 */
export const MAX_LABEL_CHARS = 200;

export function bad(message: string): RefereeError {
  return { code: "bad_input", message };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function isNonNegInt(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

/** Length in code points, so an emoji counts as one character. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkIntent(intent: unknown): RefereeError | null {
  if (typeof intent !== "string") return bad(`intent must be a string (one line, at most ${MAX_INTENT_CHARS} characters)`);
  const n = charCount(intent);
  if (n > MAX_INTENT_CHARS) return { code: "too_large", message: `intent has ${n} characters; at most ${MAX_INTENT_CHARS} are allowed` };
  return null;
}

export function checkLabel(name: string, v: unknown, required: boolean): RefereeError | null {
  if (typeof v !== "string") return bad(`${name} must be a string`);
  if (required && v.length === 0) return bad(`${name} must not be empty`);
  if (charCount(v) > MAX_LABEL_CHARS) return { code: "too_large", message: `${name} is longer than ${MAX_LABEL_CHARS} characters` };
  return null;
}

export function checkExpectedRevision(v: unknown): RefereeError | null {
  return isNonNegInt(v) ? null : bad("expected_revision must be a non-negative integer (the revision your last answer carried)");
}

/** A cell id inside the G×G field. */
export function checkCell(cell: unknown, G: number, where: string): RefereeError | null {
  if (!isNonNegInt(cell)) return bad(`${where}: cell id must be a non-negative integer, got ${preview(cell)}`);
  if (cell >= G * G) return bad(`${where}: cell ${cell} is out of range (cell ids run 0..${G * G - 1}, id = y*${G} + x)`);
  return null;
}

export function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/**
 * An intent as it is stored and shown (SPEC §4.4): every control character (C0, DEL, C1, and the
 * Unicode line and paragraph separators), newlines included, becomes a space, then surrounding
 * whitespace is trimmed. One line, so an intent cannot fake lines of the public log. Idempotent.
 */
export function normaliseIntent(intent: unknown): unknown {
  if (typeof intent !== "string") return intent;
  return wellFormed(intent.replace(CONTROL_CHARS, " ")).trim();
}

const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Free text as it is stored in events: a lone UTF-16 surrogate half (which JSON can carry but
 * UTF-8 cannot) becomes U+FFFD. Otherwise a verifier in another language could not encode the
 * event to hash it (SPEC §9: canonical JSON is UTF-8, the same in every language). Idempotent.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/** With the `u` flag, `\p{Cs}` matches only surrogates that are not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/gu;
