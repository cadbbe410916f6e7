import { bytesToHex, hashKeyCommit, hexToBytes, tileEncoding, tileHash } from "../engine/commitments";
import type { Tile } from "../engine/types";
import type { FieldContext } from "./field-context";

/**
 * Tile commitments (SPEC §9): every field draws a secret 32-byte key at creation and publishes
 * `hash_key_commit`; each tile's `hash` = hex(HMAC-SHA256(key, mosaic-tile-v1 encoding)) is
 * computed as the tile comes into existence (generation, each grown ring) and stored with it.
 * The engine's WebCrypto helpers do the hashing, before the synchronous store.
 */

/** A fresh secret key, hex, and its public commitment. */
export async function drawHashKey(): Promise<{ key: string; commit: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return { key: bytesToHex(bytes), commit: await hashKeyCommit(bytes) };
}

/** The published hashes of `tiles` (in their order) under the field's key. */
export async function tileHashes(gameId: string, keyHex: string, tiles: readonly Tile[], solution: Uint8Array, G: number): Promise<string[]> {
  const key = hexToBytes(keyHex);
  const out = new Array<string>(tiles.length);
  for (let i = 0; i < tiles.length; i++) out[i] = await tileHash(key, tileEncoding(gameId, tiles[i], solution, G));
  return out;
}

/** The hashes of a field's new tiles under its key (null for a field stored before keys existed). */
export async function hashesOf(f: FieldContext, tiles: readonly Tile[], solution: Uint8Array, G: number): Promise<string[] | null> {
  const key = f.store.getMeta<string>("day_key");
  return key === undefined ? null : tileHashes(f.store.getMeta<string>("game_id")!, key, tiles, solution, G);
}
