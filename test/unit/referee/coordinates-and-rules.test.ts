import { describe, expect, it } from "vitest";
import { commitCellsFromXy, retractCellsFromXy } from "../../../src/referee/coordinates";
import { buildField, gridField } from "./fixtures";
import { joinInput, makeReferee, ok } from "./helpers";

describe("cells by coordinates (SPEC §6, §6.1)", () => {
  it("turns [x, y, v] and [x, y] into ids y*G + x, in order", () => {
    expect(commitCellsFromXy(40, [[3, 0, 1], [0, 1, 0], [39, 39, 1]])).toEqual({ ok: true, cells: [[3, 1], [40, 0], [39 * 40 + 39, 1]] });
    expect(retractCellsFromXy(40, [[3, 2], [3, 2], [0, 0]])).toEqual({ ok: true, cells: [83, 83, 0] });
  });

  it("refuses a pair outside the field by name, and malformed entries", () => {
    const outside = (r: { ok: true } | { ok: false; error: { code: string; message: string } }) => (r.ok ? "" : `${r.error.code}: ${r.error.message}`);
    expect(outside(commitCellsFromXy(40, [[1, 1, 0], [40, 3, 1]]))).toBe("bad_input: xy[1]: (40,3) is outside the field (x and y run 0..39)");
    expect(outside(retractCellsFromXy(40, [[-1, 5]]))).toBe("bad_input: xy[0]: (-1,5) is outside the field (x and y run 0..39)");
    expect(outside(retractCellsFromXy(40, [[5, 40]]))).toBe("bad_input: xy[0]: (5,40) is outside the field (x and y run 0..39)");
    expect(outside(commitCellsFromXy(40, [[1, 1, 2]]))).toMatch(/^bad_input: xy\[0\]: a cell value must be 0 or 1, got 2/);
    expect(outside(commitCellsFromXy(40, [[1, 1]]))).toMatch(/^bad_input: xy\[0\] must be an \[x, y, 0\|1\] triple/);
    expect(outside(retractCellsFromXy(40, [[1.5, 1]]))).toMatch(/^bad_input: xy\[0\]: x and y must be whole numbers/);
    expect(outside(retractCellsFromXy(40, []))).toMatch(/^bad_input: xy must be a non-empty list/);
  });

  it("keeps the limits of cells: 512 a commit, 8192 a retract", () => {
    const triples = (n: number) => Array.from({ length: n }, (_, i) => [i % 40, Math.floor(i / 40), 0]);
    expect(commitCellsFromXy(40, triples(512)).ok).toBe(true);
    const big = commitCellsFromXy(40, triples(513));
    expect(big.ok ? null : big.error.code).toBe("too_large");
    const pairs = (n: number) => Array.from({ length: n }, (_, i) => [i % 100, Math.floor(i / 100) % 100]);
    expect(retractCellsFromXy(100, pairs(8192)).ok).toBe(true);
    const bigRetract = retractCellsFromXy(100, pairs(8193));
    expect(bigRetract.ok ? null : bigRetract.error.code).toBe("too_large");
  });
});

describe("the field's rules in join and observe (SPEC §6.1)", () => {
  it("join and every observe scope carry rules {guess, depth, fog}, the field's settings", () => {
    const rules = { guess: "reject", depth: 2, fog: true } as const;
    const ref = makeReferee(gridField(6, 2), rules);
    const joined = ok(ref, joinInput("m-r"));
    expect(joined.rules).toEqual(rules);
    // A rejoin answers the same.
    expect(ok(ref, joinInput("m-r")).rules).toEqual(rules);
    for (const query of [{ agent: String(joined.agent), callerMachineId: "m-r" }, { full: true }, { rect: [0, 0, 4, 4] as [number, number, number, number] }]) {
      const r = ref.observe(query);
      expect(r.ok && r.observation.rules, JSON.stringify(query)).toEqual(rules);
    }
  });

  it("the header of a field too large to list carries them too", () => {
    const ref = makeReferee(buildField(121, [{ x0: 0, y0: 0, w: 4, h: 4 }]), { guess: "accept", depth: 1 });
    const r = ref.observe({});
    expect(r.ok && r.observation.scope).toBe("header");
    expect(r.ok && r.observation.rules).toEqual({ guess: "accept", depth: 1, fog: false });
  });
});
