import { describe, expect, it } from "vitest";
import { MachineHealth } from "../../../src/referee/health";
import { gridField } from "./fixtures";
import { commit, expectError, joinInput, makeReferee, ok, reveal, T0 } from "./helpers";

/** Feed `correct` distinct correct cells, then `wrong` wrong ones; returns the index (1-based) of the killing cell, or 0. */
function feed(h: MachineHealth, correct: number, wrong: number, cellBase = 0): number {
  let n = 0;
  for (let i = 0; i < correct; i++) if (h.record(cellBase + i, false, T0, 1)) return n + i + 1;
  n += correct;
  for (let i = 0; i < wrong; i++) if (h.record(999_999, true, T0, 1)) return n + i + 1;
  return 0;
}

describe("health thresholds (SPEC §4.8)", () => {
  it("healthy below 1.5 %, warning from exactly 1.5 %", () => {
    const h = new MachineHealth();
    expect(feed(h, 198, 2)).toBe(0); // 2 / 200 = 1 %
    expect(h.report()).toMatchObject({ state: "healthy", window: 200, wrong: 2, rate_bp: 100, rate: 0.01 });
    const w = new MachineHealth();
    expect(feed(w, 197, 3)).toBe(0); // 3 / 200 = 1.5 %
    expect(w.report()).toMatchObject({ state: "warning", window: 200, wrong: 3, rate_bp: 150 });
    const justUnder = new MachineHealth();
    expect(feed(justUnder, 198, 3)).toBe(0); // 3 / 201 < 1.5 %
    expect(justUnder.state()).toBe("healthy");
  });

  it("dies at 4 % once the window holds 300 cells, not at 11 / 300", () => {
    const h = new MachineHealth();
    expect(feed(h, 289, 11)).toBe(0); // 11 / 300 = 3.67 %
    expect(h.report()).toMatchObject({ state: "warning", window: 300, wrong: 11 });
    const d = new MachineHealth();
    expect(feed(d, 288, 12)).toBe(300); // 12 / 300 = 4 %: the 300th cell kills
    expect(d.report()).toMatchObject({ state: "dead", window: 300, wrong: 12, died_at: T0, died_rev: 1 });
  });

  it("dies at the 30th wrong cell of a window under 300", () => {
    const h = new MachineHealth();
    expect(feed(h, 0, 29)).toBe(0);
    expect(h.state()).toBe("warning"); // high rate, too few wrong cells to die
    expect(h.record(999_999, true, T0 + 5, 7)).toBe(true);
    expect(h.report()).toMatchObject({ state: "dead", window: 30, wrong: 30, died_at: T0 + 5, died_rev: 7 });
  });

  it("a correct cell can kill when it brings the window to 300 at ≥ 4 %", () => {
    const h = new MachineHealth();
    expect(feed(h, 0, 20)).toBe(0);
    expect(feed(h, 280, 0, 1000)).toBe(280); // 20 wrong of 299 keeps it alive; the 300th cell (correct) kills
    const alive = new MachineHealth();
    expect(feed(alive, 0, 20)).toBe(0);
    expect(feed(alive, 279, 0, 1000)).toBe(0);
    expect(alive.report()).toMatchObject({ state: "warning", window: 299 });
  });

  it("the window keeps the last 2,000 counted cells", () => {
    const h = new MachineHealth();
    expect(feed(h, 2000, 0)).toBe(0);
    expect(feed(h, 0, 79)).toBe(0); // 79 / 2000 = 3.95 %
    expect(h.report()).toMatchObject({ state: "warning", window: 2000, wrong: 79, committed: 2079, wrong_total: 79 });
    expect(h.record(999_999, true, T0, 1)).toBe(true); // 80 / 2000 = 4 %
  });

  it("a correct cell counts once per machine, a wrong cell every time", () => {
    const h = new MachineHealth();
    h.record(5, false, T0, 1);
    h.record(5, false, T0, 2);
    h.record(6, true, T0, 2);
    h.record(6, true, T0, 3);
    expect(h.report()).toMatchObject({ committed: 3, window: 3, wrong: 2 });
  });
});

describe("health through the referee", () => {
  it("judging stops at the killing cell; the rest is unevaluated; later writes are refused as dead", () => {
    const field = gridField(6, 3);
    const ref = makeReferee(field);
    const agent = ok(ref, joinInput("m-bad")).agent as string;
    const seed = (ref.frontier(agent) as number[])[0];
    expect(reveal(ref, agent, seed).ok).toBe(true);
    const unknown = field.tiles[seed].cellIds.filter((c) => ref.cell(c)?.value === -1);
    const target = unknown[0];
    const wrongValue = (1 - field.solution[target]) as 0 | 1;
    // 29 wrong cells over several batches (the same wrong cell counts every time).
    for (let i = 0; i < 29; i++) {
      const a = ok(ref, { type: "commit", machineId: "m-bad", agent, expectedRevision: ref.revision, cells: [[target, wrongValue]], intent: "oops" });
      expect((a.rejected as unknown[]).length).toBe(1);
    }
    expect(ref.health("m-bad")).toMatchObject({ state: "warning", wrong: 29 });
    const good = unknown[1];
    const rest = unknown.slice(2, 5);
    const r = commit(ref, agent, [
      [good, field.solution[good] as 0 | 1],
      [target, wrongValue],
      ...rest.map((c) => [c, field.solution[c]] as [number, 0 | 1]),
    ], ref.revision, T0 + 42);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.answer.accepted).toEqual([expect.objectContaining({ id: good })]);
    expect(r.answer.rejected).toEqual([{ id: target, reason: "wrong", v: wrongValue }]);
    expect(r.answer.unevaluated).toEqual(rest);
    expect(r.answer.health).toMatchObject({ state: "dead", died_at: T0 + 42, wrong: 30 });
    expect(r.event).toMatchObject({ died: true, rejected: [{ id: target, reason: "wrong" }] });
    expect(JSON.stringify(r.event?.rejected)).not.toContain('"v"');
    expect(ref.cell(good)?.value).toBe(field.solution[good]); // what was judged stands
    for (const c of rest) expect(ref.cell(c)?.value).toBe(-1);
    // Dead: every write of the machine is refused, other sessions included.
    expect(expectError(commit(ref, agent, [[rest[0], field.solution[rest[0]] as 0 | 1]])).code).toBe("dead");
    expect(expectError(ref.apply(joinInput("m-bad", "2"), T0)).code).toBe("dead");
    expect(expectError(ref.apply(joinInput("m-bad", "1"), T0)).code).toBe("dead");
  });

  it("the warning note and the answer's health say exactly how close death is, under both rules", () => {
    const field = gridField(6, 3);
    const ref = makeReferee(field);
    const agent = ok(ref, joinInput("m-warn")).agent as string;
    const seed = (ref.frontier(agent) as number[])[0];
    expect(reveal(ref, agent, seed).ok).toBe(true);
    const target = field.tiles[seed].cellIds.find((c) => ref.cell(c)?.value === -1) as number;
    const wrongValue = (1 - field.solution[target]) as 0 | 1;
    let answer: Record<string, unknown> = {};
    for (let i = 0; i < 27; i++) {
      answer = ok(ref, { type: "commit", machineId: "m-warn", agent, expectedRevision: ref.revision, cells: [[target, wrongValue]], intent: "" });
    }
    // 27 wrong of 27: far above 4 %, alive because fewer than 30 wrong cells while under 300 counted.
    // Reaching 300 counted cells with 27 wrong is over 4 %: whatever the next 273 are, they kill it.
    expect(answer.health).toMatchObject({ state: "warning", wrong: 27, window: 27, margin: { wrong: 3, before_300: { wrong: 0, cells: 273 } } });
    const note = String(answer.note);
    expect(note).toBe(
      "health warning: 27 wrong of the last 27 counted cells (100.00 %); your next 273 counted cells kill this machine, right or wrong (at 300 counted, 12 wrong is 4 %); 3 more wrong in a row kill it now",
    );
    const observed = ref.observe({ agent, callerMachineId: "m-warn" });
    expect(observed.ok && String(observed.observation.note)).toBe(note);
  });

  it("all sessions of a machine share one window", () => {
    const field = gridField(6, 3);
    const ref = makeReferee(field);
    const a1 = ok(ref, joinInput("m-two", "1")).agent as string;
    const a2 = ok(ref, joinInput("m-two", "2")).agent as string;
    for (const a of [a1, a2]) {
      const seed = (ref.frontier(a) as number[])[0];
      expect(reveal(ref, a, seed).ok).toBe(true);
      const c = field.tiles[seed].cellIds.find((x) => ref.cell(x)?.value === -1) as number;
      expect(commit(ref, a, [[c, (1 - field.solution[c]) as 0 | 1]]).ok).toBe(true);
    }
    expect(ref.health("m-two")).toMatchObject({ wrong: 2, window: 2, committed: 2 });
  });
});
