/**
 * Known cells, delta-coded (SPEC §6.1 observe `known`): sorted cell ids as gaps from 0
 * (decode by cumulative sum) and one character per id for its value.
 */
export interface DeltaKnown {
  gaps: number[];
  values: string;
}

/** Encode ascending, distinct cell ids with their values. */
export function encodeKnown(sortedIds: readonly number[], valueOf: (cell: number) => 0 | 1): DeltaKnown {
  const gaps = new Array<number>(sortedIds.length);
  let values = "";
  let prev = 0;
  for (let i = 0; i < sortedIds.length; i++) {
    const id = sortedIds[i];
    gaps[i] = id - prev;
    prev = id;
    values += valueOf(id) ? "1" : "0";
  }
  return { gaps, values };
}

/** Decode back to `[cell id, value]` pairs. */
export function decodeKnown(known: DeltaKnown): Array<[number, 0 | 1]> {
  const out: Array<[number, 0 | 1]> = [];
  let id = 0;
  for (let i = 0; i < known.gaps.length; i++) {
    id += known.gaps[i];
    out.push([id, known.values[i] === "1" ? 1 : 0]);
  }
  return out;
}
