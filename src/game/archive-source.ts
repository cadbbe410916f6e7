import { ARCHIVE_FORMAT, archiveHealth, archiveScores, type ArchiveEvent, type ArchiveName, type ArchiveParams, type ArchiveTile, type ArchiveTileStatus } from "../daily/archive/format";
import { archiveTileOf } from "../daily/archive/tiles";
import type { ArchiveSource } from "../daily/archive/writer";
import type { FieldContext } from "./field-context";
import type { FieldShape } from "./field-types";
import type { GrowPolicy } from "./growth";
import type { FieldRules } from "../referee/types";

/** Events are read from SQLite this many at a time, so the log is never in memory whole. */
export const EVENT_PAGE = 500;

/**
 * The archive writer's source for a closed field, read from its object: the header from the
 * stored meta (releasing the seed and the key), tiles in id order from the loaded field with
 * their stored hashes and the referee's status and solver, events in revision order paged from
 * SQLite as they were chained, the final scores and health from the referee, and the machines'
 * display names as the close found them (`names`, looked up by the caller: they are not the field's).
 */
export function archiveSource(f: FieldContext, names: readonly ArchiveName[] = []): ArchiveSource {
  const referee = f.referee;
  const field = f.field;
  if (!referee || !field) throw new Error("the field is not loaded");
  if (referee.status !== "closed") throw new Error("the field is not closed");
  const meta = <T>(key: string): T => {
    const value = f.store.getMeta<T>(key);
    if (value === undefined) throw new Error(`the field has no ${key}`);
    return value;
  };
  const shape = meta<FieldShape>("params");
  const policy = f.store.getMeta<GrowPolicy>("grow_policy");
  const params: ArchiveParams = { ...shape, rules: meta<FieldRules>("rules"), ...(policy ? { growth: policy } : {}) };
  const hashes = f.hashes;
  return {
    header: {
      format: ARCHIVE_FORMAT,
      game_id: meta<string>("game_id"),
      day: meta<string>("day"),
      G: field.G,
      params,
      rings: referee.grown,
      seed_commit: meta<string>("seed_commit"),
      hash_key_commit: meta<string>("hash_key_commit"),
      day_seed: meta<string>("seed"),
      day_key: meta<string>("day_key"),
    },
    *tiles(): Generator<ArchiveTile> {
      for (const tile of field.tiles) {
        const s = referee.tileStatus(tile.id)!;
        yield archiveTileOf(tile, field.solution, field.G, hashes[tile.id], s.status as ArchiveTileStatus, s.agent);
      }
    },
    *events(): Generator<ArchiveEvent> {
      for (let after = 0; ; ) {
        const page = f.store.eventTexts(after, EVENT_PAGE, Number.MAX_SAFE_INTEGER);
        for (const row of page) yield JSON.parse(row.text) as ArchiveEvent;
        if (page.length < EVENT_PAGE) return;
        after = page[page.length - 1].rev;
      }
    },
    log_head: { hash: f.head.hash, rev: f.head.rev },
    scores: archiveScores(referee),
    health: archiveHealth(referee),
    names,
  };
}
