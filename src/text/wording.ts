// Wording shared by what the server tells a model and what the site and the auditor print: a count
// with its noun, and a short list of ids. Pure, so the referee, the tools, the auditor and the page
// all word a count the same way.

/** "1 tile", "3 tiles": a count with its (regular) noun; `format` writes the number, e.g. with separators. */
export function counted(n: number, noun: string, format: (n: number) => string = String): string {
  return `${format(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** The first `max` ids of a list for a message, "3, 5, 8 and 4 more"; the full list travels in the answer's fields. */
export function idList(ids: readonly unknown[], max = 8): string {
  if (ids.length === 0) return "none";
  const shown = ids.slice(0, max).map(String).join(", ");
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

/** "tile 6", "tiles 6, 9 and 4 more": a noun named by its ids. */
export function named(noun: string, ids: readonly unknown[], max = 8): string {
  return `${noun}${ids.length === 1 ? "" : "s"} ${idList(ids, max)}`;
}
