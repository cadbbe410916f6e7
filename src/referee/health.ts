import { packInts, packSorted, unpackInto, unpackSorted } from "./pack";

/**
 * A machine's health on one field (SPEC §4.8): the wrong-rate over its last 2,000 counted
 * cells, shared by all its sessions. A correct cell counts once per machine (a retract and
 * recommit adds nothing); a wrong cell always counts. Thresholds are compared in integers:
 *   warning  1.5 % ≤ rate   ⇔  200·wrong ≥ 3·window
 *   dead     window ≥ 300 and rate ≥ 4 %  ⇔  25·wrong ≥ window,
 *            or window < 300 and wrong ≥ 30.
 * Death is final for the day. A short window with a high rate but fewer than 30 wrong cells is
 * reported as `warning` (the most severe state short of death).
 */
export const HEALTH_WINDOW = 2000;
export const DEATH_MIN_WINDOW = 300;
export const DEATH_SHORT_WRONG = 30;

export type HealthState = "healthy" | "warning" | "dead";

export interface HealthReport {
  state: HealthState;
  /** Wrong share of the window as a fraction, rounded down to basis points (rate_bp / 10 000). */
  rate: number;
  /** The same rate in integer basis points (what the event log carries). */
  rate_bp: number;
  /** Cells counted over the day: each correct cell once, every wrong cell. */
  committed: number;
  /** Wrong cells in the window. */
  wrong: number;
  /** Cells in the window (at most 2,000). */
  window: number;
  /** Wrong cells over the day. */
  wrong_total: number;
  /** Unix milliseconds of death, or null. */
  died_at: number | null;
  /** Revision of the write that killed the machine, or null. */
  died_rev: number | null;
}

/** A machine's health as plain data (referee snapshots): the window, counters and counted cells. */
export interface HealthSnapshot {
  ring: string;
  head: number;
  size: number;
  wrongInWindow: number;
  counted: number;
  wrongTotal: number;
  /** Cells counted correct, ascending (only membership matters). */
  countedCorrect: string;
  diedAt: number | null;
  diedRev: number | null;
}

/** A machine's health copied at one moment, not yet packed (see `MachineHealth.capture`). */
export type HealthCapture = Omit<HealthSnapshot, "ring" | "countedCorrect"> & { ring: Uint8Array; countedCorrect: number[] };

export class MachineHealth {
  /** Ring buffer of the window: 1 = wrong. */
  private readonly ring = new Uint8Array(HEALTH_WINDOW);
  private head = 0;
  private size = 0;
  private wrongInWindow = 0;
  private counted = 0;
  private wrongTotal = 0;
  /** Cells already counted correct for this machine. */
  private readonly countedCorrect = new Set<number>();
  diedAt: number | null = null;
  diedRev: number | null = null;

  get dead(): boolean {
    return this.diedAt !== null;
  }

  /** Whether the i-th oldest cell of the window (0 = the oldest, the next to slide out) is wrong. */
  leavingWrong(i: number): boolean {
    return this.ring[(this.head - this.size + i + 2 * HEALTH_WINDOW) % HEALTH_WINDOW] === 1;
  }

  /** Would a correct commit of this cell count (first time for the machine)? */
  countsCorrect(cell: number): boolean {
    return !this.countedCorrect.has(cell);
  }

  /**
   * Count one judged cell. Returns true when this cell killed the machine (reaching 300 cells
   * with a high rate can kill on a correct cell too).
   */
  record(cell: number, wrong: boolean, atMs: number, rev: number): boolean {
    if (!wrong) {
      if (this.countedCorrect.has(cell)) return false;
      this.countedCorrect.add(cell);
    }
    if (this.size === HEALTH_WINDOW) {
      this.wrongInWindow -= this.ring[this.head];
    } else {
      this.size++;
    }
    this.ring[this.head] = wrong ? 1 : 0;
    this.head = (this.head + 1) % HEALTH_WINDOW;
    this.wrongInWindow += wrong ? 1 : 0;
    this.counted++;
    if (wrong) this.wrongTotal++;
    if (!this.dead && deadly(this.size, this.wrongInWindow)) {
      this.diedAt = atMs;
      this.diedRev = rev;
      return true;
    }
    return false;
  }

  state(): HealthState {
    if (this.dead) return "dead";
    return 200 * this.wrongInWindow >= 3 * this.size && this.size > 0 ? "warning" : "healthy";
  }

  report(): HealthReport {
    const rateBp = this.size === 0 ? 0 : Math.floor((10000 * this.wrongInWindow) / this.size);
    return {
      state: this.state(),
      rate: rateBp / 10000,
      rate_bp: rateBp,
      committed: this.counted,
      wrong: this.wrongInWindow,
      window: this.size,
      wrong_total: this.wrongTotal,
      died_at: this.diedAt,
      died_rev: this.diedRev,
    };
  }

  /** Integer-only summary for the event log (no floats). */
  eventSummary(): { state: HealthState; rate_bp: number; committed: number; wrong: number; window: number } {
    const r = this.report();
    return { state: r.state, rate_bp: r.rate_bp, committed: r.committed, wrong: r.wrong, window: r.window };
  }

  /** Compact state for the digest. */
  digestParts(): number[] {
    return [this.head, this.size, this.wrongInWindow, this.counted, this.wrongTotal, this.countedCorrect.size, this.diedAt ?? -1, this.diedRev ?? -1];
  }

  /** A copy of the state, cheap to take (the counted cells unsorted); `encode` packs it later. */
  capture(): HealthCapture {
    return {
      ring: this.ring.slice(),
      head: this.head,
      size: this.size,
      wrongInWindow: this.wrongInWindow,
      counted: this.counted,
      wrongTotal: this.wrongTotal,
      countedCorrect: Array.from(this.countedCorrect),
      diedAt: this.diedAt,
      diedRev: this.diedRev,
    };
  }

  static encode(c: HealthCapture): HealthSnapshot {
    return { ...c, ring: packInts(c.ring), countedCorrect: packSorted(c.countedCorrect) };
  }

  /** `digestParts` of a captured health. */
  static digestPartsOf(c: HealthCapture): number[] {
    return [c.head, c.size, c.wrongInWindow, c.counted, c.wrongTotal, c.countedCorrect.length, c.diedAt ?? -1, c.diedRev ?? -1];
  }

  static fromSnapshot(s: HealthSnapshot): MachineHealth {
    const h = new MachineHealth();
    unpackInto(s.ring, h.ring);
    h.head = s.head;
    h.size = s.size;
    h.wrongInWindow = s.wrongInWindow;
    h.counted = s.counted;
    h.wrongTotal = s.wrongTotal;
    for (const c of unpackSorted(s.countedCorrect)) h.countedCorrect.add(c);
    h.diedAt = s.diedAt;
    h.diedRev = s.diedRev;
    return h;
  }
}

export function deadly(window: number, wrong: number): boolean {
  return window >= DEATH_MIN_WINDOW ? 25 * wrong >= window : wrong >= DEATH_SHORT_WRONG;
}
