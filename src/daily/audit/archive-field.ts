/**
 * The field an archive describes, rebuilt as the engine's `Field` (tiles with cell ids and givens,
 * the whole solution), and the ring layout its `grow` events give. The replay judges with it.
 */
import type { Field, Tile } from "../../engine/types";
import type { ArchiveEvent } from "../archive/format";
import { engineTileOf } from "../archive/tiles";
import { growEvents, type AuditedArchive } from "./event-log";
import { mismatch } from "./mismatch";

export interface ArchiveField {
  field: Field;
  /** Tiles that existed before the first ring. */
  initialTiles: number;
  /** The `grow` events in log order. */
  grows: ArchiveEvent[];
}

/** Worked out once per archive object: the regeneration and the replay both start from it. */
const built = new WeakMap<AuditedArchive, ArchiveField>();

export function archiveField(archive: AuditedArchive): ArchiveField {
  let out = built.get(archive);
  if (!out) {
    out = buildArchiveField(archive);
    built.set(archive, out);
  }
  return out;
}

function buildArchiveField(archive: AuditedArchive): ArchiveField {
  const G = archive.G;
  const solution = new Uint8Array(G * G);
  // The tile whose value each cell of `solution` holds (the last one written), to name both sides of a disagreement.
  const writer = new Int32Array(G * G).fill(-1);
  const tiles: Tile[] = [];
  for (let i = 0; i < archive.tiles.length; i++) {
    const row = archive.tiles[i];
    if (row.id !== i) throw mismatch(`tiles[${i}] has id ${row.id}: tiles must be listed in id order from 0`, { tile: row.id, field: "id" });
    let tile: Tile;
    try {
      tile = engineTileOf(row, G, solution);
    } catch (err) {
      throw mismatch(err instanceof Error ? err.message : String(err), { tile: row.id, field: "shape" });
    }
    if (tile.cellIds.length !== row.cells) throw mismatch(`tile ${row.id}: cells is ${row.cells} but its shape covers ${tile.cellIds.length}`, { tile: row.id, field: "cells" });
    for (const c of tile.cellIds) writer[c] = row.id;
    tiles.push(tile);
  }
  // Shared cells hold one value: a second pass compares every tile's string with the merged solution.
  for (const row of archive.tiles) {
    const tile = tiles[row.id];
    for (let k = 0; k < tile.cellIds.length; k++) {
      const c = tile.cellIds[k];
      if (solution[c] !== row.solution.charCodeAt(k) - 48) {
        throw mismatch(`tiles ${row.id} and ${writer[c]} give shared cell ${c} different values: one of their solutions was changed`, { tile: row.id, field: "solution" });
      }
    }
  }
  const grows = growEvents(archive.events);
  const initialTiles = grows.length > 0 ? Number(grows[0].first_tile) : tiles.length;
  if (!Number.isSafeInteger(initialTiles) || initialTiles < 0 || initialTiles > tiles.length) {
    throw mismatch(`event ${grows[0].rev} (grow): first_tile ${String(grows[0].first_tile)} is not a tile of the archive`, { rev: grows[0].rev, field: "first_tile" });
  }
  return { field: { G, tiles, solution }, initialTiles, grows };
}
