/**
 * The solutions of one tile found so far during the greedy givens pass (givens.ts), kept as the
 * positions (in the removal order) where each differs from the truth.
 *
 * A solution stays a solution of every later test whose fixed cells avoid its differing cells:
 * with cells order[0..i) decided (kept or removed) and order[i..end) being removed, a test fixes
 * the kept cells and order[end..n). So a known solution counts for that test when it is alive (no
 * differing cell was kept) and its last differing position is before `end`. When a test already
 * has as many known solutions as its count's limit, its count would reach the limit: the test
 * fails without a search. Only failures are decided this way, and only when the solutions are
 * there, so the verdicts are exactly those of the searches.
 */
export class KnownSolutions {
  /** Per position, the solutions that differ from the truth there. */
  private readonly byPosition: number[][];
  /** Per solution: its last differing position, and whether a kept given excludes it. */
  private readonly last: number[] = [];
  private readonly dead: boolean[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly truth: Int8Array,
    /** Position of each local cell in the removal order. */
    private readonly position: Int32Array,
  ) {
    this.byPosition = Array.from({ length: position.length }, () => []);
  }

  /** Record a solution (cell values by local index); one already known is ignored. */
  add(solution: Uint8Array): void {
    const positions: number[] = [];
    for (let c = 0; c < this.truth.length; c++) if (solution[c] !== this.truth[c]) positions.push(this.position[c]);
    positions.sort((a, b) => a - b);
    // One UTF-16 unit per position (a tile has far fewer than 65,536 cells): a cheap exact key.
    const key = String.fromCharCode(...positions);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const id = this.last.length;
    this.last.push(positions.length > 0 ? positions[positions.length - 1] : -1);
    this.dead.push(false);
    for (const p of positions) this.byPosition[p].push(id);
  }

  /** The given at `position` stays for good: solutions that differ there are excluded. */
  keep(position: number): void {
    for (const id of this.byPosition[position]) this.dead[id] = true;
  }

  /** Known solutions of a test removing order[i..end) (all of them differ before `end`), up to `limit`. */
  within(end: number, limit: number): number {
    let n = 0;
    for (let id = 0; id < this.last.length && n < limit; id++) if (!this.dead[id] && this.last[id] < end) n++;
    return n;
  }

  /** Known solutions that differ at `position` and nowhere after it, up to `limit`. */
  endingAt(position: number, limit: number): number {
    let n = 0;
    for (const id of this.byPosition[position]) if (!this.dead[id] && this.last[id] === position && ++n >= limit) break;
    return n;
  }
}
