/**
 * Check 3 (SPEC §9): every tile's HMAC-SHA256 under the released key, over its mosaic-tile-v1
 * encoding, equals its archived `hash` — and the hash published live, when the watcher saved them.
 */
import { hexToBytes } from "../../engine/commitments";
import { webCryptoHashing, type Hashing } from "./hashing";
import { Breather } from "./abort";
import type { ArchiveTile } from "../archive/format";
import type { AuditedArchive } from "./event-log";
import { mismatch, type Progress } from "./mismatch";

/** mosaic-tile-v1|<game_id>|<id>|<x0>,<y0>,<w>,<h>|<rects>|<solution>|<givens>, from an archive row. */
export function archiveTileEncoding(gameId: string, t: ArchiveTile): string {
  const rects = t.rects.map((r) => r.join(",")).join(";");
  return `mosaic-tile-v1|${gameId}|${t.id}|${t.x0},${t.y0},${t.w},${t.h}|${rects}|${t.solution}|${t.givens}`;
}

export async function checkTileHashes(
  archive: AuditedArchive,
  saved: Map<number, string> | undefined,
  progress?: Progress,
  hashing: Hashing = webCryptoHashing,
  savedGameId?: string,
  signal?: AbortSignal,
): Promise<string> {
  const breather = new Breather(signal);
  // Hashes saved from another day would differ at tile 0: say what is really wrong.
  if (saved && savedGameId !== undefined && savedGameId !== archive.game_id) {
    throw mismatch(`the saved hashes are of ${savedGameId}, not of this archive's ${archive.game_id}`, { field: "game_id" });
  }
  const hmac = await hashing.hmacSha256Hex(hexToBytes(archive.day_key));
  const tiles = archive.tiles;
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i];
    if (t.id !== i) throw mismatch(`tiles[${i}] has id ${t.id}: tiles must be listed in id order from 0`, { tile: t.id, field: "id" });
    const computed = await hmac(archiveTileEncoding(archive.game_id, t));
    if (computed !== t.hash) {
      throw mismatch(`tile ${t.id}: hash differs: HMAC of the archived tile is ${computed}, the archive says ${t.hash} (its geometry, solution or givens were changed, or the key is wrong)`, { tile: t.id, field: "hash" });
    }
    const live = saved?.get(t.id);
    if (saved && live !== undefined && live !== t.hash) {
      throw mismatch(`tile ${t.id}: hash differs from the one published live: archive ${t.hash}, saved ${live}`, { tile: t.id, field: "hash" });
    }
    if ((i & 255) === 255) {
      progress?.("hashes", i + 1, tiles.length);
      await breather.tick();
    }
  }
  progress?.("hashes", tiles.length, tiles.length);
  if (!saved) return `${tiles.length} tile HMACs equal their hashes`;
  for (const id of saved.keys()) {
    if (!Number.isSafeInteger(id) || id < 0 || id >= tiles.length) throw mismatch(`tile ${id} was published live but is not in the archive`, { tile: id, field: "hash" });
  }
  return `${tiles.length} tile HMACs equal their hashes and the ${saved.size} hashes saved live`;
}
