import type { Tile } from "../engine/types";
import type { ChainedEvent } from "../referee/types";
import type { LiveHost } from "./live-host";
import type { FieldRules } from "../referee/types";
import { SpectatorModel, type PublicEvent, type TileGeometry } from "../spectator";
import type { LiveStore } from "./live-store";

/** A checkpoint of the model is stored every this many events (a wake-up replays fewer). */
export const CHECKPOINT_EVERY = 512;

export const geometryOf = (t: Tile): TileGeometry => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m });

/**
 * The server's spectator model of its field, at the head of the log: it answers snapshots, the
 * leaderboard and the analysis, and tells the live feed which tiles each event makes visible.
 *
 * It is loaded on first need from the newest checkpoint plus the stored events after it (from
 * revision 0 without one), then follows every committed event. While nobody looks it stays
 * unloaded, except that a commit finding the checkpoint 2 × CHECKPOINT_EVERY events old loads it
 * and stores a fresh one, so no wake-up ever replays more than that.
 */
export class SpectatorState {
  private model: SpectatorModel | null = null;
  private checkpointRev: number | null = null;

  constructor(
    private readonly f: LiveHost,
    private readonly store: LiveStore,
  ) {}

  /** The model at the field's head, or null when the field has no play (missing, generating, failed). */
  current(): SpectatorModel | null {
    const referee = this.f.referee;
    const field = this.f.field;
    if (!referee || !field) {
      this.model = null;
      return null;
    }
    if (this.model && this.model.revision > referee.revision) this.model = null;
    this.model ??= this.load();
    this.catchUp(this.model);
    return this.model;
  }

  /** Follows a committed event; returns the tiles it made visible, or null while unloaded. */
  onCommitted(event: ChainedEvent): number[] | null {
    if (!this.model) {
      this.checkpointRev ??= this.store.checkpointRev();
      if (event.rev - this.checkpointRev < 2 * CHECKPOINT_EVERY) return null;
      this.current();
      return null;
    }
    if (event.rev !== this.model.revision + 1) {
      // Out of step (a restore in between): catch up from storage.
      this.current();
      return null;
    }
    const newly = this.applyOne(this.model, event as unknown as PublicEvent);
    this.maybeCheckpoint(this.model);
    return newly;
  }

  private applyOne(model: SpectatorModel, event: PublicEvent): number[] {
    if (event.type === "grow") {
      const tiles = this.f.field?.tiles ?? [];
      model.addTiles(tiles.slice(event.first_tile, event.first_tile + event.tiles).map(geometryOf));
    }
    return model.apply(event);
  }

  private load(): SpectatorModel {
    const field = this.f.field!;
    const stored = this.store.loadCheckpoint();
    let model: SpectatorModel | null = null;
    if (stored && stored.rev <= this.f.referee!.revision) {
      try {
        model = SpectatorModel.fromSnapshot(JSON.parse(stored.json));
        model.addTiles(field.tiles.slice(model.tilesTotal).map(geometryOf));
      } catch (err) {
        console.error("spectator checkpoint unusable; rebuilding from the log", err);
        model = null;
      }
    }
    if (!model) {
      const rules = this.f.meta<FieldRules>("rules")!;
      model = new SpectatorModel({
        gameId: this.f.meta<string>("game_id")!,
        G: field.G,
        fog: rules.fog,
        tilesTotal: this.f.meta<number>("initial_tiles") ?? field.tiles.length,
        rules: { guess: rules.guess, depth: rules.depth, fog: rules.fog },
        seedCommit: this.f.meta<string>("seed_commit") ?? "",
      });
      model.addTiles(field.tiles.map(geometryOf));
    }
    this.checkpointRev = stored?.rev ?? 0;
    return model;
  }

  /** Applies the stored events the model has not seen yet. */
  private catchUp(model: SpectatorModel): void {
    const head = this.f.referee!.revision;
    while (model.revision < head) {
      const page = this.f.store.events(model.revision, 1000) as unknown as PublicEvent[];
      if (page.length === 0) break;
      for (const e of page) if (e.rev === model.revision + 1) this.applyOne(model, e);
    }
    this.maybeCheckpoint(model);
  }

  private maybeCheckpoint(model: SpectatorModel): void {
    this.checkpointRev ??= this.store.checkpointRev();
    if (model.revision - this.checkpointRev < CHECKPOINT_EVERY) return;
    try {
      this.store.saveCheckpoint(model.revision, JSON.stringify(model.snapshot("full")));
      this.checkpointRev = model.revision;
    } catch (err) {
      console.error("spectator checkpoint failed", err);
    }
  }
}
