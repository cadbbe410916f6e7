/**
 * Valid lines (SPEC §2 rules 1 and 2: balanced, no run of three) as bitmasks.
 * Bit i of a pattern is the value of the i-th cell along the line. Tables are built lazily
 * per even length and cached; lengths are bounded by MAX_LINE so every pattern fits in
 * a 32-bit unsigned integer (generators keep every tile line at or below it).
 */

/** Longest line the engine handles; shapes are generated with boxes of at most 18 cells a side. */
export const MAX_LINE = 20;

const tables = new Map<number, Int32Array>();

/** Every valid line of even length `len` (2..MAX_LINE), ascending by numeric value. */
export function validLines(len: number): Int32Array {
  const cached = tables.get(len);
  if (cached) return cached;
  if (!Number.isInteger(len) || len < 2 || len > MAX_LINE || len % 2 !== 0) {
    throw new RangeError(`line length must be even and within 2..${MAX_LINE}, got ${len}`);
  }
  const out: number[] = [];
  const half = len / 2;
  // Depth-first over positions; prune on balance and on a third equal value in a row.
  const walk = (pos: number, bits: number, ones: number, last: number, run: number): void => {
    if (pos === len) {
      out.push(bits);
      return;
    }
    for (let v = 0; v <= 1; v++) {
      const nOnes = ones + v;
      const nZeros = pos + 1 - nOnes;
      if (nOnes > half || nZeros > half) continue;
      const nRun = v === last ? run + 1 : 1;
      if (nRun > 2) continue;
      walk(pos + 1, v ? bits | (1 << pos) : bits, nOnes, v, nRun);
    }
  };
  walk(0, 0, 0, -1, 0);
  const table = Int32Array.from(out).sort();
  tables.set(len, table);
  return table;
}

/** Number of valid lines of a length (OEIS A177790); 0 for odd or out-of-range lengths. */
export function validLineCount(len: number): number {
  if (!Number.isInteger(len) || len < 2 || len > MAX_LINE || len % 2 !== 0) return 0;
  return validLines(len).length;
}

/** Does a pattern of `len` bits satisfy balance and no-run-of-three? (reference check) */
export function isValidLine(bits: number, len: number): boolean {
  let ones = 0;
  for (let i = 0; i < len; i++) {
    const v = (bits >>> i) & 1;
    ones += v;
    if (i >= 2 && v === ((bits >>> (i - 1)) & 1) && v === ((bits >>> (i - 2)) & 1)) return false;
  }
  return ones * 2 === len;
}
