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
  /** The tiles, and the solution as the lower-numbered tile of each shared cell gives it. */
  field: Field;
  /**
   * The first shared cell whose tiles disagree, if any. The archive alone cannot say which tile
   * was changed; the regeneration can (each tile against the true field), so it is left to it, and
   * the replay, which needs one solution, refuses the field (`consistentArchiveField`).
   */
  conflict: { cell: number; tiles: [number, number] } | null;
  /** Tiles that existed before the first ring. */
  initialTiles: number;
  /** The `grow` events in log order. */
  grows: ArchiveEvent[];
}

/** Worked out once per archive object: the regeneration and the replay both start from it. */
const built = new WeakMap<AuditedArchive, ArchiveField>();

/** The archive's field for a check that judges with it: refused when two tiles disagree on a shared cell. */
export function consistentArchiveField(archive: AuditedArchive): ArchiveField {
  const out = archiveField(archive);
  if (out.conflict) {
    const { cell, tiles } = out.conflict;
    throw mismatch(`tiles ${tiles[0]} and ${tiles[1]} give shared cell ${cell} different values: one of their solutions was changed (the regeneration names which)`, { tile: tiles[1], field: "solution" });
  }
  return out;
}

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
  const scratch = new Uint8Array(G * G);
  const solution = new Uint8Array(G * G);
  // The tile whose value each cell of `solution` holds: the first (lowest id) to cover it. A ring is
  // generated on the tiles before it, so a changed later tile never alters what an earlier ring sees.
  const writer = new Int32Array(G * G).fill(-1);
  const tiles: Tile[] = [];
  let conflict: ArchiveField["conflict"] = null;
  for (let i = 0; i < archive.tiles.length; i++) {
    const row = archive.tiles[i];
    if (row.id !== i) throw mismatch(`tiles[${i}] has id ${row.id}: tiles must be listed in id order from 0`, { tile: row.id, field: "id" });
    let tile: Tile;
    try {
      tile = engineTileOf(row, G, scratch);
    } catch (err) {
      throw mismatch(err instanceof Error ? err.message : String(err), { tile: row.id, field: "shape" });
    }
    if (tile.cellIds.length !== row.cells) throw mismatch(`tile ${row.id}: cells is ${row.cells} but its shape covers ${tile.cellIds.length}`, { tile: row.id, field: "cells" });
    for (const c of tile.cellIds) {
      if (writer[c] === -1) {
        writer[c] = row.id;
        solution[c] = scratch[c];
      } else if (solution[c] !== scratch[c] && conflict === null) conflict = { cell: c, tiles: [writer[c], row.id] };
    }
    tiles.push(tile);
  }
  const grows = growEvents(archive.events);
  const initialTiles = grows.length > 0 ? Number(grows[0].first_tile) : tiles.length;
  if (!Number.isSafeInteger(initialTiles) || initialTiles < 0 || initialTiles > tiles.length) {
    throw mismatch(`event ${grows[0].rev} (grow): first_tile ${String(grows[0].first_tile)} is not a tile of the archive`, { rev: grows[0].rev, field: "first_tile" });
  }
  return { field: { G, tiles, solution }, conflict, initialTiles, grows };
}
