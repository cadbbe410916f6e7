/**
 * Exact solver for line problems, bitset edition (the one the generator uses for filling).
 *
 * Same model and the same search (`LineSearch`) as `Solver`, but each line's live set is a
 * bitset over its length's pattern table: fixing cell
 * i to v is `live &= has[i][v]` over P/32 words instead of a scan of P patterns, and a cell is
 * forced when one of its two supports `live & has[i][v]` is empty (checked from a remembered
 * word first, the "residue"). Changed words are saved on a trail, so backtracking restores them.
 * Each line also keeps the indices of its non-zero words as a reversible sparse set (a word that
 * becomes zero is swapped past the set's limit; the limit is on the trail), so filtering, counting
 * and support checks visit only words that still hold live patterns: a line's set shrinks to a
 * few words within a few levels of the search.
 * This is the compact-table idea from constraint programming applied to the line tables.
 */
import { validLines } from "./lines";
import type { Problem } from "./problem";
import { LineSearch, TAG_STORAGE } from "./line-search";
import { MaskCache } from "./mask-cache";

interface LenTable {
  len: number;
  P: number;
  W: number;
  pats: Int32Array;
  /** has[(i*2+v)*W + w]: bit k of word w set when pattern 32w+k has value v at position i. */
  has: Int32Array;
  /** All patterns live. */
  all: Int32Array;
}

const lenTables: LenTable[] = [];

function lenTable(len: number): LenTable {
  const hit = lenTables[len];
  if (hit) return hit;
  const pats = validLines(len);
  const P = pats.length;
  const W = (P + 31) >>> 5;
  const has = new Int32Array(2 * len * W);
  const all = new Int32Array(W);
  for (let k = 0; k < P; k++) {
    const w = k >>> 5;
    const bit = 1 << (k & 31);
    all[w] |= bit;
    for (let i = 0; i < len; i++) has[(i * 2 + ((pats[k] >>> i) & 1)) * W + w] |= bit;
  }
  const t = { len, P, W, pats, has, all };
  lenTables[len] = t;
  return t;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Live sets for (length, known mask, ones mask), shared by every solver. */
const liveCache = new MaskCache<{ words: Int32Array; count: number }>(2_000_000);

function initialLive(t: LenTable, known: number, ones: number): { words: Int32Array; count: number } {
  const hit = liveCache.get(t.len, known, ones);
  if (hit) return hit;
  const words = t.all.slice();
  let k = known;
  while (k !== 0) {
    const b = k & -k;
    k ^= b;
    const i = 31 - Math.clz32(b);
    const off = (i * 2 + ((ones >>> i) & 1)) * t.W;
    for (let w = 0; w < t.W; w++) words[w] &= t.has[off + w];
  }
  let count = 0;
  for (let w = 0; w < t.W; w++) count += popcount(words[w]);
  const entry = { words, count };
  liveCache.set(t.len, known, ones, entry, t.W + 8);
  return entry;
}

const TAG_WORD = TAG_STORAGE;
const TAG_FK = TAG_STORAGE + 1;
const TAG_LIMIT = TAG_STORAGE + 2;

/** Work counters across all bitset solvers (profiling aid; never affects results). */
export const bitSolverWork = { nodes: 0, resets: 0, words: 0 };

export class BitSolver extends LineSearch {
  private readonly tabs: LenTable[];
  private readonly wStart: Int32Array;
  private readonly resStart: Int32Array;
  private readonly live: Int32Array;
  private readonly res: Int32Array;
  /** Known bits already applied to the live set. */
  private readonly fk: Int32Array;
  /** Per line, from wStart: word indices, the first `lim[l]` of them non-zero (the rest zero). */
  private readonly idx: Int32Array;
  private readonly lim: Int32Array;
  private readonly offs = new Int32Array(32);

  constructor(problem: Problem) {
    super(problem, bitSolverWork, 4096);
    const n = problem.nLines;
    this.tabs = [];
    this.wStart = new Int32Array(n + 1);
    this.resStart = new Int32Array(n + 1);
    for (let l = 0; l < n; l++) {
      const t = lenTable(problem.lineLen[l]);
      this.tabs.push(t);
      this.wStart[l + 1] = this.wStart[l] + t.W;
      this.resStart[l + 1] = this.resStart[l] + 2 * t.len;
    }
    this.live = new Int32Array(this.wStart[n]);
    this.res = new Int32Array(this.resStart[n]);
    this.fk = new Int32Array(n);
    this.idx = new Int32Array(this.wStart[n]);
    this.lim = new Int32Array(n);
  }

  protected loadLines(): void {
    for (let l = 0; l < this.p.nLines; l++) {
      const k = this.known[l];
      this.fk[l] = k;
      const init = initialLive(this.tabs[l], k, this.ones[l]);
      const ws = this.wStart[l];
      this.live.set(init.words, ws);
      this.cnt[l] = init.count;
      let nz = 0;
      for (let w = 0; w < init.words.length; w++) if (init.words[w] !== 0) this.idx[ws + nz++] = w;
      this.lim[l] = nz;
    }
  }

  /** Ascending pattern order (independent of the search history). */
  protected listPatterns(l: number, out: Int32Array, at: number): void {
    const t = this.tabs[l];
    const ws = this.wStart[l];
    let n = at;
    for (let w = 0; w < t.W; w++) {
      let x = this.live[ws + w];
      while (x !== 0) {
        const b = x & -x;
        x ^= b;
        out[n++] = t.pats[(w << 5) + 31 - Math.clz32(b)];
      }
    }
  }

  protected undoStorage(tag: number, idx: number): void {
    if (tag === TAG_WORD) this.live[idx] = this.trail[--this.tTop];
    else if (tag === TAG_FK) this.fk[idx] = this.trail[--this.tTop];
    else this.lim[idx] = this.trail[--this.tTop];
  }

  /** Drop the k-th active word of line l (now zero) from its non-zero set. */
  private dropWord(l: number, ws: number, k: number): void {
    const last = this.lim[l] - 1;
    const w = this.idx[ws + k];
    this.idx[ws + k] = this.idx[ws + last];
    this.idx[ws + last] = w;
    this.push2(last + 1, l * 8 + TAG_LIMIT);
    this.lim[l] = last;
  }

  /** Position of word w in line m's non-zero set (it must be there). */
  private activeAt(m: number, w: number): number {
    const ws = this.wStart[m];
    let k = 0;
    while (this.idx[ws + k] !== w) k++;
    return k;
  }

  /** Is some live pattern of line l valued v at position i? (residue word first) */
  private support(l: number, t: LenTable, ws: number, i: number, v: number): boolean {
    const live = this.live;
    const has = t.has;
    const off = (i * 2 + v) * t.W;
    const ri = this.resStart[l] + i * 2 + v;
    const r = this.res[ri];
    if ((live[ws + r] & has[off + r]) !== 0) return true;
    const idx = this.idx;
    for (let k = 0, n = this.lim[l]; k < n; k++) {
      const w = idx[ws + k];
      if ((live[ws + w] & has[off + w]) !== 0) {
        this.res[ri] = w;
        return true;
      }
    }
    return false;
  }

  protected propagate(): boolean {
    const p = this.p;
    const live = this.live;
    const cnt = this.cnt;
    const offs = this.offs;
    while (this.qLen > 0) {
      const l = this.dequeue();
      this.inQ[l] = 0;
      const t = this.tabs[l];
      const W = t.W;
      const ws = this.wStart[l];
      const k = this.known[l];
      const nb = k & ~this.fk[l];
      if (nb !== 0) {
        // Apply the newly known cells: live &= has[i][v] for each.
        const o = this.ones[l];
        let nOffs = 0;
        let x = nb;
        while (x !== 0) {
          const b = x & -x;
          x ^= b;
          const i = 31 - Math.clz32(b);
          offs[nOffs++] = (i * 2 + ((o >>> i) & 1)) * W;
        }
        this.push2(this.fk[l], l * 8 + TAG_FK);
        this.fk[l] = k;
        let c = 0;
        const has = t.has;
        const idx = this.idx;
        bitSolverWork.words += this.lim[l];
        for (let k = 0; k < this.lim[l]; k++) {
          const w = idx[ws + k];
          const old = live[ws + w];
          let nw = old;
          for (let j = 0; j < nOffs; j++) nw &= has[offs[j] + w];
          if (nw !== old) {
            this.push2(old, (ws + w) * 8 + TAG_WORD);
            live[ws + w] = nw;
          }
          if (nw !== 0) c += popcount(nw);
          else this.dropWord(l, ws, k--);
        }
        if (c !== cnt[l]) this.setCount(l, c);
      }
      if (cnt[l] === 0) {
        this.clearQueue();
        return false;
      }
      // Force every free cell that one value no longer supports.
      let unknown = p.lineFull[l] & ~this.known[l];
      const cs = p.lineCellStart[l];
      while (unknown !== 0) {
        const b = unknown & -unknown;
        unknown ^= b;
        const i = 31 - Math.clz32(b);
        if (!this.support(l, t, ws, i, 1)) this.assign(p.lineCells[cs + i], 0, l);
        else if (!this.support(l, t, ws, i, 0)) this.assign(p.lineCells[cs + i], 1, l);
      }
      if (cnt[l] === 1 && !this.det[l]) {
        // Complete line: its pattern is barred from sibling lines (same table, same index).
        this.setDetermined(l);
        const w = this.idx[ws];
        const bit = live[ws + w] & -live[ws + w];
        for (let j = p.sibStart[l]; j < p.sibStart[l + 1]; j++) {
          const m = p.sibs[j];
          const mw = this.wStart[m] + w;
          const old = live[mw];
          if ((old & bit) === 0) continue;
          this.push2(old, mw * 8 + TAG_WORD);
          live[mw] = old ^ bit;
          if (old === bit) this.dropWord(m, this.wStart[m], this.activeAt(m, w));
          this.setCount(m, cnt[m] - 1);
          if (cnt[m] === 0) {
            this.clearQueue();
            return false;
          }
          this.wake(m);
        }
      }
    }
    return true;
  }
}
