/**
 * Layouts: which stages build a field of each kind (SPEC §3), and the geometry of chunk rings.
 *
 * - scatter: one stage over the whole board, with lakes.
 * - grid: the n×n squares at steps of n-1, as one stage (retried under a new label if a tile
 *   cannot be filled, so the layout is always complete).
 * - field: every chunk is its own stage (shapes and values) over the chunk minus a band of BAND
 *   cells on its right and bottom edges (so chunks never touch and are independent); then a seam
 *   stage drops connector tiles anchored in the bands, overlapping the chunks on both sides, and
 *   stitches: a connector that cannot be filled against the chunks' values is re-solved together
 *   with the chunk tiles it overlaps (this ring's tiles only; a grown field's existing tiles stay
 *   fixed), so far fewer connectors are dropped; then one stage chooses the givens of all of them.
 *   Ring k of a growing field is the same: its chunks, then seams, over the ring's square.
 */
import type { Canvas, CanvasTile } from "./canvas";
import { mForCellCount } from "../types";
import type { ResolvedParams } from "./params";
import type { Region } from "./placement";
import type { StageSpec } from "./stage";

export const BAND = 6;
const CORE_OVERLAP_PCT = 35;
const SEAM_OVERLAP_PCT = 60;

/** Chunk grid coordinates (i, j) of ring k, row-major, only chunks that fit on the canvas. */
export function ringChunks(p: ResolvedParams, k: number): { i: number; j: number; region: Region }[] {
  const out: { i: number; j: number; region: Region }[] = [];
  const lo = -k;
  const hi = p.chunks + k - 1;
  for (let j = lo; j <= hi; j++) {
    for (let i = lo; i <= hi; i++) {
      if (k > 0 && i !== lo && i !== hi && j !== lo && j !== hi) continue;
      const x = p.origin + i * p.chunk_g;
      const y = p.origin + j * p.chunk_g;
      if (x < 0 || y < 0 || x + p.chunk_g > p.G || y + p.chunk_g > p.G) continue;
      out.push({ i, j, region: { x, y, w: p.chunk_g, h: p.chunk_g } });
    }
  }
  return out;
}

/** The stages of ring k of a chunked field (k = 0: the initial chunks). Empty: no room left. */
export function ringStages(p: ResolvedParams, k: number): StageSpec[] {
  const chunks = ringChunks(p, k);
  if (chunks.length === 0) return [];
  const stages: StageSpec[] = chunks.map(({ i, j, region }) => ({
    label: `ring/${k}/chunk/${i},${j}`,
    region: { x: region.x, y: region.y, w: region.w - BAND, h: region.h - BAND },
    place: { lakes: true, maxOverlapPct: CORE_OVERLAP_PCT },
    deferGivens: true,
  }));
  // Seams over the square the cluster occupies after this ring, clipped to the canvas.
  const x0 = Math.max(0, p.origin - k * p.chunk_g);
  const x1 = Math.min(p.G, p.origin + (p.chunks + k) * p.chunk_g);
  const cg = p.chunk_g;
  const o = p.origin;
  const inBand = (v: number): boolean => (((v - o) % cg) + cg) % cg >= cg - BAND;
  stages.push({
    label: `ring/${k}/seams`,
    region: { x: x0, y: x0, w: x1 - x0, h: x1 - x0 },
    place: { lakes: false, maxOverlapPct: SEAM_OVERLAP_PCT, anchorOk: (x, y) => inBand(x) || inBand(y) },
    deferGivens: true,
    // Chunk tiles have no givens yet, so the seams may still adjust their values.
    stitch: true,
  });
  // Givens last, for the chunks' and the seams' tiles together: each tile's pin sets then
  // include its neighbours across chunk borders, so play crosses from chunk to chunk.
  stages.push({ label: `ring/${k}/givens`, region: { x: x0, y: x0, w: x1 - x0, h: x1 - x0 }, givensOnly: true });
  return stages;
}

/** The scatter stage; attempt k > 0 (a retry on a tiny board) draws from streams `scatter/k/…`. */
export function scatterStages(p: ResolvedParams, attempt = 0): StageSpec[] {
  const label = attempt === 0 ? "scatter" : `scatter/${attempt}`;
  return [{ label, region: { x: 0, y: 0, w: p.G, h: p.G }, place: { lakes: true, maxOverlapPct: CORE_OVERLAP_PCT } }];
}

/** The grid's squares, placed on the canvas (row-major). */
export function placeGrid(canvas: Canvas, p: ResolvedParams): CanvasTile[] {
  const per = (p.G - 1) / (p.n - 1);
  const tiles: CanvasTile[] = [];
  for (let j = 0; j < per; j++) {
    for (let i = 0; i < per; i++) {
      const shape = { x0: i * (p.n - 1), y0: j * (p.n - 1), w: p.n, h: p.n, rects: [[0, 0, p.n, p.n]] as [number, number, number, number][] };
      tiles.push(canvas.addTile(shape, "rect", mForCellCount(p.n * p.n)));
    }
  }
  return tiles;
}
