import type { TileShape } from "../engine/types";

/**
 * What the referee needs from propagation to classify a correct cell as forced or guess
 * (SPEC §4.5). The engine's `Propagator` has exactly this shape; the interface keeps the
 * referee independent of how propagation is implemented (and lets tests plug a slow
 * reference evaluation in beside it).
 */
export type ForcingRule = "run" | "balance" | "unique" | "bifurcation";

export interface Forcing {
  value: 0 | 1;
  rule: ForcingRule;
}

export interface ForcingOracle {
  /** Register a tile; ids are appended in order 0, 1, 2, … */
  addTile(tile: TileShape & { cellIds: number[] }): void;
  /** The tile's lines now take part in propagation. */
  reveal(tileId: number): void;
  setKnown(cell: number, value: 0 | 1): void;
  clearKnown(cell: number): void;
  /** The value propagation over the known cells of revealed tiles fixes for an unknown cell, if any. */
  forcedValue(cell: number): Forcing | null;
  /**
   * Do now the propagation a lazy oracle would do at the next `forcedValue` (optional). The
   * closure and its rules are the same whenever they are worked out; only when the time is paid changes.
   */
  settle?(): void;
}

export type ForcingOracleFactory = (G: number, depth: 0 | 1 | 2) => ForcingOracle;
