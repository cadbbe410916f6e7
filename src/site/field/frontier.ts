import { SOLVED, type SpectatorModel } from "../../spectator";

/**
 * Seeds and frontiers of every group, for the overlay: unsolved seed tiles, and unsolved tiles
 * that share a cell with a solved one (the union of all groups' frontiers, SPEC §4.2).
 * Neighbour lists are cached per tile, so a refresh is one pass over the solved tiles.
 */
export class FrontierTracker {
  private readonly neighbours = new Map<number, number[]>();

  refresh(model: SpectatorModel, seeds: Set<number>, frontier: Set<number>): void {
    seeds.clear();
    frontier.clear();
    for (const a of model.agents) if (a.seed !== null && model.visible(a.seed)) seeds.add(a.seed);
    for (const s of seeds) if (model.tileStatus[s] !== SOLVED) frontier.add(s);
    for (let t = 0; t < model.tilesTotal; t++) {
      if (model.tileStatus[t] !== SOLVED) continue;
      let list = this.neighbours.get(t);
      if (!list) {
        list = model.neighbours(t);
        this.neighbours.set(t, list);
      }
      for (const n of list) if (model.tileStatus[n] !== SOLVED && model.visible(n)) frontier.add(n);
    }
  }

  /** Geometry learnt later (fog, growth) adds neighbours: forget the cached lists. */
  forget(): void {
    this.neighbours.clear();
  }
}
