/** The benchmarks' one definition of a percentile: the sample at rank ⌊p% · n⌋ of the sorted samples (NaN for none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Count, p50 and p99 of unsorted samples. */
export function summarise(samples: number[]): { n: number; p50: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99) };
}

/** One request timed to the end of its body, the time (ms) added to `into`. */
export async function timed(into: number[], request: () => Promise<Response>): Promise<void> {
  const t0 = performance.now();
  await (await request()).arrayBuffer();
  into.push(performance.now() - t0);
}
