/**
 * Sharing frontiers without talking. Group mates see the same tiles and deduce the same cells,
 * and so do two groups on a tile between them: if each committed everything it proves, one write
 * would win and the others would be refused as `conflict` (their cells became known meanwhile,
 * SPEC §4.9). So every tile has an order of the agents that may work it, computed alike by all of
 * them from public data (groups, solvers, a hash of tile and agent id); the first works the tile,
 * and the next ones step in only when the tile has stayed workable for as many of their looks as
 * their place in the order (its owner is busy or gone). A cell shared by several workable tiles
 * belongs to the lowest of them, so seams are committed once too.
 */
import type { Board } from "./board";

/** Looks a tile must stay workable, per place in its order, before a later member takes it. */
const LOOKS_PER_PLACE = 6;

export class WorkShare {
  /** Tile → consecutive looks it was workable while not this agent's to work. */
  private readonly waiting = new Map<number, number>();

  constructor(private readonly board: Board) {}

  /** The agent's group (its first member's id, as observations name it). */
  private myGroup(): string {
    const me = this.board.myAgent;
    return this.board.agents.find((a) => a.id === me)?.group ?? me;
  }

  /**
   * Who works a tile, in order: the groups that have it on their frontier (those that solved a
   * tile sharing cells with it, or whose member's seed it is), lowest group id first, then each
   * group's members in the tile's hash order. A tile between two groups is thus worked by one of
   * them, and inside a group by one member.
   */
  candidates(tile: number): string[] {
    const me = this.board.myAgent;
    const groupOf = new Map(this.board.agents.map((a) => [a.id, a.group ?? a.id]));
    const mine = this.myGroup();
    const groups = new Set<string>([mine]);
    for (const n of this.board.tile(tile)?.neighbours ?? []) {
      const t = this.board.tile(n);
      if (t?.status === "solved" && t.agent) groups.add(groupOf.get(t.agent) ?? t.agent);
    }
    for (const a of this.board.agents) if (a.seed_tile === tile) groups.add(a.group ?? a.id);
    const out: string[] = [];
    for (const g of [...groups].sort()) {
      const members = this.board.agents.filter((a) => (a.group ?? a.id) === g).map((a) => a.id);
      if (g === mine && !members.includes(me)) members.push(me);
      members.sort((a, b) => rankKey(tile, a) - rankKey(tile, b) || (a < b ? -1 : a > b ? 1 : 0));
      out.push(...members);
    }
    return out;
  }

  /** This agent's place in the tile's order (0: the tile is its own). */
  place(tile: number): number {
    return Math.max(0, this.candidates(tile).indexOf(this.board.myAgent));
  }

  /** Whether this agent works the tile now. */
  mayWork(tile: number): boolean {
    const place = this.place(tile);
    return place === 0 || (this.waiting.get(tile) ?? 0) >= place * LOOKS_PER_PLACE;
  }

  /**
   * Once per look: `workable` are the tiles with something to do (cells to commit, a reveal).
   * Those that are another member's first count one look more (a member that stepped in keeps the
   * tile while it stays workable); the others are forgotten.
   */
  noteLook(workable: Iterable<number>): void {
    const next = new Map<number, number>();
    for (const t of workable) if (this.place(t) > 0) next.set(t, (this.waiting.get(t) ?? 0) + 1);
    this.waiting.clear();
    for (const [t, n] of next) this.waiting.set(t, n);
  }

  /** Whether some workable tile is another member's for now (so the agent waits: it is not stuck). */
  othersHaveWork(): boolean {
    for (const t of this.waiting.keys()) if (!this.mayWork(t)) return true;
    return false;
  }
}

/** FNV-1a over "tile/agent": the same order for every member, spread evenly over the tiles. */
function rankKey(tile: number, agent: string): number {
  let h = 0x811c9dc5;
  const text = `${tile}/${agent}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
