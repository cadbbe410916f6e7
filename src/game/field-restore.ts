import type { FieldRules } from "../referee/types";
import type { FieldContext } from "./field-context";
import { errorMessage } from "./field-types";
import { rebuildReferee, type RefereeBase } from "./replay";
import { storedStatus } from "./status-gate";

/**
 * Opens the object's storage on wake, storing nothing for a game_id that was never created. An
 * object with tables but no game is a stray left by earlier versions (their constructor created
 * the tables for any game_id asked about): its storage is deleted, so it stops existing.
 */
export async function openStorage(f: FieldContext): Promise<void> {
  if (!f.store.open()) return;
  if (f.store.getMeta<string>("game_id") !== undefined) return;
  console.log("deleting the storage of a field object that holds no game");
  await f.ctx.storage.deleteAll();
  f.store.forget();
}

/**
 * Restore without ever throwing out of the constructor (which would reset the object on every
 * request): a field whose log cannot be replayed stays unloaded and answers `failed`.
 */
export function safeRestore(f: FieldContext): void {
  try {
    restore(f);
    f.loadError = null;
  } catch (err) {
    f.referee = null;
    f.loadError = errorMessage(err);
    console.error("field could not be restored", err);
  }
}

/**
 * Rebuilds memory from storage: the field, and a referee restored from the newest snapshot and
 * fed the stored inputs after it (every stored input when there is no readable snapshot).
 */
function restore(f: FieldContext): void {
  f.referee = null;
  f.field = null;
  f.hashes = [];
  f.snapshotRev = 0;
  const commit = f.store.getMeta<string>("seed_commit");
  f.head = f.store.head() ?? { hash: commit ?? "", rev: 0 };
  if (storedStatus(f) !== "playing") return;
  const field = f.store.loadField(f.store.getMeta<number>("G")!);
  const initial = f.store.getMeta<number>("initial_tiles") ?? field.tiles.length;
  const { referee, fromSnapshot } = rebuildReferee(field, initial, refereeBase(f), f.store.latestSnapshot(), (rev) => f.store.inputs(rev));
  f.referee = referee;
  f.field = field;
  f.hashes = f.store.tileHashes();
  f.revealed = referee.revealedTiles();
  // Without a usable snapshot, the next stored write takes a fresh one.
  f.snapshotRev = fromSnapshot ?? 0;
}

/** What the referee is built from besides the field, from the stored meta. */
export function refereeBase(f: FieldContext): RefereeBase {
  return {
    gameId: f.store.getMeta<string>("game_id")!,
    seed: f.store.getMeta<string>("seed")!,
    rules: f.store.getMeta<FieldRules>("rules")!,
  };
}

/** Forgets everything in memory (the storage was deleted). */
export function forgetMemory(f: FieldContext): void {
  f.referee = null;
  f.field = null;
  f.hashes = [];
  f.head = { hash: "", rev: 0 };
}
