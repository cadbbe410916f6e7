/** Binary search: is `x` in the ascending list `sorted`? */
export function sortedHas(sorted: ArrayLike<number>, x: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === x) return true;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
