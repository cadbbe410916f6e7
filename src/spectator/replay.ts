import { SpectatorModel } from "./model";
import type { PublicEvent, TileGeometry } from "./types";

/** What a replay needs of a published day archive (SPEC §9, `mosaic-archive-v1`). */
export interface ArchiveLike {
  game_id: string;
  G: number;
  params: { rules: { guess: string; depth: number; fog: boolean } };
  seed_commit: string;
  tiles: TileGeometry[];
  events: PublicEvent[];
  /** Display names at the close (SPEC §8: they win over a join's `name`); older archives have none. */
  names?: Array<{ machine: string; name: string }>;
}

/**
 * The field at revision 0 of an archive: the tiles that existed before the first ring grew (all of
 * them without growth), every later ring's geometry known ahead so its `grow` event finds it. With
 * `fog` (the field's own rule by default) the model shows only what had been reached at each
 * revision, as spectators saw it live; without, the whole published geometry.
 */
export function modelAtStart(archive: ArchiveLike, opts: { fog?: boolean } = {}): SpectatorModel {
  const firstGrow = archive.events.find((e) => e.type === "grow");
  const initial = firstGrow && firstGrow.type === "grow" ? firstGrow.first_tile : archive.tiles.length;
  const model = new SpectatorModel({
    gameId: archive.game_id,
    G: archive.G,
    fog: opts.fog ?? archive.params.rules.fog,
    tilesTotal: initial,
    rules: archive.params.rules,
    seedCommit: archive.seed_commit,
  });
  model.addTiles(archive.tiles.map((t) => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m })));
  return model;
}

/**
 * Scrubbing through an archive: the model at any revision, rebuilt from the nearest checkpoint
 * (one every `every` revisions, taken on the way forward) rather than from revision 0.
 */
export class ArchiveReplay {
  private model: SpectatorModel;
  private readonly checkpoints = new Map<number, SpectatorModel>();

  constructor(
    private readonly archive: ArchiveLike,
    private readonly opts: { fog?: boolean; every?: number } = {},
  ) {
    this.model = modelAtStart(archive, opts);
    this.checkpoints.set(0, this.model.clone());
  }

  get last(): number {
    return this.archive.events.length === 0 ? 0 : this.archive.events[this.archive.events.length - 1].rev;
  }

  /** The model at `rev` (clamped to the log). Do not mutate it: the replay keeps it. */
  seek(rev: number): SpectatorModel {
    const target = Math.max(0, Math.min(Math.floor(rev), this.last));
    if (target < this.model.revision) {
      let best = 0;
      for (const r of this.checkpoints.keys()) if (r <= target && r > best) best = r;
      this.model = (this.checkpoints.get(best) as SpectatorModel).clone();
    }
    const every = this.opts.every ?? 500;
    const events = this.archive.events;
    while (this.model.revision < target) {
      this.model.apply(events[this.model.revision]);
      const r = this.model.revision;
      if (r % every === 0 && !this.checkpoints.has(r)) this.checkpoints.set(r, this.model.clone());
    }
    // Machines are named as the live page named them at the close, from their first join on.
    const names: unknown = this.archive.names;
    if (Array.isArray(names)) {
      for (const n of names as Array<Partial<Record<"machine" | "name", unknown>> | null>) {
        if (typeof n?.machine === "string" && typeof n.name === "string") this.model.setDisplayName(n.machine, n.name);
      }
    }
    return this.model;
  }
}
