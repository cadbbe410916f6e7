import { describe, expect, it } from "vitest";
import { HEALTH_WINDOW, MachineHealth, deadly } from "../../../src/referee/health";
import { deathMargin, machineMargin, marginSentence, warningNote, type DeathMargin } from "../../../src/referee/health-margin";

/**
 * The warning's numbers (SPEC §4.8) against a brute-force walk over what can happen next, using
 * the referee's own health (its window, its once-per-machine correct cells, its death rule).
 */

const T0 = 1_700_000_000_000;
/** Wrong cells may repeat an id; correct cells are fresh ids (only a first correct cell counts). */
const WRONG_CELL = 9_999_999;

/** A copy through the snapshot path, so the walk's branches never share state. */
function clone(h: MachineHealth): MachineHealth {
  return MachineHealth.fromSnapshot(MachineHealth.encode(h.capture()));
}

type Pattern = "wrong-last" | "wrong-first" | "spread";

/**
 * A living machine whose window holds `window` cells, `wrong` of them wrong, arranged by
 * `pattern`. A full window is reached through more than 2,000 cells, so its ring has wrapped.
 * The order keeps the machine alive on the way (the rate only rises towards its final value).
 */
function machine(wrong: number, window: number, pattern: Pattern): { h: MachineHealth; next: number } {
  const h = new MachineHealth();
  let next = 1;
  const put = (bad: boolean) => {
    const died = h.record(bad ? WRONG_CELL : next++, bad, T0, 1);
    if (died) throw new Error(`setup killed the machine (${wrong}/${window} ${pattern})`);
  };
  // Full windows: 2,345 correct cells first, all of which slide out (but stay counted).
  if (window === HEALTH_WINDOW) for (let i = 0; i < 2345; i++) put(false);
  const wrongAt = (i: number): boolean => {
    if (pattern === "wrong-last") return i >= window - wrong;
    if (pattern === "wrong-first") return i < wrong;
    return wrong > 0 && Math.floor(((i + 1) * wrong) / window) > Math.floor((i * wrong) / window);
  };
  for (let i = 0; i < window; i++) put(wrongAt(i));
  const r = h.report();
  if (r.wrong !== wrong || r.window !== window) throw new Error("setup did not reach its state");
  return { h, next };
}

interface Walk {
  /** Wrong cells of the all-wrong future at its death. */
  allWrong: number;
  /** The fewest wrong cells of any future (up to `cells` counted cells) that kills the machine. */
  fewest: number;
  /** For each j: whether some future with exactly j wrong among its next `upTo` cells dies within them. */
  diesWith: boolean[];
  /** For each j: whether some future with exactly j wrong among its next `upTo` cells lives through them. */
  livesWith: boolean[];
}

/**
 * Breadth-first over (extra counted cells n, extra wrong j). The window after n more counted cells
 * with j wrong does not depend on their order (the cells that slide out are the window's n oldest;
 * checked below), so the state of each node is read off one machine per j fed its j wrong cells
 * first and correct ones after; the walk then follows every order: a node is reached alive when
 * a parent was alive and the referee's rule (`deadly`, as `record` applies it) spares it there.
 */
function walk(start: MachineHealth, firstFresh: number, maxCells: number, maxWrong: number, upTo: number): Walk {
  // deadlyAt[j][n]: the window after n more cells, j of them wrong, is a dying one.
  const deadlyAt: boolean[][] = [];
  for (let j = 0; j <= maxWrong; j++) {
    const h = clone(start);
    let fresh = firstFresh;
    const row = [false];
    for (let n = 1; n <= maxCells; n++) {
      const bad = n <= j;
      h.record(bad ? WRONG_CELL : fresh++, bad, T0, 2);
      const r = h.report();
      row.push(deadly(r.window, r.wrong));
    }
    deadlyAt.push(row);
    // The order does not matter: correct cells first reach the same window.
    if (j > 0 && maxCells >= j) {
      const other = clone(start);
      let f = firstFresh;
      for (let n = 1; n <= maxCells; n++) other.record(n <= maxCells - j ? f++ : WRONG_CELL, n > maxCells - j, T0, 2);
      expect([other.report().wrong, other.report().window]).toEqual([h.report().wrong, h.report().window]);
    }
  }
  let alive = [true];
  let fewest = Infinity;
  const diesWith = new Array<boolean>(maxWrong + 1).fill(false);
  const livesWith = new Array<boolean>(maxWrong + 1).fill(false);
  if (upTo === 0) livesWith[0] = true;
  for (let n = 1; n <= maxCells; n++) {
    const next = new Array<boolean>(Math.min(n, maxWrong) + 1).fill(false);
    for (let j = 0; j < next.length; j++) {
      const reached = alive[j] === true || (j > 0 && alive[j - 1] === true);
      if (!reached) continue;
      if (deadlyAt[j][n]) {
        fewest = Math.min(fewest, j);
        if (n <= upTo) diesWith[j] = true;
      } else {
        next[j] = true;
        if (n === upTo) livesWith[j] = true;
      }
    }
    alive = next;
  }
  // The all-wrong future, cell by cell through `record` itself.
  let allWrong = 1;
  const h = clone(start);
  while (!h.record(WRONG_CELL, true, T0, 2)) allWrong++;
  return { allWrong, fewest, diesWith, livesWith };
}

/** Every (wrong, window) state below, in each arrangement, alive. */
function states(): Array<{ wrong: number; window: number; pattern: Pattern }> {
  const windows = [1, 20, 50, 111, 150, 200, 250, 280, 288, 290, 294, 299, 300, 301, 333, 600, 1000, 1500, 1960, 1990, 1999, 2000];
  const wrongs = [0, 1, 3, 7, 11, 12, 13, 20, 29, 40, 60, 79];
  const out: Array<{ wrong: number; window: number; pattern: Pattern }> = [];
  for (const window of windows) {
    for (const wrong of wrongs) {
      if (wrong > window) continue;
      const alive = window >= 300 ? 25 * wrong < window : wrong < 30;
      if (!alive) continue;
      for (const pattern of ["wrong-last", "wrong-first", "spread"] as const) {
        // Below 300 only "wrong-last" is sure to stay alive on the way for every state.
        if (pattern !== "wrong-last" && window < HEALTH_WINDOW && 25 * wrong >= 300) continue;
        out.push({ wrong, window, pattern });
      }
    }
  }
  return out;
}

describe("the warning's margin against every future (SPEC §4.8)", () => {
  it("the margin's numbers are exactly the walk's minima, under both death rules", () => {
    let checked = 0;
    for (const { wrong, window, pattern } of states()) {
      const { h, next } = machine(wrong, window, pattern);
      const margin = machineMargin(h);
      const label = `${wrong} wrong of ${window} (${pattern})`;
      const to300 = window < 300 ? 300 - window : 0;
      // Past the numbers the margin names, further cells can only need more wrong ones; the walk
      // goes 40 cells beyond them to see that no path dies with fewer.
      const w = walk(h, next, Math.max(to300, margin.wrong) + 40, margin.wrong, to300);
      expect(w.allWrong, label).toBe(margin.wrong);
      const b = margin.before_300;
      expect(w.fewest, label).toBe(b ? b.wrong : margin.wrong);
      if (window < 300) {
        // Any `cells` more counted cells with at least `wrong` wrong kill it; with fewer it lives through them.
        const needed = b ? b.wrong : Infinity;
        for (let j = 0; j <= Math.min(to300, margin.wrong); j++) {
          expect(w.livesWith[j], `${label}: lives through ${to300} cells with ${j} wrong`).toBe(j < needed);
          if (j < needed) expect(w.diesWith[j], `${label}: dies within ${to300} cells with ${j} wrong`).toBe(false);
        }
        if (b) expect(b.cells, label).toBe(to300);
      } else {
        expect(b, label).toBeUndefined();
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });

  it("from the counts alone it is exact until the window fills, a lower bound after", () => {
    for (const { wrong, window, pattern } of states()) {
      const { h } = machine(wrong, window, pattern);
      const exact = machineMargin(h);
      const counts = deathMargin(wrong, window);
      if (window + exact.wrong <= HEALTH_WINDOW) expect(counts).toEqual(exact);
      else expect(counts.wrong).toBeLessThanOrEqual(exact.wrong);
    }
  });

  it("the issue's case: 7 wrong of 111 counted", () => {
    const margin = deathMargin(7, 111);
    expect(margin).toEqual({ wrong: 23, before_300: { wrong: 5, cells: 189 } });
    expect(marginSentence(margin)).toBe("5 more wrong cells among your next 189 counted cells kill this machine (at 300 counted, 12 wrong is 4 %); 23 more wrong in a row kill it now");
  });

  it("says when the cells to 300 kill whatever they are, and when 300 is out of reach", () => {
    const doomed: DeathMargin = deathMargin(20, 111);
    expect(doomed).toEqual({ wrong: 10, before_300: { wrong: 0, cells: 189 } });
    expect(marginSentence(doomed)).toBe("your next 189 counted cells kill this machine, right or wrong (at 300 counted, 12 wrong is 4 %); 10 more wrong in a row kill it now");
    // 5 wrong of 294: 7 more are needed by 300 but only 6 cells remain; in a row, 8 kill at 302.
    expect(deathMargin(5, 294)).toEqual({ wrong: 8 });
    expect(marginSentence(deathMargin(5, 294))).toMatch(/^8 more wrong cells in a row kill this machine now/);
  });

  it("a full window counts the wrong cells that slide out", () => {
    const oldest = machine(60, HEALTH_WINDOW, "wrong-first").h;
    const newest = machine(60, HEALTH_WINDOW, "wrong-last").h;
    // 80 wrong of 2,000 kill; the 20 more wrong push out 20 wrong cells when those are the oldest.
    expect(machineMargin(newest)).toEqual({ wrong: 20 });
    expect(machineMargin(oldest)).toEqual({ wrong: 80 });
    const r = newest.report();
    expect(warningNote(r, machineMargin(newest))).toBe(
      "health warning: 60 wrong of the last 2000 counted cells (3.00 %); 20 more wrong cells in a row kill this machine now (at 4 % of its last counted cells)",
    );
  });
});
