/**
 * Scatter placement: drop random shapes over a region, scanning its cells in row-major order.
 * At each uncovered cell, shapes are tried with their top-left corner jittered up/left by 0–2
 * cells, so each new tile overlaps the tiles above and to its left (shared cells are what let a
 * solved neighbour pin a tile). A few reserved "lakes" make real holes; cells where no shape fits
 * stay holes too. Every accepted tile shares at least two cells with earlier ones when any lie
 * within two cells of its anchor, and at most a set share of its cells; no cell is covered more
 * than twice.
 */
import { mForCellCount } from "../types";
import type { Rng } from "../random";
import type { Canvas, CanvasTile } from "./canvas";
import { shapeCatalogue, MIN_SIDE, MAX_SIDE, type CatalogueEntry } from "./shapes";

export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacementOptions {
  /** Reserve random holes ("lakes") before placing. */
  lakes: boolean;
  /** Largest share of a new tile's cells that may already be covered, as a percentage. */
  maxOverlapPct: number;
  /** Only cells for which this holds may anchor a new tile (others may still be covered). */
  anchorOk?: (x: number, y: number) => boolean;
  /** Shape attempts per anchor cell. */
  attempts?: number;
}

export function reserveLakes(canvas: Canvas, rng: Rng, region: Region): void {
  // About one lake per 700 cells; none on boards too small to spare the room.
  const lakes = Math.floor((region.w * region.h) / 700);
  for (let i = 0; i < lakes; i++) {
    const lw = rng.range(2, 5);
    const lh = rng.range(2, 5);
    if (lw > region.w || lh > region.h) continue;
    const x = region.x + rng.int(region.w - lw + 1);
    const y = region.y + rng.int(region.h - lh + 1);
    for (let yy = y; yy < y + lh; yy++) for (let xx = x; xx < x + lw; xx++) canvas.blocked[yy * canvas.G + xx] = 1;
  }
}

/** Cells scanned between two yields of `placeScatterSteps` (keeps each step short on big boards). */
export const PLACE_CELLS_PER_STEP = 12_000;

/** Place shapes over the region; returns the new tiles in placement order. */
export function placeScatter(canvas: Canvas, rng: Rng, region: Region, opts: PlacementOptions): CanvasTile[] {
  const steps = placeScatterSteps(canvas, rng, region, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The same placement as a generator that yields after about PLACE_CELLS_PER_STEP cells. */
export function* placeScatterSteps(canvas: Canvas, rng: Rng, region: Region, opts: PlacementOptions): Generator<void, CanvasTile[]> {
  const G = canvas.G;
  const placed: CanvasTile[] = [];
  if (region.w < MIN_SIDE || region.h < MIN_SIDE) return placed;
  if (opts.lakes) reserveLakes(canvas, rng, region);
  const attempts = opts.attempts ?? 14;
  // On small boards, shapes stay at least 2 cells narrower than the board and may overlap up to
  // half their cells, so that more than one tile fits and they share cells.
  const small = region.w < 20 || region.h < 20;
  const maxW = Math.min(MAX_SIDE, small ? Math.max(MIN_SIDE, region.w - 2) : region.w);
  const maxH = Math.min(MAX_SIDE, small ? Math.max(MIN_SIDE, region.h - 2) : region.h);
  const maxOverlapPct = small ? Math.max(opts.maxOverlapPct, 50) : opts.maxOverlapPct;
  const catalogue = shapeCatalogue(maxW, maxH);
  const rowsPerStep = Math.max(1, Math.floor(PLACE_CELLS_PER_STEP / region.w));
  // SPEC §3 asks every scatter chunk or field of side ≥ 60 for all m classes and boxes from 4 to
  // ≥ 16 a side. Large shapes (> 196 cells, which always have a side ≥ 16) and small shapes with
  // a side of 4 are the rare ends of the catalogue, so on regions that big the first attempts at
  // each anchor draw from them until one of each is placed.
  const pending: CatalogueEntry[][] = [];
  if (opts.lakes && region.w >= 40 && region.h >= 40) {
    for (const need of [(e: CatalogueEntry) => e.info.cells > 196, (e: CatalogueEntry) => e.info.cells <= 64 && Math.min(e.draft.w, e.draft.h) === 4]) {
      const subset = catalogue.filter(need);
      if (subset.length > 0) pending.push(subset);
    }
  }
  for (let cy = region.y; cy < region.y + region.h; cy++) {
    if (cy > region.y && (cy - region.y) % rowsPerStep === 0) yield;
    for (let cx = region.x; cx < region.x + region.w; cx++) {
      const anchor = cy * G + cx;
      if (canvas.cover[anchor] || canvas.blocked[anchor]) continue;
      if (opts.anchorOk && !opts.anchorOk(cx, cy)) continue;
      // Overlap is required only where there is something within reach to overlap; elsewhere
      // a tile may start a new island (later tiles below and to the right join it up).
      let nearby = false;
      for (let dy = 0; dy <= 2 && !nearby; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const x = cx + dx;
          const y = cy - dy;
          if ((dy === 0 && dx >= 0) || x < region.x || y < region.y || x >= region.x + region.w) continue;
          if (canvas.cover[y * G + x]) {
            nearby = true;
            break;
          }
        }
      }
      for (let a = 0; a < attempts; a++) {
        const from = pending.length > 0 && a < attempts / 2 ? pending[0] : catalogue;
        const { draft: d, info } = from[rng.int(from.length)];
        const mask = info.mask;
        const x0 = cx - info.anchorX - rng.int(3);
        const y0 = cy - rng.int(3);
        if (x0 < region.x || y0 < region.y || x0 + d.w > region.x + region.w || y0 + d.h > region.y + region.h) continue;
        if (!mask[(cy - y0) * d.w + (cx - x0)]) continue;
        let cells = 0;
        let overlap = 0;
        let bad = false;
        for (let ly = 0; ly < d.h && !bad; ly++) {
          for (let lx = 0; lx < d.w; lx++) {
            if (!mask[ly * d.w + lx]) continue;
            const c = (y0 + ly) * G + x0 + lx;
            if (canvas.blocked[c] || canvas.cover[c] >= 2) {
              bad = true;
              break;
            }
            cells++;
            if (canvas.cover[c]) overlap++;
          }
        }
        if (bad) continue;
        if (nearby && overlap < 2) continue;
        if (overlap * 100 > cells * maxOverlapPct) continue;
        placed.push(canvas.addTile({ x0, y0, w: d.w, h: d.h, rects: d.rects }, d.kind, mForCellCount(cells)));
        if (from !== catalogue) pending.shift();
        break;
      }
    }
  }
  return placed;
}
