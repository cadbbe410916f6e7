import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import type { Referee } from "../../../src/referee/referee";
import type { WriteResult } from "../../../src/referee/types";
import { chainField } from "./fixtures";
import { commit, expectError, groupMates, honestStep, joinInput, machineOf, makeReferee, ok, retract, reveal, T0, unknownCellsOf } from "./helpers";

/**
 * Conflicts only where they mean something (SPEC §4.9): a commit conflicts only when a cell it
 * sends became known after its expected_revision with the other value; a retract only when
 * another session of the same machine changed a cell it names since; any write when its
 * revision is ahead of the field. Everything else that changed is reflected in the answer.
 */

function conflictOf(ref: Referee, r: WriteResult): { tiles: number[]; cells: number[]; known: number[][]; message: string } {
  const e = expectError(r) as { code: string; revision?: number; tiles?: number[]; cells?: number[]; known?: number[][]; message: string };
  expect(e.code).toBe("conflict");
  expect(e.revision).toBe(ref.revision);
  return { tiles: e.tiles ?? [], cells: e.cells ?? [], known: e.known ?? [], message: e.message };
}

const flip = ([c, v]: [number, 0 | 1]): [number, 0 | 1] => [c, (1 - v) as 0 | 1];

/** A hidden frontier tile of `a` with at least `n` unknown cells, revealed now. */
function openTile(ref: Referee, field: Field, a: string, n = 3): number {
  const t = (ref.frontier(a) as number[]).find((x) => ref.tileStatus(x)?.status !== "solved" && unknownCellsOf(ref, field, x).length >= n) as number;
  if (ref.tileStatus(t)?.status === "hidden") ok(ref, { type: "reveal", machineId: machineOf(a), agent: a, expectedRevision: ref.revision, tile: t, intent: "" });
  return t;
}

describe("commit conflicts only where the stale view is contradicted (SPEC §4.9)", () => {
  it("a cell that became known since with the other value conflicts, naming it and its value; nothing changes", () => {
    const { field, ref, a, b } = groupMates();
    const t = openTile(ref, field, a);
    const [x, y] = unknownCellsOf(ref, field, t);
    const seen = ref.revision;
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: seen, cells: [x], intent: "a" });
    const digest = ref.stateDigest();
    const c = conflictOf(ref, commit(ref, b, [y, flip(x)], seen));
    expect(c).toMatchObject({ tiles: [], cells: [x[0]], known: [x] });
    // The message names the cell by its coordinates and says the value now known (SPEC §6).
    const at = `(${x[0] % field.G},${Math.floor(x[0] / field.G)})`;
    expect(c.message).toContain(`cell ${at} became known with the other value`);
    expect(c.message).toContain(`Now known: ${at}=${x[1]}`);
    expect(c.message).toContain(`retry with expected_revision ${ref.revision}`);
    expect(ref.stateDigest()).toBe(digest);
    // With a revision that saw x become known, the same wrong value is merely ignored as known.
    const fresh = ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: ref.revision, cells: [y, flip(x)], intent: "" });
    expect(fresh.ignored).toEqual([{ id: x[0], reason: "known", v: x[1] }]);
    expect((fresh.rejected as unknown[]).length).toBe(0);
  });

  it("a cell that became known since with the value sent is ignored as known with v; the rest is judged", () => {
    const { field, ref, a, b } = groupMates();
    const t = openTile(ref, field, a);
    const [x, y, z] = unknownCellsOf(ref, field, t);
    const seen = ref.revision;
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: seen, cells: [x, y], intent: "a" });
    const r = ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: seen, cells: [x, z, y], intent: "b" });
    expect(r).toMatchObject({ changed: true, revision: seen + 2 });
    expect(r.ignored).toEqual([
      { id: x[0], reason: "known", v: x[1] },
      { id: y[0], reason: "known", v: y[1] },
    ]);
    expect((r.accepted as Array<{ id: number }>).map((c) => c.id)).toEqual([z[0]]);
    // Only cells that became known with the value sent: nothing stored, nothing logged, no conflict.
    const again = commit(ref, b, [x, z], seen);
    expect(again.ok && again.event).toBe(null);
    expect(again.ok && again.answer).toMatchObject({ changed: false, revision: ref.revision, ignored: [{ id: x[0], reason: "known", v: x[1] }, { id: z[0], reason: "known", v: z[1] }] });
  });

  it("a tile revealed or solved meanwhile never conflicts: known cells are ignored with v, the answer says what left reach", () => {
    const { field, ref, a, b } = groupMates();
    const t = openTile(ref, field, a, 2);
    const cells = unknownCellsOf(ref, field, t);
    const seen = ref.revision;
    // a solves the tile b is working on; b's whole stale batch is then known, with the values sent.
    const solvedBy = ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: seen, cells, intent: "a" });
    expect(solvedBy.solved).toContain(t);
    const r = commit(ref, b, cells, seen);
    expect(r.ok && r.event).toBe(null);
    expect(r.ok && r.answer).toMatchObject({ changed: false, revision: ref.revision, accepted: [], rejected: [] });
    expect(r.ok && r.answer.ignored).toEqual(cells.map(([id, v]) => ({ id, reason: "known", v })));
    expect(r.ok && (r.answer.frontier as number[]).includes(t)).toBe(false);
    // A tile revealed after b's revision: its givens sent with their true values are ignored as givens.
    const freshGiven = (x: number): number | undefined => field.tiles[x].givens.find((c) => ref.cell(c)?.value === -1);
    const next = (ref.frontier(a) as number[]).find((x) => ref.tileStatus(x)?.status === "hidden" && freshGiven(x) !== undefined) as number;
    const g = freshGiven(next) as number;
    const before = ref.revision;
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: before, tile: next, intent: "" });
    const open = unknownCellsOf(ref, field, next)[0];
    const viaGiven = ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: before, cells: [[g, field.solution[g] as 0 | 1], open], intent: "" });
    expect(viaGiven.ignored).toEqual([{ id: g, reason: "given", v: field.solution[g] }]);
    expect((viaGiven.accepted as Array<{ id: number }>).map((c) => c.id)).toEqual([open[0]]);
    // The same given sent with the other value contradicts the stale view: a conflict naming the tile revealed since.
    const wrongGiven = conflictOf(ref, commit(ref, b, [[g, (1 - field.solution[g]) as 0 | 1]], before));
    expect(wrongGiven).toMatchObject({ tiles: [next], cells: [g], known: [[g, field.solution[g]]] });
  });

  it("a commit far away and group mates on other cells never conflict", () => {
    const field = chainField(4, 10, { givenEvery: 4 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const sa = (ref.frontier(a) as number[])[0];
    const sb = (ref.frontier(b) as number[])[0];
    ok(ref, { type: "reveal", machineId: "m-b", agent: b, expectedRevision: ref.revision, tile: sb, intent: "" });
    const bSaw = ref.revision;
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: sa, intent: "" });
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: unknownCellsOf(ref, field, sa), intent: "" });
    // From before its own tile was revealed, even: b's cells were never contradicted.
    expect(commit(ref, b, unknownCellsOf(ref, field, sb).slice(0, 1), bSaw - 1).ok).toBe(true);
    expect(commit(ref, b, unknownCellsOf(ref, field, sb).slice(0, 1), 0).ok).toBe(true);
  });
});

describe("retract conflicts only with another session of the same machine (SPEC §4.9)", () => {
  /** Two sessions of one machine, each with its seed tile revealed (a machine may retract any cell it committed). */
  function twoSessions(): { field: Field; ref: Referee; s1: string; s2: string; t1: number; t2: number } {
    const field = chainField(4, 8, { givenEvery: 4 });
    const ref = makeReferee(field);
    const s1 = ok(ref, joinInput("m-a", "1")).agent as string;
    const s2 = ok(ref, joinInput("m-a", "2")).agent as string;
    const t1 = (ref.frontier(s1) as number[])[0];
    const t2 = (ref.frontier(s2) as number[])[0];
    ok(ref, { type: "reveal", machineId: "m-a", agent: s1, expectedRevision: ref.revision, tile: t1, intent: "" });
    ok(ref, { type: "reveal", machineId: "m-a", agent: s2, expectedRevision: ref.revision, tile: t2, intent: "" });
    return { field, ref, s1, s2, t1, t2 };
  }

  it("a cell committed since by another session of the machine conflicts; by the same session it does not", () => {
    const { field, ref, s1, s2, t1, t2 } = twoSessions();
    const [x] = unknownCellsOf(ref, field, t2);
    const [y] = unknownCellsOf(ref, field, t1);
    const seen = ref.revision;
    ok(ref, { type: "commit", machineId: "m-a", agent: s2, expectedRevision: seen, cells: [x], intent: "s2" });
    const digest = ref.stateDigest();
    const c = conflictOf(ref, retract(ref, s1, [x[0]], seen));
    expect(c).toMatchObject({ tiles: [], cells: [x[0]], known: [x] });
    expect(c.message).toContain(`committed or retracted by another session of your machine (${s2})`);
    expect(ref.stateDigest()).toBe(digest);
    // The session that committed a cell may withdraw it from its stale revision.
    ok(ref, { type: "commit", machineId: "m-a", agent: s1, expectedRevision: ref.revision, cells: [y], intent: "" });
    const own = ok(ref, { type: "retract", machineId: "m-a", agent: s1, expectedRevision: seen, cells: [y[0]], intent: "" });
    expect(own.retracted).toEqual([y[0]]);
    // With a revision that saw the other session's commit, it goes through.
    expect(ok(ref, { type: "retract", machineId: "m-a", agent: s1, expectedRevision: seen + 1, cells: [x[0]], intent: "" }).retracted).toEqual([x[0]]);
  });

  it("a cell retracted since by another session of the machine conflicts, with nothing known to carry", () => {
    const { field, ref, s1, s2, t1 } = twoSessions();
    const [x] = unknownCellsOf(ref, field, t1);
    ok(ref, { type: "commit", machineId: "m-a", agent: s1, expectedRevision: ref.revision, cells: [x], intent: "" });
    const seen = ref.revision;
    ok(ref, { type: "retract", machineId: "m-a", agent: s2, expectedRevision: seen, cells: [x[0]], intent: "" });
    const c = conflictOf(ref, retract(ref, s1, [x[0]], seen));
    expect(c).toMatchObject({ tiles: [], cells: [x[0]], known: [] });
    // Another machine's change since is no conflict: a commit by m-b there is simply not m-a's to retract.
  });

  it("another machine's commit, a given and a solved tile never conflict: the cells are ignored with their reason and v", () => {
    const { field, ref, a, b } = groupMates();
    const t = openTile(ref, field, a);
    const [x, y] = unknownCellsOf(ref, field, t);
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: [x], intent: "" });
    const seen = ref.revision;
    ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: seen, cells: [y], intent: "" });
    const r = ok(ref, { type: "retract", machineId: "m-a", agent: a, expectedRevision: seen, cells: [x[0], y[0]], intent: "" });
    expect(r.retracted).toEqual([x[0]]);
    expect(r.ignored).toEqual([{ id: y[0], reason: "other_machine", v: y[1] }]);
    // b solves the tile after a's revision: a's retract of b's... and its own cells there is ignored as solved.
    const before = ref.revision;
    ok(ref, { type: "commit", machineId: "m-b", agent: b, expectedRevision: before, cells: unknownCellsOf(ref, field, t), intent: "" });
    expect(ref.tileStatus(t)?.status).toBe("solved");
    const late = ok(ref, { type: "retract", machineId: "m-a", agent: a, expectedRevision: before, cells: [x[0]], intent: "" });
    expect(late).toMatchObject({ changed: false, retracted: [], ignored: [{ id: x[0], reason: "solved", v: x[1] }] });
  });
});

describe("a revision ahead of the field", () => {
  it("conflicts for every write, naming nothing", () => {
    const field = chainField(4, 4);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const s = (ref.frontier(a) as number[])[0];
    const ahead = conflictOf(ref, reveal(ref, a, s, ref.revision + 1));
    expect(ahead).toMatchObject({ tiles: [], cells: [], known: [] });
    expect(ahead.message).toContain(`retry with expected_revision ${ref.revision}`);
    ok(ref, { type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: s, intent: "" });
    const [x] = unknownCellsOf(ref, field, s);
    expect(conflictOf(ref, commit(ref, a, [x], ref.revision + 3))).toMatchObject({ tiles: [], cells: [] });
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: [x], intent: "" });
    expect(conflictOf(ref, retract(ref, a, [x[0]], ref.revision + 1))).toMatchObject({ tiles: [], cells: [] });
    // At the field's revision exactly, each goes through.
    expect(retract(ref, a, [x[0]], ref.revision).ok).toBe(true);
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
      expect(r.answer).toMatchObject({ tile: open, status: "playing", tile_status: "revealed", revision: ref.revision, changed: false, solved: [], reward: 0 });
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
    expect(own.ok && own.answer).toMatchObject({ tile: sa, status: "playing", tile_status: "solved", changed: false, revision: ref.revision });
    const known = field.tiles[sa].cellIds.filter((c) => !field.tiles[sa].givens.includes(c)).map((c) => [c, field.solution[c]]);
    expect(own.ok && own.answer.seam).toEqual(known);
    const other = expectError(reveal(ref, b, sa));
    expect(other.code).toBe("solved");
    expect(other.message).toContain(`tile ${sa} is already solved`);
    const off = expectError(reveal(ref, a, sb));
    expect(off.code).toBe("off_frontier");
    expect(ref.stateDigest()).toBe(digest);
  });

  it("a hidden tile grown after the caller's revision is revealed without a conflict", () => {
    const whole = chainField(4, 6);
    const initial: Field = { G: whole.G, tiles: whole.tiles.slice(0, 3), solution: whole.solution };
    const ref = makeReferee(initial);
    const a = ok(ref, joinInput("m-a")).agent as string;
    for (let i = 0; i < 50 && honestStep(ref, initial, a); i++);
    expect(ref.status).toBe("solved");
    const before = ref.revision;
    expect(ref.grow({ ring: 1, tiles: whole.tiles.slice(3), solution: whole.solution }, T0).ok).toBe(true);
    expect(ref.frontier(a)).toEqual([3]);
    const r = reveal(ref, a, 3, before);
    expect(r.ok && r.answer).toMatchObject({ tile: 3, changed: true, revision: before + 2, status: "playing" });
  });
});
