/**
 * A constraint problem over cells and lines, compiled to typed arrays for the solver.
 *
 * A problem is a set of lines (each a list of cells, at most MAX_LINE long, even length) that
 * must each take a valid pattern (SPEC §2 rules 1–2); lines in the same `group` must end up
 * pairwise different (rule 3: same tile, same orientation, same length). A cell may lie on any
 * number of lines, which lets one problem hold a single tile or several overlapping tiles
 * (region repair and look-ahead during filling). `search` marks the lines whose completion is
 * the goal; other lines only constrain by propagation.
 */
import { validLineCount } from "./lines";

export interface LineSpec {
  /** Cell ids (any numbering) in order along the line. */
  cells: readonly number[];
  /** Lines with equal group ids must differ once complete. */
  group: number;
  /** The search completes these lines; non-search lines only propagate. */
  search: boolean;
}

export class Problem {
  readonly nCells: number;
  readonly nLines: number;
  /** Local cell index → the caller's cell id. */
  readonly cellIds: Int32Array;
  readonly lineLen: Int32Array;
  readonly lineFull: Int32Array;
  readonly lineCellStart: Int32Array;
  readonly lineCells: Int32Array;
  readonly sibStart: Int32Array;
  readonly sibs: Int32Array;
  readonly cellLineStart: Int32Array;
  readonly cellLine: Int32Array;
  readonly cellBit: Int32Array;
  readonly searchLines: Int32Array;
  readonly poolStart: Int32Array;
  readonly poolSize: number;
  private readonly localOf: Map<number, number>;

  constructor(lines: readonly LineSpec[]) {
    const localOf = new Map<number, number>();
    const ids: number[] = [];
    let total = 0;
    for (const line of lines) {
      const len = line.cells.length;
      if (validLineCount(len) === 0) throw new RangeError(`line of length ${len} cannot be solved`);
      total += len;
      for (const id of line.cells) {
        if (localOf.get(id) === undefined) {
          localOf.set(id, ids.length);
          ids.push(id);
        }
      }
    }
    this.localOf = localOf;
    this.nCells = ids.length;
    this.nLines = lines.length;
    this.cellIds = Int32Array.from(ids);
    this.lineLen = new Int32Array(this.nLines);
    this.lineFull = new Int32Array(this.nLines);
    this.lineCellStart = new Int32Array(this.nLines + 1);
    this.lineCells = new Int32Array(total);
    this.poolStart = new Int32Array(this.nLines + 1);
    const perCell = new Int32Array(this.nCells);
    let at = 0;
    let pool = 0;
    const search: number[] = [];
    lines.forEach((line, l) => {
      const len = line.cells.length;
      this.lineLen[l] = len;
      this.lineFull[l] = (1 << len) - 1;
      this.lineCellStart[l] = at;
      for (const id of line.cells) {
        const c = localOf.get(id) as number;
        this.lineCells[at++] = c;
        perCell[c]++;
      }
      this.poolStart[l] = pool;
      pool += validLineCount(len);
      if (line.search) search.push(l);
    });
    this.lineCellStart[this.nLines] = at;
    this.poolStart[this.nLines] = pool;
    this.poolSize = pool;
    this.searchLines = Int32Array.from(search);

    // Cell → (line, bit) incidence.
    this.cellLineStart = new Int32Array(this.nCells + 1);
    for (let c = 0; c < this.nCells; c++) this.cellLineStart[c + 1] = this.cellLineStart[c] + perCell[c];
    this.cellLine = new Int32Array(total);
    this.cellBit = new Int32Array(total);
    const fill = this.cellLineStart.slice(0, this.nCells);
    for (let l = 0; l < this.nLines; l++) {
      for (let i = this.lineCellStart[l], b = 0; i < this.lineCellStart[l + 1]; i++, b++) {
        const c = this.lineCells[i];
        this.cellLine[fill[c]] = l;
        this.cellBit[fill[c]] = 1 << b;
        fill[c]++;
      }
    }

    // Siblings: other lines of the same group (rule 3), each list in ascending line order.
    const members = new Map<number, number[]>();
    for (let l = 0; l < lines.length; l++) {
      const g = lines[l].group;
      const list = members.get(g);
      if (list) list.push(l);
      else members.set(g, [l]);
    }
    this.sibStart = new Int32Array(this.nLines + 1);
    for (let l = 0; l < this.nLines; l++) this.sibStart[l + 1] = this.sibStart[l] + (members.get(lines[l].group) as number[]).length - 1;
    this.sibs = new Int32Array(this.sibStart[this.nLines]);
    for (let l = 0; l < this.nLines; l++) {
      let at = this.sibStart[l];
      for (const m of members.get(lines[l].group) as number[]) if (m !== l) this.sibs[at++] = m;
    }
  }

  /** Each line's known and ones masks (bit i: the line's i-th cell) from cell values (-1 = free). */
  lineMasks(values: Int8Array, known: Int32Array, ones: Int32Array): void {
    for (let l = 0; l < this.nLines; l++) {
      let k = 0;
      let o = 0;
      for (let i = this.lineCellStart[l], b = 1; i < this.lineCellStart[l + 1]; i++, b <<= 1) {
        const v = values[this.lineCells[i]];
        if (v >= 0) {
          k |= b;
          if (v) o |= b;
        }
      }
      known[l] = k;
      ones[l] = o;
    }
  }

  /** Local index of a caller's cell id, or -1. */
  local(id: number): number {
    const c = this.localOf.get(id);
    return c === undefined ? -1 : c;
  }
}
