import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import type { Referee } from "../../../src/referee/referee";
import type { WriteResult } from "../../../src/referee/types";
import { chainField } from "./fixtures";
import { commit, expectError, groupMates, honestStep, joinInput, makeReferee, ok, retract, reveal, T0, unknownCellsOf } from "./helpers";

/**
 * Scoped conflicts (SPEC §4.9): a write conflicts only when one of its own cells changed (became
 * known, was retracted) or a tile containing them changed status after its expected_revision; a
 * reveal only when that tile changed; a reveal of a revealed tile is a read.
 */

function conflictOf(ref: Referee, r: WriteResult): { tiles: number[]; cells: number[]; known: number[][]; message: string } {
  const e = expectError(r) as { code: string; revision?: number; tiles?: number[]; cells?: number[]; known?: number[][]; message: string };
  expect(e.code).toBe("conflict");
  expect(e.revision).toBe(ref.revision);
  return { tiles: e.tiles ?? [], cells: e.cells ?? [], known: e.known ?? [], message: e.message };
}


describe("scoped conflicts (SPEC §4.9)", () => {
  it("group mates committing different cells of one tile from the same stale revision both go through", () => {
    const { field, ref, a, b } = groupMates();
    const open = (ref.frontier(a) as number[]).find((t) => unknownCellsOf(ref, field, t).length >= 3) as number;
    if (ref.tileStatus(open)?.status === "hidden") ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: open, intent: "" });
    const [x, y, z] = unknownCellsOf(ref, field, open);
    const seen = ref.revision;
    const first = ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: seen, cells: [x], intent: "a" });
    expect(first).toMatchObject({ revision: seen + 1, changed: true });
    // b's view is stale and the tile changed (x became known), but none of b's own cells did.
    const second = ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: seen, cells: [y], intent: "b" });
    expect(second).toMatchObject({ revision: seen + 2, changed: true });
    expect((second.accepted as Array<{ id: number }>).map((c) => c.id)).toEqual([y[0]]);
    // A cell that became known after the caller's revision conflicts, naming it; nothing changes.
    const digest = ref.stateDigest();
    const c = conflictOf(ref, commit(ref, b, [z, x], seen));
    expect(c).toMatchObject({ tiles: [], cells: [x[0]] });
    // The value it became is carried, so the caller can retry without another observe.
    expect(c.known).toEqual([x]);
    expect(c.message).toContain(`cell ${x[0]} became known (values in known)`);
    expect(c.message).toContain(`retry with expected_revision ${ref.revision}`);
    expect(ref.stateDigest()).toBe(digest);
    // With a revision that saw x become known, x is merely ignored, with its value.
    const fresh = ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: seen + 1, cells: [z, x], intent: "" });
    expect(fresh.ignored).toEqual([{ id: x[0], reason: "known", v: x[1] }]);
  });

  it("a tile containing the cells changing status (revealed, solved) conflicts; other tiles do not", () => {
    const field = chainField(4, 10, { givenEvery: 4 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const s = (ref.frontier(a) as number[])[0];
    const sb = (ref.frontier(b) as number[])[0];
    expect(Math.abs(s - sb)).toBeGreaterThan(2);
    ok(ref, { type: "reveal", machineId: "m-b", agent: b, expectedRevision: ref.revision, tile: sb, intent: "" });
    const bSaw = ref.revision;
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: s, intent: "" });
    const beforeSolve = ref.revision;
    // Solve s: its neighbours join the frontier.
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: unknownCellsOf(ref, field, s), intent: "" });
    expect(ref.tileStatus(s)?.status).toBe("solved");
    const next = (ref.frontier(a) as number[])[0];
    const beforeReveal = ref.revision;
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: next, intent: "" });
    // b's tile is far away: b's stale view of the field still commits there.
    expect(commit(ref, b, unknownCellsOf(ref, field, sb).slice(0, 1), bSaw).ok).toBe(true);
    // But not with a view from before its own tile was revealed.
    expect(conflictOf(ref, commit(ref, b, unknownCellsOf(ref, field, sb).slice(0, 1), bSaw - 1))).toMatchObject({ tiles: [sb], cells: [] });
    // A cell of `next` only (not shared with s): its tile was revealed after beforeReveal.
    const own = unknownCellsOf(ref, field, next).filter(([c]) => !field.tiles[s].cellIds.includes(c));
    const digest = ref.stateDigest();
    expect(conflictOf(ref, commit(ref, a, [own[0]], beforeReveal))).toMatchObject({ tiles: [next], cells: [] });
    expect(conflictOf(ref, retract(ref, a, [own[0][0]], beforeReveal))).toMatchObject({ tiles: [next], cells: [] });
    // A cell of s (solved after beforeSolve): the tile changed status and the cell became known.
    const inS = field.tiles[s].cellIds.find((c) => ref.cell(c)?.origin === "m-a") as number;
    const both = conflictOf(ref, commit(ref, a, [[inS, field.solution[inS] as 0 | 1]], beforeSolve));
    expect(both.tiles).toContain(s);
    expect(both.cells).toEqual([inS]);
    expect(both.known).toEqual([[inS, field.solution[inS]]]);
    expect(both.message).toMatch(/tiles? [0-9, ]+ changed status/);
    expect(ref.stateDigest()).toBe(digest);
    // Seen at the reveal's revision, the same cell goes through although the field moved on.
    expect(commit(ref, a, [own[0]], beforeReveal + 1).ok).toBe(true);
  });

  it("a retracted cell conflicts for a writer that did not see the retraction", () => {
    const field = chainField(4, 4, { givenEvery: 4 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const s = (ref.frontier(a) as number[])[0];
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: s, intent: "" });
    const [x, y] = unknownCellsOf(ref, field, s);
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: [x, y], intent: "" });
    const seen = ref.revision;
    ok(ref, { type: "retract", machineId: "m-a", agent: a, expectedRevision: seen, cells: [x[0]], intent: "" });
    const stale = conflictOf(ref, commit(ref, a, [x], seen));
    // A retracted cell has no value to carry, and is worded in the singular.
    expect(stale).toMatchObject({ tiles: [], cells: [x[0]], known: [] });
    expect(stale.message).toContain(`cell ${x[0]} was retracted`);
    expect(conflictOf(ref, retract(ref, a, [x[0], y[0]], seen))).toMatchObject({ tiles: [], cells: [x[0]] });
    expect(retract(ref, a, [y[0]], seen).ok).toBe(true);
  });

  it("an expected_revision ahead of the field conflicts, naming nothing", () => {
    const field = chainField(4, 4);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const s = (ref.frontier(a) as number[])[0];
    const ahead = conflictOf(ref, reveal(ref, a, s, ref.revision + 1));
    expect(ahead).toMatchObject({ tiles: [], cells: [], known: [] });
    expect(ahead.message).toContain(`retry with expected_revision ${ref.revision}`);
    expect(conflictOf(ref, commit(ref, a, [[field.tiles[s].cellIds[0], 0]], ref.revision + 3))).toMatchObject({ tiles: [], cells: [] });
  });
});

describe("reveal of a tile that is not hidden is a read (SPEC §4.9)", () => {
  it("a revealed frontier tile answers its givens and seam at any revision, changing nothing", () => {
    const { field, ref, a, b } = groupMates();
    const open = (ref.frontier(a) as number[]).find((t) => ref.tileStatus(t)?.status === "hidden") as number;
    const seen = ref.revision;
    const first = ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: seen, tile: open, intent: "" });
    expect(first).toMatchObject({ revision: seen + 1, changed: true });
    const digest = ref.stateDigest();
    // b did not see the reveal, and sends a revision from long ago, or one ahead: a read either way.
    for (const expected of [0, seen, ref.revision + 7]) {
      const r = reveal(ref, b, open, expected);
      expect(r.ok, String(expected)).toBe(true);
      if (!r.ok) continue;
      expect(r.event).toBe(null);
      expect(r.answer).toMatchObject({ tile: open, status: "revealed", revision: ref.revision, changed: false, solved: [], reward: 0 });
      expect(r.answer.givens).toEqual(first.givens);
      expect(r.answer.seam).toEqual(first.seam);
    }
    expect(ref.stateDigest()).toBe(digest);
    // A malformed revision is still bad input.
    expect(expectError(reveal(ref, b, open, -1)).code).toBe("bad_input");
    expect(field.tiles[open].givens.length).toBeGreaterThan(0);
  });

  it("a tile solved by the caller's group is a read; one solved by another group is `solved`; a revealed one off the frontier is off_frontier", () => {
    const field = chainField(4, 10, { givenEvery: 4 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const sa = (ref.frontier(a) as number[])[0];
    const sb = (ref.frontier(b) as number[])[0];
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: sa, intent: "" });
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: unknownCellsOf(ref, field, sa), intent: "" });
    ok(ref, { type: "reveal", machineId: "m-b", agent: b, expectedRevision: ref.revision, tile: sb, intent: "" });
    const digest = ref.stateDigest();
    const own = reveal(ref, a, sa, 0);
    expect(own.ok && own.event).toBe(null);
    // The answer says the tile is solved, so a re-read never looks like an open tile.
    expect(own.ok && own.answer).toMatchObject({ tile: sa, status: "solved", changed: false, revision: ref.revision });
    const known = field.tiles[sa].cellIds.filter((c) => !field.tiles[sa].givens.includes(c)).map((c) => [c, field.solution[c]]);
    expect(own.ok && own.answer.seam).toEqual(known);
    const other = expectError(reveal(ref, b, sa));
    expect(other.code).toBe("solved");
    expect(other.message).toContain(`tile ${sa} is already solved`);
    const off = expectError(reveal(ref, a, sb));
    expect(off.code).toBe("off_frontier");
    expect(ref.stateDigest()).toBe(digest);
  });

  it("a hidden tile grown after the caller's revision conflicts, naming it", () => {
    const whole = chainField(4, 6);
    const initial: Field = { G: whole.G, tiles: whole.tiles.slice(0, 3), solution: whole.solution };
    const ref = makeReferee(initial);
    const a = ok(ref, joinInput("m-a")).agent as string;
    for (let i = 0; i < 50 && honestStep(ref, initial, a); i++);
    expect(ref.status).toBe("solved");
    const before = ref.revision;
    expect(ref.grow({ ring: 1, tiles: whole.tiles.slice(3), solution: whole.solution }, T0).ok).toBe(true);
    expect(ref.frontier(a)).toEqual([3]);
    expect(conflictOf(ref, reveal(ref, a, 3, before))).toMatchObject({ tiles: [3], cells: [] });
    expect(reveal(ref, a, 3, before + 1).ok).toBe(true);
  });
});
