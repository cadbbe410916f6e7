import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import { decodeKnown, encodeKnown } from "../../../src/referee/delta";
import type { Referee } from "../../../src/referee/referee";
import { boxGap } from "../../../src/referee/spatial";
import { buildField, chainField, gridField, scatterField } from "./fixtures";
import { commit, honestStep, joinInput, makeReferee, ok, reveal, unknownCellsOf } from "./helpers";

type Obs = {
  tiles: Array<{ id: number; status: string; agent: string | null; neighbours: number[]; cells: number; x0: number; y0: number; w: number; h: number; m: number; rects: unknown }>;
  frontier: number[];
  known: { gaps: number[]; values: string };
  health?: { state: string };
  [k: string]: unknown;
};

function observation(ref: Referee, query: Parameters<Referee["observe"]>[0]): Obs {
  const r = ref.observe(query);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.observation as Obs;
}

function neighboursOf(field: Field, id: number): number[] {
  const cells = new Set(field.tiles[id].cellIds);
  return field.tiles.filter((t) => t.id !== id && t.cellIds.some((c) => cells.has(c))).map((t) => t.id);
}

describe("delta coding of known cells", () => {
  it("round-trips and decodes by cumulative sum", () => {
    const ids = [0, 3, 4, 10, 99, 100, 4000];
    const values: Record<number, 0 | 1> = { 0: 1, 3: 0, 4: 1, 10: 1, 99: 0, 100: 0, 4000: 1 };
    const enc = encodeKnown(ids, (c) => values[c]);
    expect(enc).toEqual({ gaps: [0, 3, 1, 6, 89, 1, 3900], values: "1011001" });
    expect(decodeKnown(enc)).toEqual(ids.map((c) => [c, values[c]]));
    expect(decodeKnown(encodeKnown([], () => 0))).toEqual([]);
  });
});

describe("observe (SPEC §4.7)", () => {
  it("full scope on a small field lists every tile with the §6.1 fields", () => {
    const field = scatterField();
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    for (let i = 0; i < 4; i++) honestStep(ref, field, a);
    const o = observation(ref, { full: true });
    expect(o).toMatchObject({ game_id: "test-game", status: "playing", revision: ref.revision, G: 14, tiles_total: field.tiles.length, grown: 0, fog: false, scope: "full" });
    expect(o.tiles.map((t) => t.id)).toEqual(field.tiles.map((t) => t.id));
    for (const t of o.tiles) {
      const f = field.tiles[t.id];
      expect(t).toMatchObject({ x0: f.x0, y0: f.y0, w: f.w, h: f.h, rects: f.rects, cells: f.cellIds.length, m: f.m });
      expect(t.neighbours).toEqual(neighboursOf(field, t.id));
      expect(t.status).toBe(ref.tileStatus(t.id)?.status);
      expect(t.agent).toBe(ref.tileStatus(t.id)?.agent);
    }
    expect((o.agents as unknown[]).length).toBe(1);
    expect(o.totals).toEqual(ref.totals());
    // Without an agent, known covers the listed revealed and solved tiles: here, every known cell.
    const all = ref.knownCells();
    expect(decodeKnown(o.known)).toEqual(all.ids.map((c, i) => [c, Number(all.values[i])]));
  });

  it("no scope on a field with G > 120 answers the header and a note naming the scopes; full: true is refused", () => {
    const field = buildField(121, [
      { x0: 0, y0: 0, w: 4, h: 4 },
      { x0: 100, y0: 100, w: 4, h: 4 },
    ]);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    ok(ref, joinInput("m-b"));
    const header = observation(ref, {});
    expect(header).toMatchObject({ game_id: "test-game", status: "playing", revision: ref.revision, G: 121, scope: "header", tiles_total: 2, grown: 0, fog: false });
    expect(header.tiles).toEqual([]);
    expect(header.known).toEqual({ gaps: [], values: "" });
    expect(header.totals).toEqual(ref.totals());
    expect(header.agents_total).toBe(2);
    // A spectator's header lists nobody (it stays small on a busy field); a seated caller's, its own group.
    expect(header.agents).toEqual([]);
    expect(header.frontier).toEqual([]);
    expect(header.note).toMatch(/\{agent\}/);
    expect(header.note).toMatch(/\{rect: \[x, y, w, h\]\}/);
    const mine = observation(ref, { callerMachineId: "m-a" });
    expect((mine.agents as Array<{ id: string }>).map((x) => x.id)).toEqual([a]);
    expect(mine.frontier).toEqual([ref.agents()[0].seed_tile]);
    const full = ref.observe({ full: true });
    expect(full.ok).toBe(false);
    if (!full.ok) {
      expect(full.error.code).toBe("bad_input");
      expect(full.error.message).toContain("G ≤ 120");
      expect(full.error.message).toContain("{agent}");
    }
    const rect = observation(ref, { rect: [90, 90, 20, 20] });
    expect(rect.tiles.map((t) => t.id)).toEqual([1]);
    const big = ref.observe({ rect: [0, 0, 121, 121] });
    expect(!big.ok && big.error.code).toBe("too_large");
  });

  it("rect scope lists exactly the tiles whose box meets the rectangle", () => {
    const field = gridField(4, 5);
    const ref = makeReferee(field);
    for (const rect of [[0, 0, 1, 1], [3, 3, 1, 1], [2, 5, 7, 3], [10, 10, 50, 50], [15, 0, 1, 16]] as Array<[number, number, number, number]>) {
      const got = observation(ref, { rect }).tiles.map((t) => t.id);
      const [x, y, w, h] = rect;
      const want = field.tiles.filter((t) => t.x0 < x + w && x < t.x0 + t.w && t.y0 < y + h && y < t.y0 + t.h).map((t) => t.id);
      expect(got).toEqual(want);
    }
  });

  it("rect scope lists the tiles whose cells meet the rectangle, not those whose box only does", () => {
    const field = scatterField();
    const ref = makeReferee(field);
    const meets = (rect: [number, number, number, number]) => {
      const [x, y, w, h] = rect;
      return field.tiles.filter((t) => t.cellIds.some((c) => c % field.G >= x && c % field.G < x + w && Math.floor(c / field.G) >= y && Math.floor(c / field.G) < y + h)).map((t) => t.id);
    };
    // (5, 2) is in the notch of the L's box, (4, 4) in a corner of the plus's box.
    for (const rect of [[5, 2, 1, 1], [4, 4, 1, 1], [4, 4, 2, 2], [0, 0, 14, 14], [5, 2, 2, 3]] as Array<[number, number, number, number]>) {
      expect(observation(ref, { rect }).tiles.map((t) => t.id)).toEqual(meets(rect));
    }
    expect(observation(ref, { rect: [5, 2, 1, 1] }).tiles).toEqual([]);
  });

  it("without an agent, a seated caller's view carries the frontier of its machine's groups", () => {
    const field = chainField(6, 14, { givenEvery: 3 });
    const ref = makeReferee(field);
    const a1 = ok(ref, joinInput("m-a", "1")).agent as string;
    const a2 = ok(ref, joinInput("m-a", "2")).agent as string;
    ok(ref, joinInput("m-b"));
    honestStep(ref, field, a1);
    const union = [...new Set([...(ref.frontier(a1) as number[]), ...(ref.frontier(a2) as number[])])].sort((x, y) => x - y);
    expect(observation(ref, { rect: [0, 0, 5, 5], callerMachineId: "m-a" }).frontier).toEqual(union);
    expect(observation(ref, { full: true, callerMachineId: "m-a" }).frontier).toEqual(union);
    // A spectator has no frontier.
    expect(observation(ref, { rect: [0, 0, 5, 5] }).frontier).toEqual([]);
  });

  it("agents follow the scope: the caller's group and the agents of the listed tiles; every agent only in a full view", () => {
    const field = chainField(6, 14, { givenEvery: 3 }); // G = 71, tiles in a long chain
    const ref = makeReferee(field);
    const seated = Array.from({ length: 8 }, (_, i) => ok(ref, joinInput(`m-${i}`)).agent as string);
    const a = seated[0];
    for (let i = 0; i < 3; i++) honestStep(ref, field, a);
    const all = ref.agents().map((x) => x.id as string);
    expect(all).toHaveLength(8);
    const check = (o: Obs, perspective: string[]) => {
      const listed = new Set(o.tiles.map((t) => t.id));
      const want = new Set(perspective);
      for (const x of ref.agents()) if (listed.has(x.seed_tile as number)) want.add(x.id as string);
      for (const t of o.tiles) if (t.agent) want.add(t.agent);
      const got = (o.agents as Array<{ id: string }>).map((x) => x.id);
      expect(got).toEqual(all.filter((id) => want.has(id)));
      return got;
    };
    const mine = check(observation(ref, { agent: a }), ref.groupOf(a) as string[]);
    expect(mine.length).toBeLessThan(all.length);
    const corner = check(observation(ref, { rect: [0, 0, 1, 1] }), []);
    expect(corner.length).toBeLessThan(all.length);
    expect((observation(ref, { full: true }).agents as unknown[]).length).toBe(all.length);
  });

  it("agent scope: territory, seeds, every tile within 24 cells, the frontier, known cells of the frontier, health", () => {
    const field = chainField(6, 14, { givenEvery: 3 }); // G = 71: the 24-cell radius matters
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    ok(ref, joinInput("m-b"));
    for (let i = 0; i < 6; i++) honestStep(ref, field, a);
    // Leave one frontier tile revealed with some known cells.
    const open = (ref.frontier(a) as number[]).find((t) => ref.tileStatus(t)?.status === "hidden");
    if (open !== undefined) expect(reveal(ref, a, open).ok).toBe(true);
    const o = observation(ref, { agent: a, callerMachineId: "m-a" });
    const members = new Set(ref.groupOf(a));
    const base = field.tiles.filter((t) => {
      const st = ref.tileStatus(t.id);
      return (st?.status === "solved" && members.has(st.agent as string)) || t.id === (ref.agents()[0].seed_tile as number);
    });
    const frontier = ref.frontier(a) as number[];
    const want = field.tiles.filter((t) => frontier.includes(t.id) || base.some((b) => boxGap(b, t) <= 24)).map((t) => t.id);
    expect(o.tiles.map((t) => t.id)).toEqual(want);
    expect(want.length).toBeLessThan(field.tiles.length); // the scope is smaller than the field
    expect(o.frontier).toEqual(frontier);
    const knownFrontier = new Set<number>();
    for (const t of frontier) for (const c of field.tiles[t].cellIds) if (ref.cell(c)?.value !== -1) knownFrontier.add(c);
    expect(decodeKnown(o.known)).toEqual([...knownFrontier].sort((x, y) => x - y).map((c) => [c, field.solution[c]]));
    expect(o.health?.state).toBe("healthy");
    expect(o.scope).toBe("agent");
  });

  it("checks the caller: unknown agent, another machine's agent, malformed scopes", () => {
    const ref = makeReferee(gridField(4, 3));
    const a = ok(ref, joinInput("m-a")).agent as string;
    const code = (q: unknown): string | null => {
      const r = ref.observe(q as Parameters<Referee["observe"]>[0]);
      return r.ok ? null : r.error.code;
    };
    expect(code({ agent: "m-zz/1" })).toBe("not_seated");
    expect(code({ agent: a, callerMachineId: "m-b" })).toBe("not_your_agent");
    expect(code({ rect: [0, 0, 0, 3] })).toBe("bad_input");
    expect(code({ rect: [0, 0, 3] })).toBe("bad_input");
    expect(code({ rect: [-1, 0, 3, 3] })).toBe("bad_input");
    expect(code({ rect: [1.5, 0, 3, 3] })).toBe("bad_input");
    expect(code({ rect: [50, 0, 3, 3] })).toBe("bad_input");
    expect(code({ rect: [0, 0, 3, 3], full: true })).toBe("bad_input");
    expect(code(null)).toBe("bad_input");
    expect(code({ agent: 5 })).toBe("bad_input");
  });

  it("fog: hidden tiles appear only once the caller's group reached them", () => {
    const field = chainField(4, 10);
    const ref = makeReferee(field, { fog: true });
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const sa = (ref.frontier(a) as number[])[0];
    const sb = (ref.frontier(b) as number[])[0];
    // A spectator sees nothing hidden; a sees only its seed among hidden tiles.
    expect(observation(ref, { full: true }).tiles).toEqual([]);
    expect(observation(ref, { full: true, agent: a }).tiles.map((t) => t.id)).toEqual([sa]);
    expect(observation(ref, { full: true, callerMachineId: "m-b" }).tiles.map((t) => t.id)).toEqual([sb]);
    // After a reveals its seed, the tiles overlapping it are reached by a (not by b).
    expect(reveal(ref, a, sa).ok).toBe(true);
    const reachedByA = [sa, ...neighboursOf(field, sa)].sort((x, y) => x - y);
    const oa = observation(ref, { full: true, agent: a });
    expect(oa.tiles.map((t) => t.id)).toEqual(reachedByA);
    for (const t of oa.tiles) for (const n of t.neighbours) expect(reachedByA).toContain(n);
    const ob = observation(ref, { full: true, agent: b });
    expect(ob.tiles.map((t) => t.id)).toEqual([sa, sb].sort((x, y) => x - y)); // revealed tiles are public
    expect(ob.tiles.find((t) => t.id === sa)?.neighbours).toEqual([]);
    // The {agent} scope respects fog too.
    const scoped = observation(ref, { agent: b }).tiles.map((t) => t.id);
    for (const t of scoped) expect(t === sb || ref.tileStatus(t)?.status !== "hidden").toBe(true);
    expect(commit(ref, a, unknownCellsOf(ref, field, sa)).ok).toBe(true);
    expect(observation(ref, { agent: a }).tiles.map((t) => t.id)).toEqual(reachedByA);
  });
});
