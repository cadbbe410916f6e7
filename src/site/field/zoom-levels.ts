/**
 * Pixels per cell from which each overlay is drawn: below them it would be clutter (or, for the
 * digits and labels, unreadable and costly to draw on every cell).
 */
export const ZOOM = {
  tileEdges: 5,
  rejectedMarks: 6,
  grid: 8,
  solverLabels: 10,
  /** Tile edges drawn 2 px wide. */
  thickTileEdges: 12,
  digits: 22,
  /** Outlines dashed (dashes are the costly part of a long stroke). */
  dashes: 4,
} as const;
