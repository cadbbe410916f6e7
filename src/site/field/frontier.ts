import { SOLVED, type SpectatorModel } from "../../spectator";

/**
 * Seeds and frontiers of every group, for the overlay: unsolved seed tiles, and unsolved tiles
 * that share a cell with a solved one (the union of all groups' frontiers, SPEC §4.2).
 * Neighbourhood is symmetric, so a refresh walks whichever side is smaller: the solved tiles
 * early in a day, the unsolved ones late in it (a late-day G = 1000 field has ~12,000 solved
 * tiles and ~1,000 others). Neighbour lists are cached per tile.
 */
export class FrontierTracker {
  private readonly neighbours = new Map<number, number[]>();

  refresh(model: SpectatorModel, seeds: Set<number>, frontier: Set<number>): void {
    seeds.clear();
    frontier.clear();
    for (const a of model.agents) if (a.seed !== null && model.visible(a.seed)) seeds.add(a.seed);
    for (const s of seeds) if (model.tileStatus[s] !== SOLVED) frontier.add(s);
    if (model.solvedCount === 0) return;
    const status = model.tileStatus;
    if (model.solvedCount <= model.tilesTotal - model.solvedCount) {
      for (let t = 0; t < model.tilesTotal; t++) {
        if (status[t] !== SOLVED) continue;
        for (const n of this.around(model, t)) if (status[n] !== SOLVED && model.visible(n)) frontier.add(n);
      }
    } else {
      for (let t = 0; t < model.tilesTotal; t++) {
        if (status[t] === SOLVED || !model.visible(t)) continue;
        if (this.around(model, t).some((n) => status[n] === SOLVED)) frontier.add(t);
      }
    }
  }

  /** Forgets every cached list (a new model: a snapshot loaded, a replay rebuilt). */
  forget(): void {
    this.neighbours.clear();
  }

  /**
   * Geometry learnt later (fog, growth) adds neighbours, but only to the new tiles and to the tiles
   * they overlap: those lists alone are dropped. Forgetting every list instead made each refresh
   * after a reveal under fog recompute the neighbours of every solved tile. Call once the model
   * holds the new geometry.
   */
  learnt(model: SpectatorModel, ids: Iterable<number>): void {
    for (const id of ids) {
      this.neighbours.delete(id);
      for (const n of model.neighbours(id)) this.neighbours.delete(n);
    }
  }

  private around(model: SpectatorModel, t: number): number[] {
    let list = this.neighbours.get(t);
    if (!list) {
      list = model.neighbours(t);
      this.neighbours.set(t, list);
    }
    return list;
  }
}
