import type { FieldContext } from "./field-context";
import { fail, type LogHead, type Outcome } from "./field-types";
import { close } from "./field-writes";
import { archiveChunks } from "../daily/archive/writer";
import { archiveFileName, type ArchiveName } from "../daily/archive/format";
import { displayNames } from "../identity/api";
import { archiveSource } from "./archive-source";
import { uploadGzipped } from "./archive-upload";
import { recordInHistory } from "../history-store/history-stub";

/** Where a day's archive is, once written. */
export interface ArchiveRecord {
  key: string;
  url: string;
  /** gzip bytes (the object's size) and JSON bytes. */
  bytes: number;
  raw_bytes: number;
  log_head: LogHead;
}

export interface DayClosed {
  game_id: string;
  status: string;
  revision: number;
  archive: ArchiveRecord;
}

/**
 * Closes a daily field and writes its archive, at least once and at most once in effect:
 * the close is a write through the serialised write path (a second close is a no-op), and the
 * archive is written only when R2 does not hold it yet, so a repeated close (cron and alarm,
 * retries) never writes different bytes. Concurrent calls in the object share one write.
 */
export async function closeAndArchive(f: FieldContext): Promise<Outcome<DayClosed>> {
  const gameId = f.store.getMeta<string>("game_id");
  if (f.store.getMeta<string>("day") === undefined || gameId === undefined) return fail("bad_input", "only a daily field is closed into an archive");
  const closed = close(f);
  if (!closed.ok) return closed;
  f.archiving ??= archiveOnce(f, gameId).finally(() => (f.archiving = null));
  const archive = (await f.archiving) as ArchiveRecord;
  // The history records the day from the archive just written (a no-op when it has it already).
  await recordInHistory(f.env, gameId);
  return { ok: true, answer: { game_id: gameId, status: closed.answer.status, revision: closed.answer.revision, archive } };
}

async function archiveOnce(f: FieldContext, gameId: string): Promise<ArchiveRecord> {
  const recorded = f.store.getMeta<ArchiveRecord>("archive");
  if (recorded) return recorded;
  const key = archiveFileName(gameId);
  const bucket = f.env.ARCHIVES;
  const existing = await bucket.head(key);
  let record: ArchiveRecord;
  if (existing) {
    // Written before the record was stored (an interrupted close): keep it as it is.
    record = { key, url: `/api/archives/${key}`, bytes: existing.size, raw_bytes: Number(existing.customMetadata?.raw_bytes ?? 0), log_head: { ...f.head } };
  } else {
    const source = archiveSource(f, await namesAtClose(f));
    const result = await uploadGzipped(bucket, key, archiveChunks(source), {
      httpMetadata: { contentType: "application/gzip" },
      customMetadata: {
        game_id: gameId,
        day: source.header.day,
        log_head_hash: source.log_head.hash,
        log_head_rev: String(source.log_head.rev),
      },
    });
    record = { key, url: `/api/archives/${key}`, bytes: result.bytes, raw_bytes: result.rawBytes, log_head: { ...source.log_head } };
  }
  f.store.setMeta("archive", record);
  f.registry.soon();
  return record;
}

/**
 * The display names the machines' key holders had set at the close (SPEC §8), in join order, for
 * the replay to show the names the live page showed. A lookup that fails leaves that machine out:
 * the archive is written once, and the join's name stands in the replay.
 */
async function namesAtClose(f: FieldContext): Promise<ArchiveName[]> {
  const machines = f.referee?.machines().map((m) => String(m.machine)) ?? [];
  const found = await displayNames(f.env, machines);
  return machines.flatMap((machine) => {
    const name = found.get(machine);
    return name ? [{ machine, name }] : [];
  });
}

/**
 * The field's alarm at the end of its day: close and archive (a failure throws, so the alarm is
 * retried; the cron's close is the backstop).
 */
export async function closeIfDayEnded(f: FieldContext): Promise<void> {
  const closesAt = f.store.getMeta<number>("closes_at");
  if (closesAt === undefined || Date.now() < closesAt || f.store.getMeta("archive") !== undefined) return;
  if (f.store.getMeta<string>("status") !== "playing") return;
  const result = await closeAndArchive(f);
  if (!result.ok) console.error(`the day could not be closed: ${result.error.message}`);
}
