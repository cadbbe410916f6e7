import { DEATH_MIN_WINDOW, HEALTH_WINDOW, deadly, type HealthReport, type MachineHealth } from "./health";

/**
 * How close a living machine is to death (SPEC §4.8), exactly, under both death rules. Only cells
 * that count move the window: a correct cell counts once per machine, so a future correct cell
 * is a cell not counted before; a wrong cell always counts.
 */
export interface DeathMargin {
  /** Wrong cells that kill the machine if its next counted cells are all wrong: the fewest at the current count. */
  wrong: number;
  /**
   * While fewer than 300 cells are counted: any `cells` more counted cells of which at least
   * `wrong` are wrong kill it (by the time it has 300), and with fewer wrong it lives through
   * them (0: they kill it whatever they are). Absent when even all of them wrong would not kill it.
   */
  before_300?: { wrong: number; cells: number };
}

/** Wrong cells a window of 300 needs to die (4 %, in the integers `deadly` compares). */
const WRONG_AT_300 = Math.ceil(DEATH_MIN_WINDOW / 25);

/**
 * The margin of a living machine with `wrong` wrong cells in a window of `window` counted cells.
 * `leavingWrong(i)` tells whether the i-th oldest cell of the window (0 = the oldest) is wrong;
 * it is asked only about cells that slide out once the window holds 2,000 (without it, none is,
 * which makes the margin a lower bound for a full window).
 *
 * Why these are the minima: a correct cell never brings death closer except by reaching 300 cells
 * (then the rate decides: 12 wrong of 300 is 4 %), and past 300 the rate needed only grows with
 * the window; so the fewest wrong cells that can kill are either all-wrong from now, or, below
 * 300, those that bring the wrong count to 12 by the 300th cell.
 */
export function deathMargin(wrong: number, window: number, leavingWrong: (i: number) => boolean = () => false): DeathMargin {
  let k = 0;
  let w = wrong;
  let dropped = 0;
  // Terminates: after at most 2,000 + 80 wrong cells the window holds only wrong cells.
  for (;;) {
    k++;
    w++;
    if (window + k > HEALTH_WINDOW && leavingWrong(dropped++)) w--;
    if (deadly(Math.min(window + k, HEALTH_WINDOW), w)) break;
  }
  const margin: DeathMargin = { wrong: k };
  if (window < DEATH_MIN_WINDOW) {
    const cells = DEATH_MIN_WINDOW - window;
    const needed = Math.max(0, WRONG_AT_300 - wrong);
    if (needed <= cells) margin.before_300 = { wrong: needed, cells };
  }
  return margin;
}

/** A machine's margin, exact: the cells its window would drop are its own. */
export function machineMargin(health: MachineHealth): DeathMargin {
  const r = health.report();
  return deathMargin(r.wrong, r.window, (i) => health.leavingWrong(i));
}

/**
 * A health report as commit and observe answers carry it: in warning, with its margin (the text
 * of the answer words it from there), and the note that says it.
 */
export function answeredHealth(health: MachineHealth): { health: HealthReport & { margin?: DeathMargin }; note?: string } {
  const report = health.report();
  if (report.state !== "warning") return { health: report };
  const margin = machineMargin(health);
  return { health: { ...report, margin }, note: warningNote(report, margin) };
}

/** "1 more wrong cell" / "5 more wrong cells". */
function moreWrong(n: number): string {
  return `${n} more wrong cell${n === 1 ? "" : "s"}`;
}

/**
 * The margin as the sentence a warning carries (commit and observe answers, their texts): first
 * the fewest wrong cells that can kill, then the others.
 */
export function marginSentence(margin: DeathMargin): string {
  const b = margin.before_300;
  if (!b) return `${moreWrong(margin.wrong)} in a row kill this machine now (at 4 % of its last counted cells)`;
  const now = `${margin.wrong} more wrong in a row kill it now`;
  const at300 = `at ${DEATH_MIN_WINDOW} counted, ${WRONG_AT_300} wrong is 4 %`;
  if (b.wrong === 0) return `your next ${b.cells} counted cells kill this machine, right or wrong (${at300}); ${now}`;
  return `${moreWrong(b.wrong)} among your next ${b.cells} counted cells kill this machine (${at300}); ${now}`;
}

/**
 * The note a warning carries in commit and observe answers: the count, the rate, and the margin
 * (the wrong share in basis points, as the report rounds it).
 */
export function warningNote(report: { wrong: number; window: number; rate_bp: number }, margin: DeathMargin): string {
  return `health warning: ${report.wrong} wrong of the last ${report.window} counted cells (${(report.rate_bp / 100).toFixed(2)} %); ${marginSentence(margin)}`;
}
