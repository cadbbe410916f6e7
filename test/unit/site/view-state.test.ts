// The in-host view's knowledge (src/site/view/state.ts) merged from SPEC §6.1 answers, and the
// last tile's picture: what the view draws and lists comes from here.
import { describe, expect, it } from "vitest";
import { applyResult, applyToolInput, emptyState, fieldSize, toolOfResult } from "../../../src/site/view/state";
import { tilePicture } from "../../../src/site/view/picture";
import { xy } from "../../../src/text/coordinates";

const G = 20;
const seed = { id: 3, x0: 4, y0: 2, w: 3, h: 2, rects: [[0, 0, 3, 1], [1, 1, 2, 1]], cells: 5, m: 2 };
const join = { agent: "m-a/1", seed_tile: 3, seed, revision: 7, verified: true, harness: "h", harness_source: "argument" };
const observation = {
  observation: {
    game_id: "g1", status: "playing", revision: 9, G, tiles_total: 30, grown: 0, fog: false,
    tiles: [
      { ...seed, status: "revealed", agent: null, neighbours: [5] },
      { id: 5, x0: 6, y0: 2, w: 2, h: 2, rects: [[0, 0, 2, 2]], cells: 4, m: 2, status: "solved", agent: "m-b/1", neighbours: [3] },
    ],
    frontier: [3],
    known: { gaps: [2 * G + 4, 1], values: "10" },
    agents: [{ id: "m-a/1", reward: 12, seed_tile: 3 }],
    totals: { reward: 20, solved: 1 },
    health: { state: "healthy" },
  },
};

describe("the view's state", () => {
  it("tells the four answers apart by their shape", () => {
    expect(toolOfResult(join)).toBe("join");
    expect(toolOfResult(observation)).toBe("observe");
    expect(toolOfResult({ tile: 3, x0: 4, y0: 2, w: 3, h: 2, rects: [], givens: [], seam: [], solved: [], revision: 8 })).toBe("reveal");
    expect(toolOfResult({ revision: 9, status: "playing", accepted: [], rejected: [], ignored: [], unevaluated: [], solved: [], meets: [], reward: 0, frontier: [] })).toBe("commit");
    expect(toolOfResult({ games: [] })).toBeNull();
  });

  it("draws the seed from join alone, then learns G, cells and reward from observe", () => {
    let s = applyToolInput(emptyState(), { game_id: "g1", session: "1" });
    s = applyResult(s, join);
    expect(s.agent).toBe("m-a/1");
    expect(s.tiles.get(3)).toMatchObject({ status: "hidden", x0: 4, y0: 2 });
    expect(s.frontier).toEqual([3]);
    expect(s.G).toBeNull();
    expect(fieldSize(s)).toBe(7);
    s = applyResult(s, observation);
    expect(s.G).toBe(G);
    expect(fieldSize(s)).toBe(G);
    expect(s.tiles.get(5)).toMatchObject({ status: "solved", agent: "m-b/1" });
    expect([...s.known]).toEqual([[2 * G + 4, 1], [2 * G + 5, 0]]);
    expect(s.reward).toBe(12);
    expect(s.health?.state).toBe("healthy");
  });

  it("keeps rejected cells and raised statuses through a later observe, and starts afresh on another field", () => {
    let s = applyResult(applyResult(applyToolInput(emptyState(), { game_id: "g1" }), join), observation);
    s = applyResult(s, { revision: 10, status: "playing", accepted: [{ id: 2 * G + 6, v: 1, class: "forced" }], rejected: [{ id: 3 * G + 5, reason: "wrong", v: 0 }], ignored: [], unevaluated: [], solved: [3], meets: [], reward: 5, frontier: [8], health: { state: "warning", wrong: 1, committed: 2 } });
    expect(s.tiles.get(3)).toMatchObject({ status: "solved", agent: "m-a/1" });
    expect(s.rejected.has(3 * G + 5)).toBe(true);
    expect(s.lastCommitReward).toBe(5);
    expect(s.frontier).toEqual([8]);
    s = applyResult(s, observation);
    expect(s.tiles.get(3)?.status).toBe("solved");
    expect(s.rejected.has(3 * G + 5)).toBe(true);
    const other = applyToolInput(s, { game_id: "g2", agent: "m-a/1" });
    expect(other.tiles.size).toBe(0);
    expect(other.gameId).toBe("g2");
  });

  it("pictures the last revealed tile with its known, unknown and rejected cells", () => {
    let s = applyResult(applyToolInput(emptyState(), { game_id: "g1" }), observation);
    s = applyResult(s, { tile: 3, x0: 4, y0: 2, w: 3, h: 2, rects: seed.rects, cells: 5, m: 2, givens: [[2 * G + 6, 1]], seam: [], solved: [], revision: 10 });
    s.rejected.add(3 * G + 5);
    expect(tilePicture(s.lastTile!, G, s.known, s.rejected)).toBe(["  456", "2 101", "3  x."].join("\n"));
    expect(xy(3 * G + 5, G)).toBe("(5,3)");
  });
});
