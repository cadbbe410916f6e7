import { etagMatches } from "../text/etag";
import type { ChainedEvent } from "../referee/types";
import type { LiveHost } from "./live-host";
import { leaderboard, type LeaderboardRow } from "../spectator";
import { AccountRefs } from "./account-refs";
import { AnalysisDuty } from "./analysis-duty";
import { DisplayNames } from "./display-names";
import { LiveFeed } from "./live-feed";
import { LiveStore, type UsageRow } from "./live-store";
import { spectatorGate } from "./spectator-gate";
import { SpectatorState } from "./spectator-state";

/** A read answered by the field object for a spectator route: status, JSON text, ETag. */
export interface SpectatorAnswer {
  status: 200 | 304 | 404 | 409 | 503;
  body: string;
  etag?: string;
  retryAfter?: number;
}

/**
 * The field object's spectator duties (docs/spectator.md), beside the play duties and fed by the
 * commit hook: the model at the head, the live feed, the snapshot, the leaderboard and the usage
 * counters. Nothing here changes the game; every read of a field that does not exist answers 404
 * and stores nothing.
 */
export class LiveDuties {
  readonly store: LiveStore;
  readonly state: SpectatorState;
  readonly feed: LiveFeed;
  private readonly names: DisplayNames;
  private readonly accounts: AccountRefs;
  private readonly analysisDuty: AnalysisDuty;
  /** The newest snapshot text and the revision and names it was built at. */
  private snapshotCache: { key: string; body: string } | null = null;

  constructor(private readonly f: LiveHost) {
    this.store = new LiveStore(f.ctx.storage.sql);
    this.state = new SpectatorState(f, this.store);
    this.feed = new LiveFeed(f, this.state, this.store);
    this.names = new DisplayNames(f.env);
    this.accounts = new AccountRefs(f.env);
    this.analysisDuty = new AnalysisDuty(f, this.store);
  }

  /** The commit hook: the model follows the event, the feed queues it with the tiles it revealed. */
  onCommitted(event: ChainedEvent): void {
    const newly = this.state.onCommitted(event);
    this.feed.onCommitted(event, newly);
  }

  /** `GET /api/games/:id/snapshot`: the model at the head as compact JSON (docs/spectator.md). */
  async snapshot(ifNoneMatch: string | null): Promise<SpectatorAnswer> {
    const gate = spectatorGate(this.f);
    if (gate) return gate;
    let model = this.state.current()!;
    await this.names.apply(model);
    model = this.state.current()!;
    const names = model.machines.map((m) => m.name).join("\u0000");
    const etag = `W/"s${model.revision}-${model.machines.length}-${hashText(names)}"`;
    if (etagMatches(ifNoneMatch, etag)) return { status: 304, body: "", etag };
    if (this.snapshotCache?.key !== etag) this.snapshotCache = { key: etag, body: JSON.stringify(model.snapshot("public")) };
    return { status: 200, body: this.snapshotCache.body, etag };
  }

  /** `GET /api/games/:id/leaderboard`: SPEC §11's rows at the head. */
  async leaderboard(ifNoneMatch: string | null): Promise<SpectatorAnswer> {
    const gate = spectatorGate(this.f);
    if (gate) return gate;
    let model = this.state.current()!;
    await this.names.apply(model);
    model = this.state.current()!;
    const rows: LeaderboardRow[] = leaderboard(model, await this.accounts.of(model.machines.map((m) => m.id)));
    const body = JSON.stringify({ game_id: model.gameId, revision: model.revision, log_head: model.head, status: model.status, rows });
    const etag = `W/"l${model.revision}-${hashText(body)}"`;
    if (etagMatches(ifNoneMatch, etag)) return { status: 304, body: "", etag };
    return { status: 200, body, etag };
  }

  /** `GET /api/games/:id/analysis`: SPEC §11's groups with efficiency columns and intervals. */
  async analysis(ifNoneMatch: string | null): Promise<SpectatorAnswer> {
    const gate = spectatorGate(this.f);
    if (gate) return gate;
    const model = this.state.current()!;
    const body = await this.analysisDuty.document(model, await this.accounts.of(model.machines.map((m) => m.id)));
    const etag = `W/"a${hashText(body)}"`;
    if (etagMatches(ifNoneMatch, etag)) return { status: 304, body: "", etag };
    return { status: 200, body, etag };
  }

  /** Adds tool calls and bytes served to machines' counters; ignored for a field that does not exist. */
  recordUsage(rows: readonly UsageRow[]): void {
    if (!this.f.referee) return;
    const clean = rows.filter((r) => typeof r.machine === "string" && Number.isSafeInteger(r.calls) && Number.isSafeInteger(r.bytes) && r.calls >= 0 && r.bytes >= 0);
    if (clean.length > 0) this.store.addUsage(clean);
  }

}

/** A short, stable hash of a text (FNV-1a, 32 bits, hex) for ETags. */
function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}
