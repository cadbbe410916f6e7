import type { TileShape } from "../types";
import { closeWithBifurcation } from "./bifurcation";
import { propagate } from "./rules";
import { NO_STAGE, Stages } from "./stages";
import { EMPTY, PropagationState } from "./state";
import { type Forcing, type PropagationDepth, RULE_NAMES } from "./types";

/**
 * The referee's "forced" propagation (SPEC §4.5), maintained incrementally.
 *
 * The board always converges to the closure of the known cells under the rules of the
 * field's depth; work is done lazily, at the next `forcedValue`.
 *
 * - Depth 0: adding known cells or revealing tiles only adds information, so the closure only
 *   grows: the lines through the new cells are queued and the queue is run to its fixpoint.
 *   A retraction clears the derived cells of its region (the tiles of the retracted cell and
 *   every revealed tile reachable from them through derived cells) and re-runs that region.
 * - Depth 1 and 2: bifurcation looks across a whole connected region, so a change marks its
 *   tiles dirty and each dirty component (revealed tiles linked by cells that are not known)
 *   is recomputed from its known cells. Known cells separate components: nothing propagates
 *   through a value that cannot change.
 *
 * Setting a known cell to the value the closure already fixed it to changes no value, at any
 * depth: that is the common case in a batch of forced commits, and it costs only the update
 * of the rule stages around the cell (see stages.ts).
 *
 * Contradictory input (known cells no solution agrees with) never throws or loops: the
 * propagator reports `contradiction` and answers null for every cell until retractions
 * remove the contradiction.
 */
export class Propagator {
  readonly G: number;
  readonly depth: PropagationDepth;
  private readonly s: PropagationState;
  private readonly stages: Stages;
  /** Depth 0: the closure ran into a contradiction (results are meaningless until rebuilt). */
  private poisoned = false;
  /** Depth 0: a retraction happened while poisoned; recompute everything at the next flush. */
  private rebuild = false;
  /** Depth ≥ 1: revealed tiles whose component must be recomputed. */
  private readonly dirty = new Set<number>();
  /** Depth ≥ 1: tiles of components whose closure is contradictory. */
  private readonly contradictory = new Set<number>();
  private readonly tilesScratch: number[] = [];

  constructor(G: number, depth: PropagationDepth) {
    if (depth !== 0 && depth !== 1 && depth !== 2) throw new Error(`bifurcation depth must be 0, 1 or 2, not ${String(depth)}`);
    this.G = G;
    this.depth = depth;
    this.s = new PropagationState(G);
    this.stages = new Stages(this.s);
  }

  /** Register a tile's geometry; ids are appended in order 0, 1, 2, … */
  addTile(tile: TileShape & { cellIds: number[] }): void {
    this.s.addTile(tile, tile.cellIds);
  }

  /** The tile's lines now constrain. */
  reveal(tileId: number): void {
    if (this.s.isRevealed(tileId)) return;
    this.s.reveal(tileId);
    if (this.depth > 0) {
      this.s.clearQueue();
      this.dirty.add(tileId);
    } else if (this.poisoned) {
      this.s.clearQueue(); // more constraints cannot undo a contradiction
    } else {
      // Cells already fixed from other tiles may now be fixed in an earlier round.
      for (const c of this.s.tiles[tileId].cells) if (this.s.value[c] !== EMPTY && !this.s.known[c]) this.stages.push(c);
    }
  }

  /** A given or an accepted commit. */
  setKnown(cell: number, value: 0 | 1): void {
    this.checkCell(cell);
    if (value !== 0 && value !== 1) throw new Error(`cell value must be 0 or 1, not ${String(value)}`);
    const s = this.s;
    if (s.known[cell]) {
      if (s.value[cell] === value) return;
      this.clearKnown(cell); // a known value replaced: withdraw the old one first
    }
    s.known[cell] = 1;
    const current = s.value[cell];
    if (current === value) {
      // Already fixed to this value: no value changes, only stages can drop. At depth ≥ 1 a
      // cell fixed through bifurcation becoming known can let the basic rules reach further,
      // which changes rules, so its component is recomputed.
      if (this.depth > 0 && this.stages.stage[cell] >= NO_STAGE) this.markDirty(cell);
      this.stages.makeKnown(cell);
      return;
    }
    if (current !== EMPTY) s.unassign(cell);
    s.assign(cell, value);
    this.stages.makeKnown(cell);
    if (this.depth > 0) {
      s.clearQueue();
      this.markDirty(cell);
    } else if (current !== EMPTY || this.poisoned) {
      // The closure had fixed the other value: the known cells admit no solution.
      this.poisoned = true;
      s.clearQueue();
    }
  }

  /** A retraction: the cell is no longer known. */
  clearKnown(cell: number): void {
    this.checkCell(cell);
    const s = this.s;
    if (!s.known[cell]) return;
    if (this.depth > 0) {
      s.known[cell] = 0;
      this.unassign(cell);
      this.markDirty(cell);
      return;
    }
    // No flush first: a region computed on a board still waiting for propagation is enough
    // (a derived cell outside it cannot depend on this cell, nor on an earlier retraction,
    // whose region was cleared), so a batch of retractions shares one re-propagation.
    s.known[cell] = 0;
    if (this.poisoned) {
      this.unassign(cell);
      this.rebuild = true;
      return;
    }
    this.retractRegion(cell);
  }

  /** What propagation over the current known cells fixes this cell to, or null
   * (null too for a known cell, and for every cell while the known cells are contradictory). */
  forcedValue(cell: number): Forcing | null {
    if (!Number.isInteger(cell) || cell < 0 || cell >= this.G * this.G) return null;
    this.flush();
    if (this.hasContradiction()) return null;
    const s = this.s;
    const v = s.value[cell];
    if (s.known[cell] || v === EMPTY) return null;
    return { value: v as 0 | 1, rule: RULE_NAMES[this.stages.rule(cell)] };
  }

  /** Brings the board to the closure of the current known cells now, rather than at the next `forcedValue`. */
  settle(): void {
    this.flush();
  }

  /** True when the known cells admit no assignment the rules accept (after propagation). */
  get contradiction(): boolean {
    this.flush();
    return this.hasContradiction();
  }

  private hasContradiction(): boolean {
    return this.depth === 0 ? this.poisoned : this.contradictory.size > 0;
  }

  private checkCell(cell: number): void {
    if (!Number.isInteger(cell) || cell < 0 || cell >= this.G * this.G) throw new RangeError(`cell ${cell} out of range`);
  }

  private unassign(cell: number): void {
    this.s.unassign(cell);
    this.stages.reset(cell);
  }

  /** Bring the board to the closure of the current known cells. */
  private flush(): void {
    if (this.depth > 0) {
      if (this.dirty.size > 0) this.recomputeDirty();
      this.settleStages();
      return;
    }
    if (this.rebuild) {
      this.rebuild = false;
      this.rebuildAll();
    } else if (!this.poisoned && this.s.queueLength > 0 && !propagate(this.s)) {
      this.poisoned = true;
    }
    if (this.poisoned) {
      this.s.fresh.length = 0;
      this.stages.clear();
    } else this.settleStages();
  }

  /** Stage every newly fixed cell and lower the stages that depend on changes. */
  private settleStages(): void {
    const fresh = this.s.fresh;
    for (const c of fresh) this.stages.push(c);
    fresh.length = 0;
    this.stages.relax();
  }

  /** Depth 0 retraction: clear what may have depended on the cell, re-run that region. */
  private retractRegion(cell: number): void {
    const s = this.s;
    this.unassign(cell);
    const region = this.reachableTiles(s.revealedTilesOf(cell, []), (c) => s.value[c] !== EMPTY && !s.known[c]);
    for (const t of region) {
      for (const c of s.tiles[t].cells) if (!s.known[c]) this.unassign(c);
    }
    for (const t of region) for (const line of s.tiles[t].lines) s.enqueue(line);
  }

  /** Depth 0, after a retraction while contradictory: recompute every revealed tile. */
  private rebuildAll(): void {
    const s = this.s;
    s.clearQueue();
    for (const tile of s.tiles) {
      if (!tile.revealed) continue;
      for (const c of tile.cells) if (!s.known[c]) this.unassign(c);
    }
    for (const tile of s.tiles) for (const line of tile.lines) s.enqueue(line);
    this.poisoned = !propagate(s);
  }

  private markDirty(cell: number): void {
    for (const t of this.s.revealedTilesOf(cell, this.tilesScratch)) this.dirty.add(t);
  }

  /** Depth ≥ 1: recompute, from its known cells, every component holding a dirty tile. */
  private recomputeDirty(): void {
    const s = this.s;
    const done = new Set<number>();
    for (const start of this.dirty) {
      if (done.has(start)) continue;
      const component = this.reachableTiles([start], (c) => !s.known[c]);
      for (const t of component) {
        done.add(t);
        this.contradictory.delete(t);
      }
      for (const t of component) for (const c of s.tiles[t].cells) if (!s.known[c]) this.unassign(c);
      s.clearQueue();
      for (const t of component) for (const line of s.tiles[t].lines) s.enqueue(line);
      // The basic closure first: its cells get stages (rules); what bifurcation adds after
      // it keeps no stage and is reported as "bifurcation".
      let ok = propagate(s);
      if (ok) {
        this.settleStages();
        ok = closeWithBifurcation(s, component, this.depth);
        s.fresh.length = 0;
      }
      if (!ok) {
        s.clearQueue();
        s.fresh.length = 0;
        this.stages.clear();
        for (const t of component) this.contradictory.add(t);
      }
    }
    this.dirty.clear();
  }

  /** Revealed tiles reachable from `start` by stepping through cells that satisfy `link`
   * into every revealed tile covering them; ascending. */
  private reachableTiles(start: readonly number[], link: (cell: number) => boolean): number[] {
    const s = this.s;
    const seen = new Set<number>(start);
    const todo = [...start];
    const around: number[] = [];
    while (todo.length > 0) {
      const t = todo.pop() as number;
      for (const c of s.tiles[t].cells) {
        if (!link(c)) continue;
        for (const u of s.revealedTilesOf(c, around)) {
          if (!seen.has(u)) {
            seen.add(u);
            todo.push(u);
          }
        }
      }
    }
    return [...seen].sort((a, b) => a - b);
  }
}
