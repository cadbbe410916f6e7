import type { Tags } from "./types";
import { charCount, isRecord, wellFormed } from "./validate";

export const MAX_TAGS = 32;
export const MAX_TAG_NAME_CHARS = 64;
export const MAX_TAG_VALUE_CHARS = 200;

/**
 * Tags as stored and shown: an object of string → string. A list of strings is accepted too,
 * each read as a tag with the value "" (the form earlier versions stored, so old logs replay).
 * Built with Object.fromEntries, so a tag named `__proto__` stays an ordinary entry.
 */
export function normaliseTags(tags: unknown): { ok: true; tags: Tags } | { ok: false; message: string } {
  let entries: Array<[string, unknown]>;
  if (Array.isArray(tags)) entries = tags.map((t): [string, unknown] => [t as string, ""]);
  else if (isRecord(tags)) entries = Object.entries(tags);
  else return { ok: false, message: "tags must be an object of string → string (or a list of strings)" };
  if (entries.length > MAX_TAGS) return { ok: false, message: `at most ${MAX_TAGS} tags, got ${entries.length}` };
  for (const [name, value] of entries) {
    if (typeof name !== "string" || name.length === 0 || charCount(name) > MAX_TAG_NAME_CHARS) {
      return { ok: false, message: `tags: every tag name must be a string of 1..${MAX_TAG_NAME_CHARS} characters` };
    }
    if (typeof value !== "string" || charCount(value) > MAX_TAG_VALUE_CHARS) {
      return { ok: false, message: `tags: the value of ${JSON.stringify(name)} must be a string of at most ${MAX_TAG_VALUE_CHARS} characters` };
    }
  }
  return { ok: true, tags: Object.fromEntries(entries.map(([name, value]) => [wellFormed(name), wellFormed(value as string)])) as Tags };
}

/** A stored agent's tags, copied (snapshots written before tags were objects hold a list). */
export function copyTags(tags: unknown): Tags {
  const normal = normaliseTags(tags);
  return normal.ok ? normal.tags : {};
}
