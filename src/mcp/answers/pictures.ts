import { PICTURE_LEGEND } from "../../text/tile-picture";
import { boxText } from "./cells";

/** A tile's geometry as answers carry it. */
export interface TileFacts {
  id?: unknown;
  tile?: unknown;
  x0: number;
  y0: number;
  w: number;
  h: number;
  cells: number;
  m: number;
}

/** A picture of a tile under a one-line header naming it (id, box, size, m). */
export function pictureBlock(id: unknown, t: TileFacts, picture: string | undefined, extra = ""): string {
  const head = `tile ${String(id)}: ${boxText(t)}, ${t.cells} cells, m=${t.m}${extra}`;
  return picture === undefined ? head : `${head}\n${picture}`;
}

/** The legend, once per answer that draws a picture. */
export const LEGEND_LINE = PICTURE_LEGEND;

/** The picture of `id` in an answer's `pictures` field. */
export function pictureOf(pictures: unknown, id: unknown): string | undefined {
  if (pictures === null || typeof pictures !== "object") return undefined;
  const p = (pictures as Record<string, unknown>)[String(id)];
  return typeof p === "string" ? p : undefined;
}
