import { parsePictures, type PictureTile } from "../../src/text/tile-picture";

/**
 * What a model reads of a tool answer (SPEC §6 "What a model reads"): one text block, a one-line
 * summary, then what the model acts on (tile pictures, cells by coordinates), never a JSON dump of
 * `structuredContent`. Splits the text into its summary and the rest, and reads its pictures back.
 */
export function readModelText(text: string): { summary: string; rest: string; pictures: PictureTile[] } {
  if (/\{"|\[\[/.test(text)) throw new Error(`a tool answer's text must not carry JSON: ${JSON.stringify(text.slice(0, 200))}`);
  const cut = text.indexOf("\n");
  const summary = cut < 0 ? text : text.slice(0, cut);
  return { summary, rest: cut < 0 ? "" : text.slice(cut + 1), pictures: parsePictures(text) };
}

/** The picture strings an answer's structuredContent carries (`pictures`, or `observation.pictures`), by tile id. */
export function structuredPictures(structured: unknown): Record<string, string> {
  const s = (structured ?? {}) as { pictures?: Record<string, string>; observation?: { pictures?: Record<string, string> } };
  return s.pictures ?? s.observation?.pictures ?? {};
}
