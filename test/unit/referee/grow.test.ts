import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import { chainField } from "./fixtures";
import { joinInput, makeReferee, ok, playOut, T0 } from "./helpers";

describe("growth (SPEC §5)", () => {
  it("a ring's tiles join the board and the frontier; a solved field plays on", () => {
    const whole = chainField(4, 6);
    const initial: Field = { G: whole.G, tiles: whole.tiles.slice(0, 3), solution: whole.solution };
    const ref = makeReferee(initial);
    const a = ok(ref, joinInput("m-a")).agent as string;
    playOut(ref, initial, [a]);
    expect(ref.status).toBe("solved");
    const before = ref.revision;

    const bad = ref.grow({ ring: 1, tiles: whole.tiles.slice(4, 6), solution: whole.solution }, T0);
    expect(!bad.ok && bad.error.message).toContain("id 3");
    expect(ref.revision).toBe(before);

    const r = ref.grow({ ring: 1, tiles: whole.tiles.slice(3), solution: whole.solution }, T0 + 5);
    expect(r.ok && r.event).toEqual({ rev: before + 1, type: "grow", at: T0 + 5, ring: 1, first_tile: 3, tiles: 3 });
    expect(ref.status).toBe("playing");
    expect(ref.grown).toBe(1);
    expect(ref.tilesTotal()).toBe(6);
    // Tile 3 shares a column with tile 2, which a's group solved: it is on the frontier at once.
    expect(ref.frontier(a)).toEqual([3]);
    expect(ref.tileStatus(3)).toMatchObject({ status: "hidden", changed_at: before + 1 });
    const o = ref.observe({ agent: a });
    expect(o.ok && o.observation).toMatchObject({ grown: 1, tiles_total: 6 });
    playOut(ref, whole, [a]);
    expect(ref.status).toBe("solved");
    expect(ref.totals()).toEqual({ reward: whole.tiles.reduce((s, t) => s + t.cellIds.length, 0), solved: 6 });
    ref.close(T0 + 9);
    expect(!ref.grow({ ring: 2, tiles: [], solution: whole.solution }, T0).ok).toBe(true);
  });
});
