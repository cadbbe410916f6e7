import { describe, expect, it } from "vitest";
import { Board, type AgentView } from "../../../agent/board";
import { WorkShare } from "../../../agent/share";

/**
 * The reference agent's sharing of frontiers (agent/share.ts): every agent computes the same
 * order of who works a tile from public data, so group mates (and two groups on a tile between
 * them) do not all commit the same cells and get refused as conflicts.
 */

const G = 40;
/** Tiles 0..9 side by side (4×4 each, sharing their edge columns); `solvers`: tile → who solved it. */
function boardOf(me: string, agents: AgentView[], solvers: Record<number, string> = {}): Board {
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
      status: solver ? "solved" : "revealed",
      agent: solver ?? null,
      neighbours: [id - 1, id + 1].filter((n) => n >= 0 && n < 10),
    });
  }
  board.agents = agents;
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

  it("works alone before any observation lists the group", () => {
    const share = new WorkShare(boardOf("m-a/1", []));
    for (let tile = 0; tile < 10; tile++) expect(share.mayWork(tile)).toBe(true);
  });
});
