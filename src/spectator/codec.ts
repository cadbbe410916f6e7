/**
 * Compact encodings of the spectator snapshot and live batches (docs/spectator.md): sorted ids as
 * gaps, cell sets as run lengths plus a base64 bitstring of values, tile geometry in columns.
 * Pure: `btoa`/`atob` exist in browsers, workerd and Node.
 */
import type { PackedCells, PackedTiles, Rect, TileGeometry } from "./types";

/** Ascending ids → gaps from 0 (decode by cumulative sum). */
export function encodeGaps(sortedIds: Iterable<number>): number[] {
  const out: number[] = [];
  let prev = 0;
  for (const id of sortedIds) {
    out.push(id - prev);
    prev = id;
  }
  return out;
}

export function decodeGaps(gaps: readonly number[]): number[] {
  const out = new Array<number>(gaps.length);
  let id = 0;
  for (let i = 0; i < gaps.length; i++) {
    id += gaps[i];
    out[i] = id;
  }
  return out;
}

/** Cells with a value (`-1` = unknown) → alternating runs (unknown first) and base64 value bits. */
export function packCells(values: Int8Array): PackedCells {
  const runs: number[] = [];
  const bits: number[] = [];
  let known = false;
  let run = 0;
  for (let c = 0; c < values.length; c++) {
    const isKnown = values[c] !== -1;
    if (isKnown !== known) {
      runs.push(run);
      run = 0;
      known = isKnown;
    }
    run++;
    if (isKnown) bits.push(values[c]);
  }
  if (known) runs.push(run);
  return { runs, values: bitsToBase64(bits) };
}

/** The inverse of packCells into a fresh array of `size` cells. */
export function unpackCells(packed: PackedCells, size: number): Int8Array {
  return unpackCellsInto(packed, new Int8Array(size).fill(-1));
}

/**
 * The inverse of packCells into `out` (one entry per cell, already -1 where unknown): the known
 * cells' values are written, nothing else is touched. Lets a page decode a large field straight
 * into the array it draws from.
 */
export function unpackCellsInto(packed: PackedCells, out: Int8Array): Int8Array {
  const size = out.length;
  const bytes = base64ToBytes(packed.values);
  let c = 0;
  let bit = 0;
  for (let i = 0; i < packed.runs.length; i++) {
    const n = packed.runs[i];
    if (c + n > size) throw new Error("packed cells run past the end of the field");
    if (i % 2 === 1) {
      for (let k = 0; k < n; k++) {
        const byte = bytes[bit >> 3];
        if (byte === undefined) throw new Error("packed cells: too few value bits");
        out[c + k] = (byte >> (7 - (bit & 7))) & 1;
        bit++;
      }
    }
    c += n;
  }
  return out;
}

function bitsToBase64(bits: readonly number[]): string {
  const bytes = new Uint8Array(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits[i]) bytes[i >> 3] |= 0x80 >> (i & 7);
  return bytesToBase64(bytes);
}

export function bytesToBase64(bytes: Uint8Array): string {
  let text = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) text += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(text);
}

export function base64ToBytes(b64: string): Uint8Array {
  const text = atob(b64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** Tiles (ascending ids) → columns; a tile that is its whole box writes a rect count of 0. */
export function packTiles(tiles: readonly TileGeometry[]): PackedTiles {
  const packed: PackedTiles = { ids: encodeGaps(tiles.map((t) => t.id)), x0: [], y0: [], w: [], h: [], m: "", rects: [] };
  const m: string[] = [];
  for (const t of tiles) {
    packed.x0.push(t.x0);
    packed.y0.push(t.y0);
    packed.w.push(t.w);
    packed.h.push(t.h);
    m.push(String(t.m));
    if (isWholeBox(t)) packed.rects.push(0);
    else {
      packed.rects.push(t.rects.length);
      for (const r of t.rects) packed.rects.push(r[0], r[1], r[2], r[3]);
    }
  }
  packed.m = m.join("");
  return packed;
}

export function unpackTiles(packed: PackedTiles): TileGeometry[] {
  const ids = decodeGaps(packed.ids);
  const out: TileGeometry[] = new Array(ids.length);
  let r = 0;
  for (let i = 0; i < ids.length; i++) {
    const w = packed.w[i];
    const h = packed.h[i];
    const n = packed.rects[r++];
    let rects: Rect[];
    if (n === 0) rects = [[0, 0, w, h]];
    else {
      rects = [];
      for (let k = 0; k < n; k++, r += 4) rects.push([packed.rects[r], packed.rects[r + 1], packed.rects[r + 2], packed.rects[r + 3]]);
    }
    out[i] = { id: ids[i], x0: packed.x0[i], y0: packed.y0[i], w, h, rects, m: Number(packed.m[i]) };
  }
  return out;
}

function isWholeBox(t: TileGeometry): boolean {
  if (t.rects.length !== 1) return false;
  const [lx, ly, w, h] = t.rects[0];
  return lx === 0 && ly === 0 && w === t.w && h === t.h;
}

/** Global cell ids covered by a tile, ascending (row-major over its box). */
export function tileCells(t: TileGeometry, G: number): number[] {
  const mask = new Uint8Array(t.w * t.h);
  for (const [rx, ry, rw, rh] of t.rects) for (let y = ry; y < ry + rh; y++) mask.fill(1, y * t.w + rx, y * t.w + rx + rw);
  const out: number[] = [];
  for (let ly = 0; ly < t.h; ly++) for (let lx = 0; lx < t.w; lx++) if (mask[ly * t.w + lx]) out.push((t.y0 + ly) * G + t.x0 + lx);
  return out;
}
