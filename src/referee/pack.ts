/**
 * Compact text for integer arrays in a referee snapshot. Board arrays are long (one entry per
 * cell) and mostly long runs of one value, so they are run-length coded: comma-separated tokens
 * `v` or `v*n` (n copies of v), numbers in base 36. Plain integers only, so the text is exact
 * everywhere (no floats), and it is ASCII.
 */

export function packInts(values: ArrayLike<number>): string {
  const tokens: string[] = [];
  let i = 0;
  while (i < values.length) {
    const v = values[i];
    let j = i + 1;
    while (j < values.length && values[j] === v) j++;
    const n = j - i;
    tokens.push(n === 1 ? v.toString(36) : `${v.toString(36)}*${n.toString(36)}`);
    i = j;
  }
  return tokens.join(",");
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
