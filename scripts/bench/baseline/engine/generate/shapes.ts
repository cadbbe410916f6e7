/**
 * Random tile shapes: unions of rectangles whose corners all lie on even coordinates, so every
 * row and column run (every line) has even length (SPEC §2 rule 1). A shape is accepted only when
 * no orientation holds more lines of one length than a safe share of the valid lines of that
 * length (SPEC §2: more than the count is unsolvable; near it, fitting against neighbours fails).
 */
import type { Rect } from "../types";
import { validLineCount } from "../lines";
import { Rng } from "../random";

export type ShapeKind = "rect" | "L" | "T" | "plus" | "ring" | "union";

export interface ShapeDraft {
  kind: ShapeKind;
  w: number;
  h: number;
  rects: Rect[];
}

/** Largest bounding-box side of a generated shape; lines stay ≤ MAX_LINE. */
export const MAX_SIDE = 18;
export const MIN_SIDE = 4;

/** Even sides 4..18 with weights favouring the middle (tuned for the SPEC §3 m-class mix). */
const SIDES = [4, 6, 8, 10, 12, 14, 16, 18];
const SIDE_WEIGHTS = [4, 6, 7, 7, 6, 5, 4, 3];
const KINDS: ShapeKind[] = ["rect", "L", "T", "plus", "ring", "union"];
const KIND_WEIGHTS = [9, 5, 4, 3, 1, 3];

/** A random even number in [lo, hi] (lo itself when the range holds no larger even number). */
const evenIn = (rng: Rng, lo: number, hi: number): number => {
  const a = Math.ceil(lo / 2);
  const b = Math.floor(hi / 2);
  return 2 * (b > a ? rng.range(a, b) : a);
};

function transform(d: ShapeDraft, flipX: boolean, flipY: boolean, transpose: boolean): ShapeDraft {
  let rects = d.rects.map(([x, y, w, h]): Rect => [flipX ? d.w - x - w : x, flipY ? d.h - y - h : y, w, h]);
  let { w, h } = d;
  if (transpose) {
    rects = rects.map(([x, y, rw, rh]): Rect => [y, x, rh, rw]);
    [w, h] = [h, w];
  }
  return { kind: d.kind, w, h, rects };
}

/** Row-major coverage mask of a draft. */
export function draftMask(d: ShapeDraft): Uint8Array {
  const mask = new Uint8Array(d.w * d.h);
  for (const [x, y, w, h] of d.rects) for (let yy = y; yy < y + h; yy++) mask.fill(1, yy * d.w + x, yy * d.w + x + w);
  return mask;
}

/** Lines per (orientation, length) within the safe share of valid lines (≤ 2/3 of them). */
export function lineCountsOk(d: ShapeDraft, mask = draftMask(d)): boolean {
  const counts = new Int32Array(2 * (MAX_SIDE + 2));
  const bump = (slot: number, len: number): boolean => {
    const n = ++counts[slot];
    return len % 2 === 0 && n * 3 <= validLineCount(len) * 2;
  };
  for (let y = 0; y < d.h; y++) {
    let run = 0;
    for (let x = 0; x <= d.w; x++) {
      if (x < d.w && mask[y * d.w + x]) run++;
      else if (run) {
        if (!bump(run, run)) return false;
        run = 0;
      }
    }
  }
  for (let x = 0; x < d.w; x++) {
    let run = 0;
    for (let y = 0; y <= d.h; y++) {
      if (y < d.h && mask[y * d.w + x]) run++;
      else if (run) {
        if (!bump(MAX_SIDE + 2 + run, run)) return false;
        run = 0;
      }
    }
  }
  return true;
}

function draftOfKind(rng: Rng, kind: ShapeKind, W: number, H: number): ShapeDraft | null {
  switch (kind) {
    case "rect":
      return { kind, w: W, h: H, rects: [[0, 0, W, H]] };
    case "L": {
      if (W < 6 || H < 6) return null;
      const a = evenIn(rng, 4, H - 2);
      const b = evenIn(rng, 4, W - 2);
      return { kind, w: W, h: H, rects: [[0, 0, W, a], [0, 0, b, H]] };
    }
    case "T": {
      if (W < 8 || H < 6) return null;
      const a = evenIn(rng, 4, H - 2);
      const b = evenIn(rng, 4, W - 4);
      const sx = evenIn(rng, 2, W - b - 2);
      return { kind, w: W, h: H, rects: [[0, 0, W, a], [sx, 0, b, H]] };
    }
    case "plus": {
      if (W < 8 || H < 8) return null;
      const a = evenIn(rng, 4, H - 4);
      const b = evenIn(rng, 4, W - 4);
      const sy = evenIn(rng, 2, H - a - 2);
      const sx = evenIn(rng, 2, W - b - 2);
      return { kind, w: W, h: H, rects: [[0, sy, W, a], [sx, 0, b, H]] };
    }
    case "ring": {
      if (W < 10 || H < 10) return null;
      const a = evenIn(rng, 4, (H - 2) / 2);
      const b = evenIn(rng, 4, (W - 2) / 2);
      if (2 * a >= H || 2 * b >= W) return null;
      return { kind, w: W, h: H, rects: [[0, 0, W, a], [0, H - a, W, a], [0, 0, b, H], [W - b, 0, b, H]] };
    }
    case "union": {
      // Two or three rectangles, each touching the union so far; the box is then trimmed.
      if (W < 6 || H < 6) return null;
      const rects: Rect[] = [[0, 0, evenIn(rng, 4, W), evenIn(rng, 4, H)]];
      const parts = rng.range(2, 3);
      for (let i = 1; i < parts; i++) {
        const rw = evenIn(rng, 4, W);
        const rh = evenIn(rng, 4, H);
        const [px, py, pw, ph] = rects[rng.int(rects.length)];
        const x = Math.min(W - rw, Math.max(0, px + evenIn(rng, 0, pw) - evenIn(rng, 0, rw)));
        const y = Math.min(H - rh, Math.max(0, py + evenIn(rng, 0, ph) - evenIn(rng, 0, rh)));
        if (x + rw <= px || px + pw <= x || y + rh <= py || py + ph <= y) return null; // must overlap
        rects.push([x, y, rw, rh]);
      }
      const minX = Math.min(...rects.map((r) => r[0]));
      const minY = Math.min(...rects.map((r) => r[1]));
      const maxX = Math.max(...rects.map((r) => r[0] + r[2]));
      const maxY = Math.max(...rects.map((r) => r[1] + r[3]));
      const trimmed = rects.map(([x, y, w, h]): Rect => [x - minX, y - minY, w, h]);
      if (trimmed.length > 1 && trimmed.every((r) => r[2] === maxX - minX && r[3] === maxY - minY)) return null;
      return { kind, w: maxX - minX, h: maxY - minY, rects: trimmed };
    }
  }
}

export interface DraftInfo {
  mask: Uint8Array;
  /** Line counts within the safe share (see lineCountsOk). */
  ok: boolean;
  /** x of the first covered cell of the top row. */
  anchorX: number;
  cells: number;
}

export function draftInfo(d: ShapeDraft): DraftInfo {
  const mask = draftMask(d);
  let anchorX = 0;
  while (!mask[anchorX]) anchorX++;
  let cells = 0;
  for (const v of mask) cells += v;
  return { mask, ok: lineCountsOk(d, mask), anchorX, cells };
}

/**
 * One random draft within the size limits, or null when the drawn kind does not fit the drawn
 * box (the caller simply tries again). Line counts are checked by the caller via draftInfo.
 */
export function randomDraft(rng: Rng, maxW = MAX_SIDE, maxH = MAX_SIDE): ShapeDraft | null {
  const W = SIDES[rng.weighted(SIDE_WEIGHTS)];
  const H = SIDES[rng.weighted(SIDE_WEIGHTS)];
  const kind = KINDS[rng.weighted(KIND_WEIGHTS)];
  const base = draftOfKind(rng, kind, W, H);
  if (!base) return null;
  const d = transform(base, rng.chance(1, 2), rng.chance(1, 2), rng.chance(1, 2));
  if (d.w < MIN_SIDE || d.h < MIN_SIDE || d.w > maxW || d.h > maxH) return null;
  return d;
}

export interface CatalogueEntry {
  draft: ShapeDraft;
  info: DraftInfo;
}

/** Size of the shape catalogue; drawing from it is one bounded integer per attempt. */
export const CATALOGUE_SIZE = 4096;
/** Fixed state words of the stream that builds the catalogue (part of the generator's spec). */
const CATALOGUE_SEED: [number, number, number, number] = [0x6d6f7361, 0x69632d73, 0x68617065, 0x73000001];

const catalogues = new Map<string, CatalogueEntry[]>();

/**
 * The shapes scatter placement draws from: CATALOGUE_SIZE valid drafts built once from a fixed
 * stream with the side and kind weights above, then restricted to those fitting maxW × maxH
 * (only tiny boards need the restriction). Deterministic: the catalogue is the same everywhere.
 */
export function shapeCatalogue(maxW = MAX_SIDE, maxH = MAX_SIDE): CatalogueEntry[] {
  const key = `${maxW}x${maxH}`;
  let cat = catalogues.get(key);
  if (cat) return cat;
  let full = catalogues.get(`${MAX_SIDE}x${MAX_SIDE}`);
  if (!full) {
    full = [];
    const rng = new Rng(...CATALOGUE_SEED);
    while (full.length < CATALOGUE_SIZE) {
      const d = randomDraft(rng);
      if (!d) continue;
      const info = draftInfo(d);
      if (info.ok) full.push({ draft: d, info });
    }
    catalogues.set(`${MAX_SIDE}x${MAX_SIDE}`, full);
  }
  cat = full.filter((e) => e.draft.w <= maxW && e.draft.h <= maxH);
  if (cat.length === 0) {
    // Boards smaller than every catalogued shape: plain even rectangles that fit.
    for (let h = MIN_SIDE; h <= maxH; h += 2) {
      for (let w = MIN_SIDE; w <= maxW; w += 2) {
        const d: ShapeDraft = { kind: "rect", w, h, rects: [[0, 0, w, h]] };
        cat.push({ draft: d, info: draftInfo(d) });
      }
    }
  }
  catalogues.set(key, cat);
  return cat;
}
