/**
 * The limits of play (SPEC §4, §6), each defined once: the referee enforces them, the tools' schemas,
 * descriptions and rules state them, the public reads apply them, and the reference agent sizes its
 * calls by them. Change one here and every place that states it follows.
 */

/** Cells in one commit. */
export const MAX_COMMIT_CELLS = 512;
/** Cells in one retract. */
export const MAX_RETRACT_CELLS = 8192;
/** Characters (code points) of an intent, counted once it is normalised to one trimmed line. */
export const MAX_INTENT_CHARS = 160;
/** Tiles within this many cells of a group's territory are part of its `{agent}` view (SPEC §4.7). */
export const AGENT_RADIUS = 24;
/** Unscoped observation only on fields up to this side. */
export const FULL_MAX_G = 120;
/** A `{rect}` observation may cover at most this many cells (the area of the largest full view). */
export const RECT_MAX_AREA = FULL_MAX_G * FULL_MAX_G;
/** A public `tiles` read may cover at most this many cells (a 256 × 256 window). */
export const PUBLIC_RECT_MAX_AREA = 256 * 256;
