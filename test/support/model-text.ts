/**
 * What a model reads of a tool answer (SPEC §6): one text block, the one-line summary, a newline,
 * then the compact JSON of `structuredContent`. Splits the text back into its two parts.
 */
export function readModelText(text: string): { summary: string; data: unknown } {
  const cut = text.indexOf("\n");
  if (cut < 0) throw new Error(`a tool answer's text has no data line: ${JSON.stringify(text.slice(0, 200))}`);
  const json = text.slice(cut + 1);
  if (json.includes("\n")) throw new Error("the data line must be compact JSON (no newline)");
  return { summary: text.slice(0, cut), data: JSON.parse(json) as unknown };
}
