import { DurableObject } from "cloudflare:workers";
import { createHash } from "node:crypto";
import type { Env } from "../env";
import { listArchives } from "../daily/archive/archive-index";
import { archiveFileName } from "../daily/archive/format";
import { ArchiveFormatError, readArchive } from "../daily/audit/read-archive";
import { etagMatches } from "../text/etag";
import { dayFromArchive } from "../history/from-archive";
import { HistoryTables } from "../history/tables";
import { accountsOf } from "./accounts";
import { HistoryRows } from "./history-rows";

/** What the Worker turns into a response: a ready text, its ETag, or a 304. */
export interface HistoryRead {
  status: number;
  body: string;
  etag?: string;
  contentType: "json" | "csv";
}

export interface Recorded {
  game_id: string;
  /** False when the day was on record already (a second close). */
  recorded: boolean;
}

/**
 * The history across days (SPEC §11.1, docs/history.md): one instance
 * (`env.HISTORY.getByName("history")`), SQLite rows per day and per machine, recorded from each
 * day's archive in R2 at its close. Every read is answered from the rows (and tables cached per
 * history revision), never from an archive. Storage lost or never filled is refilled from R2.
 */
export class HistoryObject extends DurableObject<Env> {
  private readonly rows: HistoryRows;
  private tables: { revision: string; tables: HistoryTables } | null = null;
  private readonly etags = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<Recorded>>();
  private syncing: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.rows = new HistoryRows(ctx.storage);
  }

  /**
   * Records a closed day from its archive in R2: idempotent (a day on record stays as it is),
   * concurrent calls for one day share one recording.
   */
  recordDay(gameId: string): Promise<Recorded> {
    let p = this.inFlight.get(gameId);
    if (!p) {
      p = this.record(gameId).finally(() => this.inFlight.delete(gameId));
      this.inFlight.set(gameId, p);
    }
    return p;
  }

  /** Records every archive in R2 that is not on record yet (a lost store, a missed close). */
  async sync(): Promise<{ recorded: string[]; errors: string[] }> {
    const recorded: string[] = [];
    const errors: string[] = [];
    for (const a of await listArchives(this.env.ARCHIVES)) {
      if (this.rows.has(a.day)) continue;
      try {
        if ((await this.recordDay(a.game_id)).recorded) recorded.push(a.game_id);
      } catch (err) {
        errors.push(`${a.game_id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.rows.markSynced();
    return { recorded, errors };
  }

  /** A read under /api/history (path and query as requested). */
  async read(pathAndQuery: string, ifNoneMatch: string | null): Promise<HistoryRead> {
    if (!this.rows.synced()) {
      this.rows.newEpoch(String(Date.now()));
      this.syncing ??= this.sync().then(
        (r) => void (r.errors.length && console.error(`history sync: ${r.errors.join("; ")}`)),
      ).finally(() => (this.syncing = null));
      await this.syncing;
    }
    // Rebuilt when the rows changed: a day recorded, or the store lost and refilled.
    const revision = this.rows.revision();
    if (this.tables?.revision !== revision) {
      this.tables = { revision, tables: new HistoryTables(this.rows.days()) };
      this.etags.clear();
    }
    const answer = await this.tables.tables.answerUrl(pathAndQuery);
    if (answer.status !== 200) return answer;
    let etag = this.etags.get(pathAndQuery);
    if (!etag) {
      etag = `W/"${createHash("sha256").update(answer.body).digest("hex").slice(0, 24)}"`;
      if (this.etags.size >= 512) this.etags.clear();
      this.etags.set(pathAndQuery, etag);
    }
    if (etagMatches(ifNoneMatch, etag)) return { status: 304, body: "", etag, contentType: answer.contentType };
    return { ...answer, etag };
  }

  /** Days on record, oldest first (tests and the cron's report). */
  recordedDays(): string[] {
    return this.rows.days().map((d) => d.day);
  }

  /** Computes the tables every visit of the History view starts with, for the current revision. */
  private async warm(): Promise<void> {
    try {
      for (const path of ["/api/history", "/api/history/ratings?by=model", "/api/history/ratings?by=harness", "/api/history/ratings?by=machine", "/api/history/leaderboard?by=model"]) await this.read(path, null);
    } catch (err) {
      console.error(`history: warming the tables failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async record(gameId: string): Promise<Recorded> {
    const date = gameId.startsWith("day-") ? gameId.slice(4) : "";
    if (this.rows.has(date)) return { game_id: gameId, recorded: false };
    const obj = await this.env.ARCHIVES.get(archiveFileName(gameId));
    if (!obj) throw new Error(`no archive for ${gameId} in R2`);
    const archive = await readArchive(new Uint8Array(await obj.arrayBuffer()));
    if (archive.game_id !== gameId) throw new ArchiveFormatError(`the archive ${archiveFileName(gameId)} holds ${archive.game_id}`);
    const accounts = await accountsOf(
      this.env,
      archive.scores.map((s) => s.machine),
    );
    const day = dayFromArchive(archive, accounts);
    // The archive was read over awaits: another recording of the day may have landed meanwhile.
    const recorded = this.rows.insert(day);
    // The ratings take seconds on a year of days: computed now, not on the first reader's time.
    if (recorded) this.ctx.waitUntil(this.warm());
    return { game_id: gameId, recorded };
  }
}
