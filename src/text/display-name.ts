// Names that other people chose (an OAuth client's `client_name`) shown to a person who decides
// by them: on the consent page, in the key-file CLI, in grant lists. Pure, so the CLI's copy of
// the rule (scripts/mosaic-identity.mjs) can be tested against the same cases.

/** How many characters of a self-declared name are shown: enough for any real product name. */
export const SHOWN_NAME_MAX = 60;

/**
 * Control characters (C0, DEL, C1: terminal escapes, carriage returns), format characters
 * (bidi embeddings, overrides and isolates, zero-width spaces and joiners, the BOM, tag
 * characters), line and paragraph separators, and the invisible Hangul fillers.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/gu;

/**
 * The name as it may be shown: hidden characters dropped (each becomes a space, so words they
 * separated stay apart), runs of white space made one space, trimmed, and cut to `max`
 * characters (code points, never half a surrogate pair) with "…" when cut. Null when nothing
 * visible is left.
 */
export function shownName(text: unknown, max = SHOWN_NAME_MAX): string | null {
  if (typeof text !== "string") return null;
  const clean = text.replace(HIDDEN, " ").replace(/\s+/gu, " ").trim();
  if (clean === "") return null;
  const chars = Array.from(clean);
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}
