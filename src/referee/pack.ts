/**
 * Compact text for integer arrays in a referee snapshot. Board arrays are long (one entry per
 * cell) and mostly long runs of one value, so they are run-length coded: comma-separated tokens
 * `v` or `v*n` (n copies of v), numbers in base 36. Plain integers only, so the text is exact
 * everywhere (no floats), and it is ASCII.
 */

export function packInts(values: ArrayLike<number>): string {
  const packer = new RunPacker();
  packer.push(values, 0, values.length);
  return packer.finish();
}

/**
 * `packInts` fed in pieces (a run may continue from one piece into the next), so that a long
 * array can be packed in bounded steps; the result is exactly `packInts` of the whole.
 */
export class RunPacker {
  private readonly tokens: string[] = [];
  private value = 0;
  private count = 0;

  push(values: ArrayLike<number>, from: number, to: number): void {
    let v = this.value;
    let n = this.count;
    for (let i = from; i < to; i++) {
      const x = values[i];
      if (n > 0 && x === v) {
        n++;
        continue;
      }
      if (n > 0) this.tokens.push(token(v, n));
      v = x;
      n = 1;
    }
    this.value = v;
    this.count = n;
  }

  finish(): string {
    if (this.count > 0) this.tokens.push(token(this.value, this.count));
    this.count = 0;
    return this.tokens.join(",");
  }
}

function token(v: number, n: number): string {
  return n === 1 ? v.toString(36) : `${v.toString(36)}*${n.toString(36)}`;
}

/** Entries handled per step when packing or hashing long arrays in steps. */
export const STEP_ENTRIES = 1 << 17;

/** `packInts` of `values` in steps of STEP_ENTRIES entries (yields between steps). */
export function* packSteps(values: ArrayLike<number>): Generator<void, string, void> {
  const packer = new RunPacker();
  for (let i = 0; i < values.length; i += STEP_ENTRIES) {
    packer.push(values, i, Math.min(values.length, i + STEP_ENTRIES));
    yield;
  }
  return packer.finish();
}

/** Decodes `packInts` text into `target`, which must have exactly the packed length. */
export function unpackInto<A extends { length: number; [i: number]: number }>(text: string, target: A): A {
  let at = 0;
  if (text.length > 0) {
    for (const token of text.split(",")) {
      const star = token.indexOf("*");
      const v = parseBase36(star < 0 ? token : token.slice(0, star));
      const n = star < 0 ? 1 : parseBase36(token.slice(star + 1));
      if (n < 1 || at + n > target.length) throw new Error(`packed array longer than ${target.length}`);
      for (let k = 0; k < n; k++) target[at++] = v;
    }
  }
  if (at !== target.length) throw new Error(`packed array has ${at} entries, expected ${target.length}`);
  return target;
}

/** Decodes `packInts` text of unknown length. */
export function unpackInts(text: string): number[] {
  let length = 0;
  if (text.length > 0) {
    for (const token of text.split(",")) {
      const star = token.indexOf("*");
      length += star < 0 ? 1 : parseBase36(token.slice(star + 1));
    }
  }
  return unpackInto(text, new Array<number>(length));
}

/** A set of non-negative integers, in ascending order as gaps (consecutive ids become one run). */
export function packSorted(ids: Iterable<number>): string {
  const sorted = [...ids].sort((a, b) => a - b);
  return packInts(sorted.map((id, i) => (i === 0 ? id : id - sorted[i - 1])));
}

export function unpackSorted(text: string): number[] {
  const ids = unpackInts(text);
  for (let i = 1; i < ids.length; i++) ids[i] += ids[i - 1];
  return ids;
}

function parseBase36(s: string): number {
  if (!/^-?[0-9a-z]+$/.test(s)) throw new Error(`bad packed number ${JSON.stringify(s.slice(0, 20))}`);
  const n = parseInt(s, 36);
  if (!Number.isSafeInteger(n)) throw new Error(`bad packed number ${JSON.stringify(s.slice(0, 20))}`);
  return n;
}
