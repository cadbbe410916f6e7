import type { TileStatus } from "./scene-tiles";

/** What the page knows of one cell: the canvas's text equivalent is built from this alone. */
export interface CellFacts {
  x: number;
  y: number;
  /** -1 unknown, else the accepted value. */
  value: number;
  /** A wrong value was rejected here and the cell is still unknown (its value is never shown). */
  rejected: boolean;
  /** The tile the cell shows (the most advanced one covering it), or null for none known. */
  tile: { id: number; status: TileStatus; m: number; cells: number } | null;
  /** The solver's display name, for a solved tile. */
  solver: string | null;
}

/**
 * One sentence naming the cell under the keyboard's focus and its tile, as a screen reader says it
 * (SPEC §10: the canvas has a text equivalent), e.g. "Cell (12, 7): 1. Tile 34, solved by Ada, m 3, 16 cells."
 */
export function describeCell(f: CellFacts): string {
  const cell = `Cell (${f.x}, ${f.y})`;
  if (!f.tile) return `${cell}: no tile here, or none reached yet.`;
  const value = f.value >= 0 ? String(f.value) : f.rejected ? "unknown, a wrong value was rejected" : "unknown";
  const status = f.tile.status === "solved" && f.solver ? `solved by ${f.solver}` : f.tile.status;
  return `${cell}: ${value}. Tile ${f.tile.id}, ${status}, m ${f.tile.m}, ${f.tile.cells} cells.`;
}
