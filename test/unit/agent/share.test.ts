import { describe, expect, it } from "vitest";
import { Board, type AgentView } from "../../../agent/board";
import { WorkShare } from "../../../agent/share";

/**
 * The reference agent's sharing of frontiers (agent/share.ts): every agent computes the same
 * order of who works a tile from public data, so group mates (and two groups on a tile between
 * them) do not all commit the same cells and get refused as conflicts.
 */

const G = 40;
/**
 * Tiles 0..9 side by side (4×4 each, sharing their edge columns: tile t covers x = 3t..3t+3);
 * `solvers`: tile → who solved it; the others are `unsolved` (hidden: nobody revealed them yet)
 * and on the agent's frontier.
 */
function boardOf(me: string, agents: AgentView[], solvers: Record<number, string> = {}, unsolved: "hidden" | "revealed" = "hidden"): Board {
  const board = new Board(me);
  board.G = G;
  for (let id = 0; id < 10; id++) {
    const solver = solvers[id];
    board.upsertTile({
      id,
      x0: id * 3,
      y0: 0,
      w: 4,
      h: 4,
      rects: [[0, 0, 4, 4]],
      status: solver ? "solved" : unsolved,
      agent: solver ?? null,
      neighbours: [id - 1, id + 1].filter((n) => n >= 0 && n < 10),
    });
  }
  board.agents = agents;
  board.frontier = [...board.tiles.values()].filter((t) => t.status !== "solved").map((t) => t.id);
  return board;
}

const group = (ids: string[], root = ids[0]): AgentView[] => ids.map((id) => ({ id, group: root }));

describe("reference agent: sharing the frontier", () => {
  it("gives every tile to exactly one member of a group, the same in every member's eyes, spread over the members", () => {
    const ids = ["m-a/1", "m-b/1", "m-c/1", "m-d/1"];
    const shares = ids.map((me) => new WorkShare(boardOf(me, group(ids))));
    const owners = new Map<string, number>();
    for (let tile = 1; tile < 9; tile++) {
      const orders = shares.map((s) => s.candidates(tile));
      for (const o of orders) expect(o).toEqual(orders[0]);
      const first = shares.filter((s) => s.place(tile) === 0);
      expect(first).toHaveLength(1);
      expect(shares.map((s) => s.place(tile)).sort()).toEqual([0, 1, 2, 3]);
      const owner = ids[shares.indexOf(first[0])];
      owners.set(owner, (owners.get(owner) ?? 0) + 1);
    }
    // Eight tiles over four members: nobody gets them all.
    expect(owners.size).toBeGreaterThan(1);
  });

  it("gives a tile between two groups to one member of one of them, whichever group looks", () => {
    // Tile 1 shares cells with tile 0 (solved by group m-z) and tile 2 (solved by group m-a):
    // it is on both groups' frontiers.
    const agents = [...group(["m-z/1", "m-y/1"]), ...group(["m-a/1", "m-b/1"])];
    const views = agents.map((a) => new WorkShare(boardOf(a.id, agents, { 0: "m-z/1", 2: "m-a/1" })));
    const orders = views.map((v) => v.candidates(1));
    for (const o of orders) expect(o).toEqual(orders[0]);
    // The lower group id first, then the other: everyone agrees on the first.
    expect(orders[0].slice(0, 2).sort()).toEqual(["m-a/1", "m-b/1"]);
    expect(views.filter((v) => v.place(1) === 0)).toHaveLength(1);
  });

  it("lets the next member take a tile over only after it stayed workable for its place's looks, and keeps it then", () => {
    const ids = ["m-a/1", "m-b/1"];
    const tile = [1, 2, 3, 4, 5, 6, 7, 8].find((t) => new WorkShare(boardOf("m-b/1", group(ids))).place(t) === 1)!;
    const share = new WorkShare(boardOf("m-b/1", group(ids)));
    let looks = 0;
    while (!share.mayWork(tile)) {
      expect(share.othersHaveWork() || looks === 0).toBe(true);
      share.noteLook([tile]);
      looks++;
      expect(looks).toBeLessThan(100);
    }
    expect(looks).toBeGreaterThan(2);
    // Still workable at the next look: it stays this member's.
    share.noteLook([tile]);
    expect(share.mayWork(tile)).toBe(true);
    // Done (no longer workable): forgotten; workable again later, the owner has it first again.
    share.noteLook([]);
    expect(share.mayWork(tile)).toBe(false);
    expect(share.othersHaveWork()).toBe(false);
  });

  it("works alone before any observation lists the group, revealed tiles included", () => {
    for (const unsolved of ["hidden", "revealed"] as const) {
      const share = new WorkShare(boardOf("m-a/1", [], {}, unsolved));
      for (let tile = 0; tile < 10; tile++) expect(share.mayWork(tile)).toBe(true);
    }
  });
});

/** The cell at column x, row 1 (every tile covers rows 0..3). */
const cellAt = (x: number): number => G + x;

describe("reference agent: sharing where views differ", () => {
  it("leaves a revealed tile to its revealer: the first of the order waits, as does another group", () => {
    const ids = ["m-a/1", "m-b/1", "m-c/1"];
    const tile = [1, 2, 3, 4, 5, 6, 7, 8].find((t) => new WorkShare(boardOf("m-a/1", group(ids))).place(t) === 0)!;
    const first = new WorkShare(boardOf("m-a/1", group(ids), {}, "revealed"));
    const revealer = new WorkShare(boardOf("m-c/1", group(ids), {}, "revealed"));
    revealer.noteRevealed(tile);
    expect(revealer.place(tile)).toBe(0);
    expect(revealer.mayWork(tile)).toBe(true);
    // The hash order's first did not reveal it: someone else did and is working it.
    expect(first.place(tile)).toBe(1);
    expect(first.mayWork(tile)).toBe(false);
    expect(first.othersHold(tile)).toBe(true);

    // Another group on the same tile whose view lists only itself (it has not seen the revealer's
    // group yet) and puts this agent first: it waits too, instead of committing the cells the
    // revealer is committing.
    const strangers = group(["m-z/1", "m-y/1"]);
    const its = [1, 2, 3, 4, 5, 6, 7, 8].find((t) => new WorkShare(boardOf("m-z/1", strangers)).place(t) === 0)!;
    const stranger = new WorkShare(boardOf("m-z/1", strangers, {}, "revealed"));
    expect(stranger.candidates(its)[0]).toBe("m-z/1");
    expect(stranger.mayWork(its)).toBe(false);
  });

  it("shares nothing when it does not coordinate: every revealed tile and proven cell is its own", () => {
    // The case above, seen by the order's first, who did not reveal the tile: sharing makes it wait.
    const ids = ["m-a/1", "m-b/1", "m-c/1"];
    const tile = [1, 2, 3, 4, 5, 6, 7, 8].find((t) => new WorkShare(boardOf("m-a/1", group(ids))).place(t) === 0)!;
    expect(new WorkShare(boardOf("m-a/1", group(ids), {}, "revealed")).othersHold(tile)).toBe(true);
    const alone = new WorkShare(boardOf("m-a/1", group(ids), {}, "revealed"), true);
    expect(alone.othersHold(tile)).toBe(false);
    expect(alone.mayCommit(cellAt(6))).toBe(true);
    expect(alone.othersHaveWork()).toBe(false);
    // A cell in no revealed tile is still not committed.
    expect(new WorkShare(boardOf("m-a/1", group(ids)), true).mayCommit(cellAt(6))).toBe(false);
  });

  it("takes a revealed tile over when it stays workable, so a departed revealer does not leave it undone", () => {
    const ids = ["m-a/1", "m-b/1"];
    const share = new WorkShare(boardOf("m-a/1", group(ids), {}, "revealed"));
    const tile = 4;
    const place = share.place(tile);
    expect(place).toBeGreaterThan(0);
    for (let look = 0; look < place * 6; look++) {
      expect(share.mayWork(tile)).toBe(false);
      expect(share.othersHaveWork()).toBe(look > 0);
      share.noteLook([tile]);
    }
    expect(share.mayWork(tile)).toBe(true);
  });

  it("commits a seam cell for the lowest revealed tile holding it, whoever's frontier that is", () => {
    const agents = [...group(["m-a/1"]), ...group(["m-b/1"])];
    const seam = cellAt(6); // tiles 1 and 2
    const inner = cellAt(8); // tile 2 only
    // m-b revealed tile 2 and has only it on its frontier; m-a revealed tile 1 and has both.
    const b = boardOf("m-b/1", agents, {}, "revealed");
    b.frontier = [2];
    const bShare = new WorkShare(b);
    bShare.noteRevealed(2);
    const a = boardOf("m-a/1", agents, {}, "revealed");
    a.frontier = [1, 2];
    const aShare = new WorkShare(a);
    aShare.noteRevealed(1);
    expect(aShare.cellTile(seam)).toBe(1);
    expect(bShare.cellTile(seam)).toBe(1);
    expect(aShare.mayCommit(seam)).toBe(true);
    expect(bShare.mayCommit(seam)).toBe(false);
    expect(bShare.mayCommit(inner)).toBe(true);
    expect(aShare.mayCommit(inner)).toBe(false);
  });

  it("holds a cell that also lies in a hidden tile another group may reveal, for a few looks at most", () => {
    // Tile 0 is solved by group m-z, so hidden tile 1 is on m-z's frontier, not on m-a's
    // (whose frontier is tile 2, revealed by m-a). The seam of tiles 1 and 2 waits for m-z's reveal.
    const agents = [...group(["m-z/1"]), ...group(["m-a/1"])];
    const seam = cellAt(6);
    const board = boardOf("m-a/1", agents, { 0: "m-z/1" });
    board.upsertTile({ id: 2, x0: 6, y0: 0, w: 4, h: 4, rects: [[0, 0, 4, 4]], status: "revealed" });
    board.frontier = [2];
    const share = new WorkShare(board);
    share.noteRevealed(2);
    expect(share.mayCommit(cellAt(8))).toBe(true);
    expect(share.mayCommit(seam)).toBe(false);
    let looks = 0;
    while (!share.mayCommit(seam)) {
      expect(share.othersHaveWork() || looks === 0).toBe(true);
      share.noteLook(share.watchedFor(seam));
      looks++;
      expect(looks).toBeLessThan(20);
    }
    expect(looks).toBe(6);

    // Tile 0 revealed off m-a's frontier: another group is working it, and once it is solved,
    // tile 1 is on that group's frontier. The seam waits the same way.
    const working = boardOf("m-a/1", agents, {}, "revealed");
    working.upsertTile({ id: 1, x0: 3, y0: 0, w: 4, h: 4, rects: [[0, 0, 4, 4]], status: "hidden" });
    working.frontier = [2];
    const near = new WorkShare(working);
    near.noteRevealed(2);
    expect(working.tile(1)?.status).toBe("hidden");
    expect(near.mayCommit(seam)).toBe(false);

    // Nobody else reaches tile 1 (tile 0 hidden): nothing to wait for.
    const alone = boardOf("m-a/1", agents);
    alone.upsertTile({ id: 2, x0: 6, y0: 0, w: 4, h: 4, rects: [[0, 0, 4, 4]], status: "revealed" });
    alone.frontier = [2];
    const free = new WorkShare(alone);
    free.noteRevealed(2);
    expect(free.mayCommit(seam)).toBe(true);
  });
});
