import { shapeCellIds, shapeLines } from "../geometry";
import type { TileShape } from "../types";

/** Value of a cell that is neither known nor fixed. */
export const EMPTY = -1;

/** Lines up to this length also keep their values as bit masks (bit k = position k), which
 * turns the unique rule's line comparisons into a few integer operations. */
export const MASK_MAX = 30;

/** Number of set bits of a 32-bit integer. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Position of the lowest set bit (x ≠ 0). */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

interface TileRecord {
  shape: TileShape;
  /** Global cell ids of the tile. */
  cells: Int32Array;
  revealed: boolean;
  /** Line ids, filled in when the tile is revealed (unrevealed tiles never constrain). */
  lines: number[];
}

/**
 * The mutable board propagation works on: one value per cell (known or fixed), the lines of
 * revealed tiles with running counts of 0s and 1s, a work queue of lines to re-examine and an
 * optional trail so that trial assignments (bifurcation) can be undone exactly.
 *
 * Lines are built only when a tile is revealed, so a large field costs memory only for what
 * is in play. Each cell records the lines through it: the two lines of the first revealed
 * tile covering it inline in typed arrays, further tiles' lines in linked lists (shared cells
 * are the exception).
 */
export class PropagationState {
  readonly G: number;
  /** EMPTY, 0 or 1 per cell: known values and values fixed by propagation. */
  readonly value: Int8Array;
  /** 1 where the value is known (a given or an accepted commit), not derived. */
  readonly known: Uint8Array;
  readonly tiles: TileRecord[] = [];

  readonly lineCells: Int32Array[] = [];
  readonly lineTile: number[] = [];
  readonly lineGroup: number[] = [];
  readonly lineZeros: number[] = [];
  readonly lineOnes: number[] = [];
  /** Lines of one tile with the same orientation and length: the scope of the unique rule. */
  readonly groups: number[][] = [];

  private readonly memLineA: Int32Array;
  private readonly memPosA: Uint16Array;
  private readonly memLineB: Int32Array;
  private readonly memPosB: Uint16Array;
  /** Lines of further tiles through a cell: a linked list per cell in three parallel pools. */
  private readonly extraHead: Int32Array;
  private readonly extraLine: number[] = [];
  private readonly extraPos: number[] = [];
  private readonly extraNext: number[] = [];

  private queue: number[] = [];
  private inQueue = new Uint8Array(1024);
  /** Per line of length ≤ MASK_MAX: positions holding a value, and positions holding a 1. */
  lineSetBits = new Int32Array(1024);
  lineOnesBits = new Int32Array(1024);

  /** When non-null, every assignment is recorded so that `undoTo` can take it back. */
  trail: number[] | null = null;
  /** Cells assigned outside trials since the owner last drained this list. */
  readonly fresh: number[] = [];

  constructor(G: number) {
    // Positions along a line are stored in 16 bits.
    if (!Number.isInteger(G) || G < 1 || G > 65535) throw new Error(`bad field size ${G}`);
    this.G = G;
    const n = G * G;
    this.value = new Int8Array(n).fill(EMPTY);
    this.known = new Uint8Array(n);
    this.memLineA = new Int32Array(n).fill(-1);
    this.memPosA = new Uint16Array(n);
    this.memLineB = new Int32Array(n).fill(-1);
    this.memPosB = new Uint16Array(n);
    this.extraHead = new Int32Array(n).fill(-1);
  }

  addTile(shape: TileShape, cellIds: readonly number[]): void {
    if (shape.id !== this.tiles.length) throw new Error(`tile ${shape.id} added out of order`);
    const n = this.G * this.G;
    for (const c of cellIds) if (!Number.isInteger(c) || c < 0 || c >= n) throw new Error(`tile ${shape.id}: cell ${c} out of range`);
    const expected = shapeCellIds(shape, this.G);
    const given = [...cellIds].sort((a, b) => a - b);
    if (given.length !== expected.length || given.some((c, i) => c !== expected[i])) {
      throw new Error(`tile ${shape.id}: cell ids do not match its shape`);
    }
    const { id, x0, y0, w, h, rects } = shape;
    this.tiles.push({
      shape: { id, x0, y0, w, h, rects: rects.map(([a, b, c, d]) => [a, b, c, d]) },
      cells: Int32Array.from(cellIds),
      revealed: false,
      lines: [],
    });
  }

  /** Build the tile's lines (counts taken from the current values) and queue them. */
  reveal(tileId: number): void {
    const tile = this.tiles[tileId];
    if (!tile) throw new Error(`unknown tile ${tileId}`);
    if (tile.revealed) return;
    const lines = shapeLines(tile.shape, this.G);
    for (const line of lines) {
      if (line.cells.length % 2 !== 0) throw new Error(`tile ${tileId} has a line of odd length ${line.cells.length}`);
    }
    tile.revealed = true;
    const groupOf = new Map<string, number>();
    const perCell = new Map<number, number[]>(); // cell -> [hLine, hPos, vLine, vPos]
    for (const line of lines) {
      const id = this.lineCells.length;
      const cells = Int32Array.from(line.cells);
      const key = `${line.orientation}${cells.length}`;
      let group = groupOf.get(key);
      if (group === undefined) {
        group = this.groups.length;
        this.groups.push([]);
        groupOf.set(key, group);
      }
      this.groups[group].push(id);
      let zeros = 0;
      let ones = 0;
      let setBits = 0;
      let oneBits = 0;
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        const v = this.value[c];
        if (v === 0) zeros++;
        else if (v === 1) ones++;
        if (v !== EMPTY && i < MASK_MAX) setBits |= 1 << i;
        if (v === 1 && i < MASK_MAX) oneBits |= 1 << i;
        const entry = perCell.get(c) ?? [];
        entry.push(id, i);
        perCell.set(c, entry);
      }
      this.lineCells.push(cells);
      this.lineTile.push(tileId);
      this.lineGroup.push(group);
      this.lineZeros.push(zeros);
      this.lineOnes.push(ones);
      tile.lines.push(id);
      this.reserve(id + 1);
      this.lineSetBits[id] = setBits;
      this.lineOnesBits[id] = oneBits;
    }
    for (const [c, m] of perCell) {
      if (this.memLineA[c] === -1) {
        this.memLineA[c] = m[0];
        this.memPosA[c] = m[1];
        this.memLineB[c] = m[2];
        this.memPosB[c] = m[3];
      } else {
        for (let i = 0; i < m.length; i += 2) {
          this.extraLine.push(m[i]);
          this.extraPos.push(m[i + 1]);
          this.extraNext.push(this.extraHead[c]);
          this.extraHead[c] = this.extraLine.length - 1;
        }
      }
    }
    for (const line of tile.lines) this.enqueue(line);
  }

  /** Grow the per-line typed arrays to hold `n` lines. */
  private reserve(n: number): void {
    if (this.inQueue.length >= n) return;
    const size = Math.max(n, this.inQueue.length * 2);
    const inQueue = new Uint8Array(size);
    inQueue.set(this.inQueue);
    this.inQueue = inQueue;
    const setBits = new Int32Array(size);
    setBits.set(this.lineSetBits);
    this.lineSetBits = setBits;
    const oneBits = new Int32Array(size);
    oneBits.set(this.lineOnesBits);
    this.lineOnesBits = oneBits;
  }

  isRevealed(tileId: number): boolean {
    return this.tiles[tileId]?.revealed ?? false;
  }

  /**
   * Writes the (line, position) pairs of every revealed line through a cell into `out`
   * (cleared first) and returns the number of pairs.
   */
  linesThrough(cell: number, out: number[]): number {
    out.length = 0;
    const a = this.memLineA[cell];
    if (a === -1 || a === undefined) return 0;
    out.push(a, this.memPosA[cell], this.memLineB[cell], this.memPosB[cell]);
    for (let e = this.extraHead[cell]; e !== -1; e = this.extraNext[e]) out.push(this.extraLine[e], this.extraPos[e]);
    return out.length >> 1;
  }

  /** Revealed tiles covering a cell (each once). */
  revealedTilesOf(cell: number, out: number[]): number[] {
    out.length = 0;
    const a = this.memLineA[cell];
    if (a === -1 || a === undefined) return out;
    out.push(this.lineTile[a]);
    for (let e = this.extraHead[cell]; e !== -1; e = this.extraNext[e]) {
      const t = this.lineTile[this.extraLine[e]];
      if (t !== out[out.length - 1]) out.push(t); // a tile's two lines are adjacent in the list
    }
    return out;
  }

  /**
   * Positions where line `a` differs from complete line `b` of the same length, a blank of `a`
   * counting as a difference, position `skip` ignored: -1 for none, the position for exactly
   * one, -2 for more.
   */
  differsAt(a: number, b: number, skip: number): number {
    const len = this.lineCells[a].length;
    if (len <= MASK_MAX) {
      const full = (1 << len) - 1;
      const d = ((this.lineOnesBits[a] ^ this.lineOnesBits[b]) | (full & ~this.lineSetBits[a])) & ~(skip >= 0 ? 1 << skip : 0);
      if (d === 0) return -1;
      return (d & (d - 1)) === 0 ? lowestBit(d) : -2;
    }
    const ca = this.lineCells[a];
    const cb = this.lineCells[b];
    let at = -1;
    for (let k = 0; k < len; k++) {
      if (k === skip || this.value[ca[k]] === this.value[cb[k]]) continue;
      if (at !== -1) return -2;
      at = k;
    }
    return at;
  }

  /** Do two complete lines of the same length hold the same values? */
  sameValues(a: number, b: number): boolean {
    const len = this.lineCells[a].length;
    if (len <= MASK_MAX) return this.lineOnesBits[a] === this.lineOnesBits[b];
    const ca = this.lineCells[a];
    const cb = this.lineCells[b];
    for (let k = 0; k < len; k++) if (this.value[ca[k]] !== this.value[cb[k]]) return false;
    return true;
  }

  lineBlanks(line: number): number {
    return this.lineCells[line].length - this.lineZeros[line] - this.lineOnes[line];
  }

  /** Give an empty cell a value; queues every line through it (and, when a line completes,
   * the lines the unique rule compares it with). */
  assign(cell: number, v: 0 | 1): void {
    this.value[cell] = v;
    if (this.trail) this.trail.push(cell);
    else this.fresh.push(cell);
    const a = this.memLineA[cell];
    if (a === -1) return;
    this.touch(a, v, this.memPosA[cell]);
    this.touch(this.memLineB[cell], v, this.memPosB[cell]);
    for (let e = this.extraHead[cell]; e !== -1; e = this.extraNext[e]) this.touch(this.extraLine[e], v, this.extraPos[e]);
  }

  /** Make a cell empty again (counts only: callers decide what to re-examine). */
  unassign(cell: number): void {
    const v = this.value[cell];
    if (v === EMPTY) return;
    this.value[cell] = EMPTY;
    const a = this.memLineA[cell];
    if (a === -1) return;
    this.untouch(a, v, this.memPosA[cell]);
    this.untouch(this.memLineB[cell], v, this.memPosB[cell]);
    for (let e = this.extraHead[cell]; e !== -1; e = this.extraNext[e]) this.untouch(this.extraLine[e], v, this.extraPos[e]);
  }

  /** Take back every assignment recorded on the trail after `mark`, newest first. */
  undoTo(mark: number): void {
    const trail = this.trail;
    if (!trail) return;
    while (trail.length > mark) this.unassign(trail.pop() as number);
  }

  private touch(line: number, v: number, pos: number): void {
    if (v === 0) this.lineZeros[line]++;
    else this.lineOnes[line]++;
    if (pos < MASK_MAX) {
      this.lineSetBits[line] |= 1 << pos;
      if (v === 1) this.lineOnesBits[line] |= 1 << pos;
    }
    this.enqueue(line);
    if (this.lineZeros[line] + this.lineOnes[line] === this.lineCells[line].length) {
      // A newly complete line can make the unique rule bite on its near-complete siblings.
      for (const other of this.groups[this.lineGroup[line]]) {
        const blanks = this.lineBlanks(other);
        if (blanks === 1 || blanks === 2) this.enqueue(other);
      }
    }
  }

  private untouch(line: number, v: number, pos: number): void {
    if (v === 0) this.lineZeros[line]--;
    else this.lineOnes[line]--;
    if (pos < MASK_MAX) {
      this.lineSetBits[line] &= ~(1 << pos);
      this.lineOnesBits[line] &= ~(1 << pos);
    }
  }

  enqueue(line: number): void {
    if (this.inQueue[line]) return;
    this.inQueue[line] = 1;
    this.queue.push(line);
  }

  /** Next line to examine, or -1 when the queue is empty. */
  dequeue(): number {
    const line = this.queue.pop();
    if (line === undefined) return -1;
    this.inQueue[line] = 0;
    return line;
  }

  clearQueue(): void {
    for (const line of this.queue) this.inQueue[line] = 0;
    this.queue.length = 0;
  }

  get queueLength(): number {
    return this.queue.length;
  }
}
