/**
 * Sharing frontiers without talking. Group mates see the same tiles and deduce the same cells,
 * and so do two groups on a tile between them: if each committed everything it proves, one write
 * would win and the others would be refused as `conflict` (their cells became known meanwhile,
 * SPEC §4.9). So every tile has an order of the agents that may work it, computed alike by all of
 * them from public data (groups, solvers, a hash of tile and agent id); the first works the tile,
 * and the next ones step in only when the tile has stayed workable for as many of their looks as
 * their place in the order (its owner is busy or gone).
 *
 * Views go stale between looks (a whole G = 100 field is solved in seconds by 16 agents), so the
 * order alone is not enough where groups meet: two groups that reached a tile moments apart each
 * see only themselves on it. Three rules need no fresh view:
 * - a revealed tile is its revealer's: only the revealer knows it revealed it, everyone else waits
 *   (the revealer chose the tile by the same order, and works it at once);
 * - a cell in several revealed tiles is committed for the lowest of them, whoever's frontier holds
 *   it, so the agents on both sides of a seam name the same tile;
 * - a cell that also lies in a hidden tile another agent may reveal waits for that reveal (sent
 *   before, it would conflict with it: the tile's status changed).
 */
import type { Board } from "./board";

/** Looks a tile must stay workable, per place in its order, before a later member takes it. */
const LOOKS_PER_PLACE = 6;

export class WorkShare {
  /** Tile → consecutive looks it was workable while not this agent's to work. */
  private readonly waiting = new Map<number, number>();
  /** Tiles whose reveal by this agent changed the field (a re-reveal is only a read). */
  private readonly revealedHere = new Set<number>();
  /** Places computed since the board last changed (`refresh`): orders cost a scan of the agents. */
  private readonly places = new Map<number, number>();

  /**
   * `independent`: no sharing at all (every tile and proven cell is this agent's), as an agent
   * written by others plays; the load benchmark measures the conflicts such agents meet (SPEC §4.9).
   */
  constructor(
    private readonly board: Board,
    private readonly independent = false,
  ) {}

  /** The board changed (an answer or an observation): places are computed again. */
  refresh(): void {
    this.places.clear();
  }

  /** This agent revealed the tile: it works it first, whoever else has it on their frontier. */
  noteRevealed(tile: number): void {
    this.revealedHere.add(tile);
    this.places.delete(tile);
  }

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

  /**
   * This agent's place in the tile's order (0: the tile is its own). A revealed tile it did not
   * reveal has its revealer ahead of everyone, unless nobody else is in view (a lone agent).
   */
  place(tile: number): number {
    let place = this.places.get(tile);
    if (place === undefined) {
      const revealed = this.board.tile(tile)?.status === "revealed";
      if (revealed && this.revealedHere.has(tile)) place = 0;
      else {
        place = Math.max(0, this.candidates(tile).indexOf(this.board.myAgent));
        if (revealed && this.othersInView()) place++;
      }
      this.places.set(tile, place);
    }
    return place;
  }

  /** Whether this agent works the tile now. */
  mayWork(tile: number): boolean {
    const place = this.place(tile);
    return place === 0 || (this.waiting.get(tile) ?? 0) >= place * LOOKS_PER_PLACE;
  }

  /**
   * Whether another agent is expected to act on the tile first: work it (a frontier tile whose
   * order puts someone first) or reveal it (a hidden tile off this agent's frontier that someone
   * else reaches, `reachedByOthers`).
   * Someone else's hidden tile is waited for at most `LOOKS_PER_PLACE` looks.
   */
  othersHold(tile: number): boolean {
    if (this.independent) return false;
    const t = this.board.tile(tile);
    if (!t || t.status === "solved") return false;
    if (t.status === "revealed" || this.board.frontier.includes(tile)) return !this.mayWork(tile);
    return this.reachedByOthers(tile) && (this.waiting.get(tile) ?? 0) < LOOKS_PER_PLACE;
  }

  /**
   * The tile a proven cell is committed for: the lowest revealed tile holding it, whoever's
   * frontier that is, so that the agents on both sides of a seam name the same tile.
   */
  cellTile(cell: number): number | null {
    let best: number | null = null;
    for (const t of this.board.tilesOf(cell)) if (this.board.tile(t)?.status === "revealed" && (best === null || t < best)) best = t;
    return best;
  }

  /** Whether this agent commits a proven cell now: its tile is this agent's, and no tile holding it is about to change by someone else's hand. */
  mayCommit(cell: number): boolean {
    const tile = this.cellTile(cell);
    if (tile === null || this.othersHold(tile)) return false;
    if (this.independent) return true;
    return !this.board.tilesOf(cell).some((t) => t !== tile && this.board.tile(t)?.status === "hidden" && this.othersHold(t));
  }

  /** The tiles whose waits a look counts for a proven cell: its tile and the hidden tiles holding it. */
  watchedFor(cell: number): number[] {
    const tile = this.cellTile(cell);
    const hidden = this.board.tilesOf(cell).filter((t) => this.board.tile(t)?.status === "hidden");
    return tile === null ? hidden : [tile, ...hidden];
  }

  /**
   * Once per look: `workable` are the tiles with something to do (cells to commit, a reveal).
   * Those that are another member's first count one look more (a member that stepped in keeps the
   * tile while it stays workable); the others are forgotten.
   */
  noteLook(workable: Iterable<number>): void {
    this.places.clear();
    const next = new Map<number, number>();
    for (const t of workable) {
      const offFrontier = this.board.tile(t)?.status === "hidden" && !this.board.frontier.includes(t);
      if (this.place(t) > 0 || (offFrontier && this.reachedByOthers(t))) next.set(t, (this.waiting.get(t) ?? 0) + 1);
    }
    this.waiting.clear();
    for (const [t, n] of next) this.waiting.set(t, n);
  }

  /** Whether some workable tile is another agent's for now (so the agent waits: it is not stuck). */
  othersHaveWork(): boolean {
    if (this.independent) return false;
    for (const t of this.waiting.keys()) if (this.othersHold(t)) return true;
    return false;
  }

  /** Whether the board lists any agent but this one: alone, every tile is its own. */
  private othersInView(): boolean {
    return this.board.agents.some((a) => a.id !== this.board.myAgent);
  }

  /**
   * Whether someone else has the tile on its frontier, or soon will, as far as this agent's view
   * shows: another group solved a tile sharing cells with it, it is another agent's seed, or
   * another group is working a revealed tile sharing cells with it (off this agent's frontier).
   */
  private reachedByOthers(tile: number): boolean {
    const me = this.board.myAgent;
    const mine = this.myGroup();
    const groupOf = (agent: string): string => this.board.agents.find((a) => a.id === agent)?.group ?? agent;
    if (this.board.agents.some((a) => a.id !== me && a.seed_tile === tile)) return true;
    for (const n of this.board.tile(tile)?.neighbours ?? []) {
      const t = this.board.tile(n);
      if (t?.status === "solved" && t.agent !== null && t.agent !== me && groupOf(t.agent) !== mine) return true;
      // Someone else works a tile sharing cells with it: once that is solved, the tile is on their frontier.
      if (t?.status === "revealed" && !this.board.frontier.includes(n)) return true;
    }
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
