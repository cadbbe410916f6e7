/**
 * A bounded cache keyed by (line length, known mask, ones mask), shared by the solvers for their
 * filtered pattern tables. Two levels of small-integer Maps under an array by length keep the
 * lookup cheap; when the budget is spent the whole cache is dropped (values are pure functions
 * of the key, so this only costs time, never changes a result).
 */
export class MaskCache<T> {
  private byLength: Map<number, Map<number, T>>[] = [];
  private spent = 0;

  constructor(private readonly budget: number) {}

  get(len: number, known: number, ones: number): T | undefined {
    return this.byLength[len]?.get(known)?.get(ones);
  }

  /** Store a value whose size counts `weight` against the budget. */
  set(len: number, known: number, ones: number, value: T, weight: number): void {
    if (this.spent + weight > this.budget) {
      this.byLength = [];
      this.spent = 0;
    }
    let byKnown = this.byLength[len];
    if (!byKnown) byKnown = this.byLength[len] = new Map();
    let byOnes = byKnown.get(known);
    if (!byOnes) {
      byOnes = new Map();
      byKnown.set(known, byOnes);
    }
    byOnes.set(ones, value);
    this.spent += weight;
  }
}
