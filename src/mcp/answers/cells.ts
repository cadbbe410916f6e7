// Cells and tiles named for a model without code (SPEC §6 "What a model reads"): coordinates, never
// flat ids, and lists cut where they stop being useful (the full lists stay in structuredContent).

import { idList } from "../../text/wording";

export { xy, xyv } from "../../text/coordinates";

/** Items joined by spaces, at most `max` of them, then "and N more". */
export function capped(items: readonly string[], max: number): string {
  if (items.length <= max) return items.join(" ");
  return `${items.slice(0, max).join(" ")} and ${items.length - max} more`;
}

/** "12, 15, 19": tile ids, all of them up to `max`. */
export function tileIds(ids: unknown, max = 20): string {
  return idList(arr(ids), max);
}

/** An answer's lines, the absent and empty ones left out. */
export function lines(...parts: Array<string | null | undefined | false>): string {
  return parts.filter((p): p is string => typeof p === "string" && p.length > 0).join("\n");
}

/** An array field of an answer, or an empty one. */
export function arr<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

/** A tile's box in words: "x 118..133, y 40..55". */
export function boxText(t: { x0: number; y0: number; w: number; h: number }): string {
  return `x ${t.x0}..${t.x0 + t.w - 1}, y ${t.y0}..${t.y0 + t.h - 1}`;
}

/** The field's rules as one line, when the answer carries them (`rules: {guess, depth, fog}`). */
export function rulesLine(rules: unknown): string | null {
  if (rules === null || typeof rules !== "object") return null;
  const r = rules as { guess?: unknown; depth?: unknown; fog?: unknown };
  if (r.guess === undefined && r.depth === undefined && r.fog === undefined) return null;
  return `rules: guess ${String(r.guess ?? "?")}, depth ${String(r.depth ?? "?")}, fog ${r.fog === true ? "on" : r.fog === false ? "off" : "?"}`;
}

/**
 * What to do after a picture: how to send cells. One place, so that the wording follows the commit
 * arguments the server takes.
 */
export function commitHint(revision: unknown): string {
  return `Next: commit the cells you can deduce as xy triples [x, y, v] (coordinates as drawn), expected_revision ${String(revision)}.`;
}
