import { packInts, unpackInts } from "./pack";

/**
 * Groups of agents and their frontiers (SPEC §4.2), as a union-find over agent indices.
 *
 * A group's frontier is each member's seed tile while unsolved plus every unsolved tile sharing
 * a cell with a tile the group solved. Each root keeps a candidate set of frontier tiles; solved
 * tiles are dropped from every group's set as they are solved, so the set is exactly the frontier.
 * When a tile solved by one group shares a cell with a tile solved by another, the two merge
 * (union by size; the merged sets are joined small-into-large).
 */
export interface GroupData {
  /** Member agent indices, ascending. */
  members: number[];
  /** Tiles the group solved, in solve order. */
  territory: number[];
  /** Unsolved tiles on the frontier. */
  frontier: Set<number>;
}

/** The groups as plain data (referee snapshots); sets keep their iteration order. */
export interface GroupsSnapshot {
  parent: string;
  /** Live roots in creation order, each with its group. */
  groups: Array<{ root: number; members: number[]; territory: number[]; frontier: number[] }>;
}

export class Groups {
  private readonly parent: number[] = [];
  private readonly data: Array<GroupData | null> = [];
  /** Live roots, for dropping a newly solved tile from every frontier. */
  private readonly roots = new Set<number>();

  /** A new agent forms its own group, its seed tile (if any) on the frontier. */
  add(agent: number, seedTile: number | null): void {
    if (agent !== this.parent.length) throw new Error(`agent ${agent} added out of order`);
    this.parent.push(agent);
    const frontier = new Set<number>();
    if (seedTile !== null) frontier.add(seedTile);
    this.data.push({ members: [agent], territory: [], frontier });
    this.roots.add(agent);
  }

  find(agent: number): number {
    let root = agent;
    while (this.parent[root] !== root) root = this.parent[root];
    while (this.parent[agent] !== root) {
      const next = this.parent[agent];
      this.parent[agent] = root;
      agent = next;
    }
    return root;
  }

  group(agent: number): GroupData {
    return this.data[this.find(agent)] as GroupData;
  }

  /** Agents added so far. */
  get size(): number {
    return this.parent.length;
  }

  /** Roots of all groups, in creation order. */
  rootList(): number[] {
    return [...this.roots];
  }

  onFrontier(agent: number, tile: number): boolean {
    return this.group(agent).frontier.has(tile);
  }

  /** Sorted frontier of the agent's group. */
  frontierOf(agent: number): number[] {
    return [...this.group(agent).frontier].sort((a, b) => a - b);
  }

  /**
   * Record that `agent`'s group solved `tile`: it leaves every frontier, joins the group's
   * territory, and its unsolved neighbours join the group's frontier.
   */
  solved(agent: number, tile: number, unsolvedNeighbours: readonly number[]): void {
    for (const root of this.roots) (this.data[root] as GroupData).frontier.delete(tile);
    const g = this.group(agent);
    g.territory.push(tile);
    for (const n of unsolvedNeighbours) g.frontier.add(n);
  }

  /** Merge the groups of two agents; returns the members of b's former group, or null if already one. */
  merge(a: number, b: number): number[] | null {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return null;
    const met = [...(this.data[rb] as GroupData).members];
    let da = this.data[ra] as GroupData;
    let db = this.data[rb] as GroupData;
    if (da.members.length + da.territory.length < db.members.length + db.territory.length) {
      [ra, rb] = [rb, ra];
      [da, db] = [db, da];
    }
    this.parent[rb] = ra;
    da.members = mergeSorted(da.members, db.members);
    for (const t of db.territory) da.territory.push(t);
    for (const t of db.frontier) da.frontier.add(t);
    this.data[rb] = null;
    this.roots.delete(rb);
    return met;
  }

  snapshot(): GroupsSnapshot {
    return {
      parent: packInts(this.parent),
      groups: [...this.roots].map((root) => {
        const g = this.data[root] as GroupData;
        return { root, members: [...g.members], territory: [...g.territory], frontier: [...g.frontier] };
      }),
    };
  }

  static fromSnapshot(s: GroupsSnapshot): Groups {
    const groups = new Groups();
    for (const p of unpackInts(s.parent)) {
      groups.parent.push(p);
      groups.data.push(null);
    }
    for (const g of s.groups) {
      if (!(g.root >= 0 && g.root < groups.parent.length && groups.parent[g.root] === g.root)) throw new Error(`group root ${g.root} is not a root`);
      groups.data[g.root] = { members: [...g.members], territory: [...g.territory], frontier: new Set(g.frontier) };
      groups.roots.add(g.root);
    }
    // Every agent must reach a listed root (a damaged parent list could otherwise loop in find).
    const n = groups.parent.length;
    for (let i = 0; i < n; i++) {
      let p = i;
      for (let steps = 0; groups.parent[p] !== p; steps++) {
        p = groups.parent[p];
        if (steps > n || !(p >= 0 && p < n)) throw new Error(`agent ${i} has no group`);
      }
      if (!groups.roots.has(p)) throw new Error(`agent ${i} has no group`);
    }
    return groups;
  }

  /** Compact state for the digest. */
  digestParts(): number[] {
    const out: number[] = [];
    for (const r of this.roots) {
      const g = this.data[r] as GroupData;
      out.push(r, ...g.members, -1, ...g.territory, -2, ...[...g.frontier].sort((x, y) => x - y), -3);
    }
    return out;
  }
}

function mergeSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}
