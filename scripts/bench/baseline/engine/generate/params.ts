/** Field parameters (SPEC §3): defaults and range validation. */
import type { FieldKind } from "../types";

export interface FieldParams {
  kind: FieldKind;
  seed: string;
  G?: number;
  n?: number;
  chunks?: number;
  chunk_g?: number;
  grow?: boolean;
}

export interface ResolvedParams {
  kind: FieldKind;
  seed: string;
  /** Side of the board (for a growing field: of the whole canvas). */
  G: number;
  n: number;
  chunks: number;
  chunk_g: number;
  grow: boolean;
  /** Top-left of the initial chunk cluster on the canvas (0 unless growing). */
  origin: number;
}

export const DEFAULTS = { scatterG: 100, n: 14, chunks: 3, chunk_g: 60, canvas: 1000 } as const;

function intIn(name: string, v: number, lo: number, hi: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`${name} must be an integer in ${lo}..${hi}, got ${String(v)}`);
  }
  return v;
}

export function resolveParams(p: FieldParams): ResolvedParams {
  if (typeof p.seed !== "string") throw new RangeError("seed must be a string");
  const kind = p.kind ?? "scatter";
  if (kind !== "scatter" && kind !== "grid" && kind !== "field") {
    throw new RangeError(`kind must be scatter, grid or field, got ${String(kind)}`);
  }
  const grow = p.grow === true;
  if (grow && kind !== "field") throw new RangeError("grow applies to kind field only");
  const base = { kind, seed: p.seed, grow, n: DEFAULTS.n, chunks: DEFAULTS.chunks, chunk_g: DEFAULTS.chunk_g, origin: 0 };
  if (kind === "scatter") {
    return { ...base, G: intIn("G", p.G ?? DEFAULTS.scatterG, 6, 1000) };
  }
  if (kind === "grid") {
    const n = intIn("n", p.n ?? DEFAULTS.n, 6, 16);
    if (n % 2 !== 0) throw new RangeError(`n must be even, got ${n}`);
    const G = intIn("G", p.G ?? 2 * (n - 1) + 1, 6, 1000);
    if ((G - 1) % (n - 1) !== 0 || G < n) {
      throw new RangeError(`G-1 must be a positive multiple of n-1 (${n - 1}) for a grid, got G=${G}`);
    }
    // One square alone shares no cell, so nothing could ever pin it (SPEC §2).
    if (G < 2 * n - 1) throw new RangeError(`a grid needs at least 2×2 squares: G ≥ ${2 * n - 1} for n=${n}, got G=${G}`);
    return { ...base, n, G };
  }
  const chunks = intIn("chunks", p.chunks ?? DEFAULTS.chunks, 2, 12);
  const chunk_g = intIn("chunk_g", p.chunk_g ?? DEFAULTS.chunk_g, 40, 120);
  const side = chunks * chunk_g;
  if (!grow) return { ...base, chunks, chunk_g, G: side };
  const G = p.G !== undefined && p.G >= 200 ? intIn("G", p.G, 200, 1000) : DEFAULTS.canvas;
  if (G < side) throw new RangeError(`canvas G=${G} is smaller than the initial ${chunks}×${chunk_g} chunks (${side})`);
  return { ...base, chunks, chunk_g, G, origin: Math.floor((G - side) / 2) };
}
