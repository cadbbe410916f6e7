import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import type { Referee } from "../../../src/referee/referee";
import { boxGap } from "../../../src/referee/spatial";
import { chainField, gridField } from "./fixtures";
import { commit, honestStep, joinInput, makeReferee, ok } from "./helpers";

function overlaps(field: Field, a: number, b: number): boolean {
  const cells = new Set(field.tiles[a].cellIds);
  return a !== b && field.tiles[b].cellIds.some((c) => cells.has(c));
}

/** SPEC §4.2 from scratch: members' unsolved seeds + unsolved tiles sharing a cell with a tile the group solved. */
function expectedFrontier(ref: Referee, field: Field, agent: string): number[] {
  const members = new Set(ref.groupOf(agent));
  const out = new Set<number>();
  const rows = ref.agents();
  for (const row of rows) {
    if (!members.has(row.id as string) || row.seed_tile === null) continue;
    if (ref.tileStatus(row.seed_tile as number)?.status !== "solved") out.add(row.seed_tile as number);
  }
  for (const t of field.tiles) {
    const st = ref.tileStatus(t.id);
    if (st?.status !== "solved" || !members.has(st.agent as string)) continue;
    for (const u of field.tiles) if (overlaps(field, t.id, u.id) && ref.tileStatus(u.id)?.status !== "solved") out.add(u.id);
  }
  return [...out].sort((a, b) => a - b);
}

/** Independent group bookkeeping: merge whenever a newly solved tile overlaps one solved by another group. */
class GroupModel {
  private parent = new Map<string, string>();
  add(a: string): void {
    this.parent.set(a, a);
  }
  find(a: string): string {
    let r = a;
    while (this.parent.get(r) !== r) r = this.parent.get(r) as string;
    return r;
  }
  members(a: string): string[] {
    const r = this.find(a);
    return [...this.parent.keys()].filter((x) => this.find(x) === r).sort();
  }
  /** Apply a solved tile; returns the member lists of the groups it met. */
  solved(ref: Referee, field: Field, tile: number, by: string): string[][] {
    const met: string[][] = [];
    for (const u of field.tiles) {
      if (!overlaps(field, tile, u.id)) continue;
      const st = ref.tileStatus(u.id);
      if (st?.status !== "solved" || u.id === tile) continue;
      const other = st.agent as string;
      if (this.find(other) === this.find(by)) continue;
      met.push(this.members(other));
      this.parent.set(this.find(other), this.find(by));
    }
    return met;
  }
}

/** Play honest moves round-robin, checking the frontier and the meetings after every move. */
function playChecked(ref: Referee, field: Field, agents: string[]): Array<{ by: string; with: string[] }> {
  const model = new GroupModel();
  for (const a of agents) model.add(a);
  const meets: Array<{ by: string; with: string[] }> = [];
  for (let round = 0; round < 500; round++) {
    let moved = false;
    for (const a of agents) {
      const solvedBefore = new Set(field.tiles.filter((t) => ref.tileStatus(t.id)?.status === "solved").map((t) => t.id));
      const rev = ref.revision;
      if (!honestStep(ref, field, a)) continue;
      moved = true;
      expect(ref.revision).toBe(rev + 1);
      const newly = field.tiles.filter((t) => !solvedBefore.has(t.id) && ref.tileStatus(t.id)?.status === "solved").map((t) => t.id);
      for (const t of newly) {
        expect(ref.tileStatus(t)?.agent).toBe(a);
        for (const m of model.solved(ref, field, t, a)) meets.push({ by: a, with: m });
      }
      for (const b of agents) {
        expect(ref.groupOf(b)).toEqual(model.members(b));
        expect(ref.frontier(b)).toEqual(expectedFrontier(ref, field, b));
      }
    }
    if (!moved) break;
  }
  return meets;
}

describe("frontier and groups (SPEC §4.2)", () => {
  it("a new agent's frontier is its seed; seeds are spread far apart", () => {
    const field = chainField(4, 9);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const sa = ok(ref, joinInput("m-a")).seed_tile as number;
    const sb = ok(ref, joinInput("m-b")).seed_tile as number;
    expect(ref.frontier(a)).toEqual([sa]);
    expect(ref.frontier(b)).toEqual([sb]);
    // The second seed is as far from the first as the chain allows.
    const best = Math.max(...field.tiles.map((t) => boxGap(t, field.tiles[sa])));
    expect(boxGap(field.tiles[sb], field.tiles[sa])).toBe(best);
  });

  it("two groups grow, meet once, and share one frontier", () => {
    const field = chainField(4, 10);
    const ref = makeReferee(field);
    const agents = ["m-a", "m-b"].map((m) => ok(ref, joinInput(m)).agent as string);
    const meets = playChecked(ref, field, agents);
    expect(meets.length).toBe(1);
    expect(ref.groupOf(agents[0])).toEqual([...agents].sort());
    expect(ref.status).toBe("solved");
  });

  it("three groups on a grid meet pairwise and end as one", () => {
    const field = gridField(4, 5);
    const ref = makeReferee(field);
    const agents = ["m-a", "m-b", "m-c"].map((m) => ok(ref, joinInput(m)).agent as string);
    const meets = playChecked(ref, field, agents);
    expect(meets.length).toBe(2);
    expect(ref.groupOf(agents[2])).toEqual([...agents].sort());
    expect(new Set(ref.agents().map((r) => r.group)).size).toBe(1);
  });

  it("the commit that joins two territories reports the meeting with the other group's members", () => {
    const field = chainField(4, 6);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    let reported: unknown[] = [];
    for (let i = 0; i < 200 && reported.length === 0; i++) {
      for (const agent of [a, b]) {
        const frontier = ref.frontier(agent) as number[];
        const hidden = frontier.find((t) => ref.tileStatus(t)?.status === "hidden");
        if (hidden !== undefined) {
          ok(ref, { type: "reveal", machineId: agent.split("/")[0], agent, expectedRevision: ref.revision, tile: hidden, intent: "" });
          continue;
        }
        const open = frontier.find((t) => ref.tileStatus(t)?.status === "revealed");
        if (open === undefined) continue;
        const cells = field.tiles[open].cellIds.filter((c) => ref.cell(c)?.value === -1).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
        const r = commit(ref, agent, cells);
        if (!r.ok) throw new Error(r.error.message);
        if ((r.answer.meets as unknown[]).length > 0) {
          reported = r.answer.meets as unknown[];
          expect(reported).toEqual([{ with: [agent === a ? b : a] }]);
          expect(r.event?.meets).toEqual(reported);
          expect(r.answer.frontier).toEqual(ref.frontier(agent === a ? b : a));
          break;
        }
      }
    }
    expect(reported.length).toBe(1);
  });
});
