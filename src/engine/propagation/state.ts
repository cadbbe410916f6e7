import { shapeLines } from "../geometry";
import type { TileShape } from "../types";

/** Value of a cell that is neither known nor fixed. */
export const EMPTY = -1;

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
  private readonly memPosA: Int32Array;
  private readonly memLineB: Int32Array;
  private readonly memPosB: Int32Array;
  /** Lines of further tiles through a cell: a linked list per cell in three parallel pools. */
  private readonly extraHead: Int32Array;
  private readonly extraLine: number[] = [];
  private readonly extraPos: number[] = [];
  private readonly extraNext: number[] = [];

  private queue: number[] = [];
  private inQueue = new Uint8Array(1024);

  /** When non-null, every assignment is recorded so that `undoTo` can take it back. */
  trail: number[] | null = null;
  /** Cells assigned outside trials since the owner last drained this list. */
  readonly fresh: number[] = [];

  constructor(G: number) {
    if (!Number.isInteger(G) || G < 1) throw new Error(`bad field size ${G}`);
    this.G = G;
    const n = G * G;
    this.value = new Int8Array(n).fill(EMPTY);
    this.known = new Uint8Array(n);
    this.memLineA = new Int32Array(n).fill(-1);
    this.memPosA = new Int32Array(n);
    this.memLineB = new Int32Array(n).fill(-1);
    this.memPosB = new Int32Array(n);
    this.extraHead = new Int32Array(n).fill(-1);
  }

  addTile(shape: TileShape, cellIds: readonly number[]): void {
    if (shape.id !== this.tiles.length) throw new Error(`tile ${shape.id} added out of order`);
    const n = this.G * this.G;
    for (const c of cellIds) if (!Number.isInteger(c) || c < 0 || c >= n) throw new Error(`tile ${shape.id}: cell ${c} out of range`);
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
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        const v = this.value[c];
        if (v === 0) zeros++;
        else if (v === 1) ones++;
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
    }
    if (this.inQueue.length < this.lineCells.length) {
      const grown = new Uint8Array(Math.max(this.lineCells.length, this.inQueue.length * 2));
      grown.set(this.inQueue);
      this.inQueue = grown;
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
    this.touch(a, v);
    this.touch(this.memLineB[cell], v);
    for (let e = this.extraHead[cell]; e !== -1; e = this.extraNext[e]) this.touch(this.extraLine[e], v);
  }

  /** Make a cell empty again (counts only: callers decide what to re-examine). */
  unassign(cell: number): void {
    const v = this.value[cell];
    if (v === EMPTY) return;
    this.value[cell] = EMPTY;
    const a = this.memLineA[cell];
    if (a === -1) return;
    this.untouch(a, v);
    this.untouch(this.memLineB[cell], v);
    for (let e = this.extraHead[cell]; e !== -1; e = this.extraNext[e]) this.untouch(this.extraLine[e], v);
  }

  /** Take back every assignment recorded on the trail after `mark`, newest first. */
  undoTo(mark: number): void {
    const trail = this.trail;
    if (!trail) return;
    while (trail.length > mark) this.unassign(trail.pop() as number);
  }

  private touch(line: number, v: number): void {
    if (v === 0) this.lineZeros[line]++;
    else this.lineOnes[line]++;
    this.enqueue(line);
    if (this.lineZeros[line] + this.lineOnes[line] === this.lineCells[line].length) {
      // A newly complete line can make the unique rule bite on its near-complete siblings.
      for (const other of this.groups[this.lineGroup[line]]) {
        const blanks = this.lineBlanks(other);
        if (blanks === 1 || blanks === 2) this.enqueue(other);
      }
    }
  }

  private untouch(line: number, v: number): void {
    if (v === 0) this.lineZeros[line]--;
    else this.lineOnes[line]--;
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
