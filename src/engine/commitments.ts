/**
 * Commitments of the daily field (SPEC §9): the tile encoding mosaic-tile-v1, the seed and key
 * commitments, per-tile HMACs and the hash chain of the event log. WebCrypto only
 * (`crypto.subtle`), so the same code runs in Workers, Node and browsers — and an auditor gets
 * bit-identical answers from any of them.
 */
import { canonicalJson } from "./canonical-json";
import { shapeMask } from "./geometry";
import type { Tile, TileShape } from "./types";

const utf8 = new TextEncoder();

// ---- hex ------------------------------------------------------------------------------------

const HEX = "0123456789abcdef";

/** Lower-case hex of bytes. */
export function bytesToHex(bytes: Uint8Array | ArrayBuffer): string {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (let i = 0; i < b.length; i++) out += HEX[b[i] >> 4] + HEX[b[i] & 15];
  return out;
}

/** Bytes of a hex string (either case); throws on odd length or a non-hex digit. */
export function hexToBytes(hex: string): Uint8Array {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new TypeError("hex: expected an even number of hex digits");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

// ---- hashing --------------------------------------------------------------------------------

/** The bytes in a buffer of their own (WebCrypto wants an ArrayBuffer-backed view). */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/** hex(SHA-256(data)); a string is hashed as its UTF-8 bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? utf8.encode(data) : own(data);
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** hex(HMAC-SHA256(key, message)); a string message is taken as its UTF-8 bytes. */
export async function hmacSha256Hex(key: Uint8Array, message: string | Uint8Array): Promise<string> {
  const k = await crypto.subtle.importKey("raw", own(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const bytes = typeof message === "string" ? utf8.encode(message) : own(message);
  return bytesToHex(await crypto.subtle.sign("HMAC", k, bytes));
}

// ---- commitments ----------------------------------------------------------------------------

/** seed_commit = hex(SHA-256(utf8("mosaic-day-seed-v1|" + day_seed))). */
export function seedCommit(daySeed: string): Promise<string> {
  return sha256Hex(`mosaic-day-seed-v1|${daySeed}`);
}

/** hash_key_commit = hex(SHA-256(day_key raw bytes)). */
export function hashKeyCommit(dayKeyBytes: Uint8Array): Promise<string> {
  return sha256Hex(dayKeyBytes);
}

/** A tile's published hash: hex(HMAC-SHA256(day_key, utf8(tile_encoding))). */
export function tileHash(dayKeyBytes: Uint8Array, encoding: string): Promise<string> {
  return hmacSha256Hex(dayKeyBytes, encoding);
}

/** An event's hash: hex(SHA-256(prev_hash + "|" + canonical JSON of the event without its hash)). */
export function chainEventHash(prevHash: string, eventWithoutHash: object): Promise<string> {
  if ("hash" in eventWithoutHash) throw new TypeError("chainEventHash: the event must not carry its own hash");
  return sha256Hex(`${prevHash}|${canonicalJson(eventWithoutHash)}`);
}

// ---- tile encoding (mosaic-tile-v1) ---------------------------------------------------------

/** The tile's cells in row-major order over its bounding box, cells outside the shape skipped. */
function boxOrderCells(tile: TileShape, G: number): number[] {
  const mask = shapeMask(tile);
  const cells: number[] = [];
  for (let ly = 0; ly < tile.h; ly++) {
    for (let lx = 0; lx < tile.w; lx++) if (mask[ly * tile.w + lx]) cells.push((tile.y0 + ly) * G + tile.x0 + lx);
  }
  return cells;
}

/** One `0`/`1` per cell of the tile (box row-major, outside cells skipped), from the field's
 * solution indexed by cell id. */
export function tileSolutionString(tile: TileShape, solution: Uint8Array, G: number): string {
  return boxOrderCells(tile, G)
    .map((c) => {
      const v = solution[c];
      if (v !== 0 && v !== 1) throw new RangeError(`tile ${tile.id}: cell ${c} has no 0/1 solution value`);
      return v === 1 ? "1" : "0";
    })
    .join("");
}

/** Same length as the solution string: `1` where the cell is one of the tile's givens. */
export function tileGivensString(tile: TileShape & { givens: readonly number[] }, G: number): string {
  const givens = new Set(tile.givens);
  const cells = boxOrderCells(tile, G);
  const inTile = new Set(cells);
  for (const g of givens) if (!inTile.has(g)) throw new RangeError(`tile ${tile.id}: given ${g} is not a cell of the tile`);
  return cells.map((c) => (givens.has(c) ? "1" : "0")).join("");
}

/**
 * mosaic-tile-v1|<game_id>|<tile id>|<x0>,<y0>,<w>,<h>|<rects>|<solution>|<givens>
 * with rects as `lx,ly,w,h` joined by `;` in the tile's own order.
 */
export function tileEncoding(gameId: string, tile: Tile, solution: Uint8Array, G: number): string {
  if (gameId.includes("|")) throw new RangeError(`game id ${JSON.stringify(gameId)} contains "|"`);
  const ints = [tile.id, tile.x0, tile.y0, tile.w, tile.h, ...tile.rects.flat()];
  for (const n of ints) if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`tile ${tile.id}: bad geometry number ${n}`);
  const rects = tile.rects.map((r) => r.join(",")).join(";");
  return [
    "mosaic-tile-v1",
    gameId,
    String(tile.id),
    `${tile.x0},${tile.y0},${tile.w},${tile.h}`,
    rects,
    tileSolutionString(tile, solution, G),
    tileGivensString(tile, G),
  ].join("|");
}
