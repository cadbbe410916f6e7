/**
 * Exact solver for line problems, bitset edition (the one the generator uses).
 *
 * Same model and search as `Solver` (per-line sets of valid patterns, AND/OR forcing, rule-3
 * removal of completed patterns from sibling lines, branching on the search line with the fewest
 * patterns), but each line's live set is a bitset over its length's pattern table: fixing cell
 * i to v is `live &= has[i][v]` over P/32 words instead of a scan of P patterns, and a cell is
 * forced when one of its two supports `live & has[i][v]` is empty (checked from a remembered
 * word first, the "residue"). Changed words are saved on a trail, so backtracking restores them.
 * This is the compact-table idea from constraint programming applied to the line tables.
 */
import { validLines } from "./lines";
import type { Problem } from "./problem";
import type { Rng } from "./random";

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
const liveCache: Map<number, Map<number, { words: Int32Array; count: number }>>[] = [];
let liveCacheWords = 0;
const LIVE_CACHE_LIMIT = 2_000_000;

function initialLive(t: LenTable, known: number, ones: number): { words: Int32Array; count: number } {
  let byKnown = liveCache[t.len];
  if (!byKnown) byKnown = liveCache[t.len] = new Map();
  let byOnes = byKnown.get(known);
  if (!byOnes) {
    byOnes = new Map();
    byKnown.set(known, byOnes);
  }
  const hit = byOnes.get(ones);
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
  if (liveCacheWords + t.W > LIVE_CACHE_LIMIT) {
    for (const m of liveCache) m?.clear();
    liveCacheWords = 0;
    byKnown.set(known, byOnes);
  }
  byOnes.set(ones, entry);
  liveCacheWords += t.W + 8;
  return entry;
}

const TAG_CELL = 0;
const TAG_WORD = 1;
const TAG_COUNT = 2;
const TAG_FK = 3;
const TAG_DET = 4;

/** Work counters across all bitset solvers (profiling aid; never affects results). */
export const bitSolverWork = { words: 0, nodes: 0, resets: 0 };

export class BitSolver {
  readonly p: Problem;
  /** Cell values: -1 unknown, 0, 1. */
  readonly val: Int8Array;
  private readonly tabs: LenTable[];
  private readonly wStart: Int32Array;
  private readonly resStart: Int32Array;
  private readonly live: Int32Array;
  private readonly res: Int32Array;
  private readonly known: Int32Array;
  private readonly ones: Int32Array;
  /** Known bits already applied to the live set. */
  private readonly fk: Int32Array;
  private readonly cnt: Int32Array;
  private readonly det: Uint8Array;
  private readonly queue: Int32Array;
  private readonly inQ: Uint8Array;
  private qTop = 0;
  private trail: Int32Array;
  private tTop = 0;
  private branch: Int32Array;
  private bTop = 0;
  private readonly offs = new Int32Array(32);
  nodes = 0;
  private budget = Infinity;
  aborted = false;
  private limit = 0;
  private found = 0;
  private collect: Uint8Array[] | null = null;
  private rng: Rng | null = null;
  private consistent = false;

  constructor(problem: Problem) {
    this.p = problem;
    const n = problem.nLines;
    this.val = new Int8Array(problem.nCells);
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
    this.known = new Int32Array(n);
    this.ones = new Int32Array(n);
    this.fk = new Int32Array(n);
    this.cnt = new Int32Array(n);
    this.det = new Uint8Array(n);
    this.queue = new Int32Array(n);
    this.inQ = new Uint8Array(n);
    this.trail = new Int32Array(4096);
    this.branch = new Int32Array(4096);
  }

  /** Load fixed cell values (local indices; -1 = free) and propagate; false on contradiction. */
  reset(fixed: Int8Array): boolean {
    const p = this.p;
    bitSolverWork.resets++;
    this.val.set(fixed);
    this.tTop = 0;
    this.qTop = 0;
    this.det.fill(0);
    for (let l = 0; l < p.nLines; l++) {
      let k = 0;
      let o = 0;
      for (let i = p.lineCellStart[l], b = 1; i < p.lineCellStart[l + 1]; i++, b <<= 1) {
        const v = fixed[p.lineCells[i]];
        if (v >= 0) {
          k |= b;
          if (v) o |= b;
        }
      }
      this.known[l] = k;
      this.ones[l] = o;
      this.fk[l] = k;
      const init = initialLive(this.tabs[l], k, o);
      this.live.set(init.words, this.wStart[l]);
      this.cnt[l] = init.count;
      this.queue[this.qTop++] = l;
      this.inQ[l] = 1;
    }
    this.consistent = this.propagate();
    return this.consistent;
  }

  count(limit: number, budget = Infinity): number {
    this.run(limit, budget, null, null);
    return this.aborted ? -1 : this.found;
  }

  enumerate(limit: number, budget = Infinity): Uint8Array[] | null {
    const out: Uint8Array[] = [];
    this.run(limit, budget, out, null);
    return this.aborted ? null : out;
  }

  solveRandom(rng: Rng, budget = Infinity): boolean {
    const out: Uint8Array[] = [];
    this.run(1, budget, out, rng);
    if (out.length === 0) return false;
    const sol = out[0];
    for (let i = 0; i < sol.length; i++) this.val[i] = sol[i] === 255 ? -1 : sol[i];
    return true;
  }

  private run(limit: number, budget: number, collect: Uint8Array[] | null, rng: Rng | null): void {
    this.nodes = 0;
    this.aborted = false;
    this.found = 0;
    if (!this.consistent) return;
    this.limit = limit;
    this.budget = budget;
    this.collect = collect;
    this.rng = rng;
    const mark = this.tTop;
    this.bTop = 0;
    this.dfs();
    this.undo(mark);
    this.collect = null;
    this.rng = null;
  }

  private dfs(): void {
    bitSolverWork.nodes++;
    if (++this.nodes > this.budget) {
      this.aborted = true;
      return;
    }
    const p = this.p;
    const cnt = this.cnt;
    let best = -1;
    let bestC = 0x7fffffff;
    const sl = p.searchLines;
    for (let i = 0; i < sl.length; i++) {
      const c = cnt[sl[i]];
      if (c > 1 && c < bestC) {
        bestC = c;
        best = sl[i];
        if (c === 2) break;
      }
    }
    if (best < 0) {
      this.found++;
      if (this.collect) {
        const v = this.val;
        const sol = new Uint8Array(v.length);
        for (let i = 0; i < v.length; i++) sol[i] = v[i] < 0 ? 255 : v[i];
        this.collect.push(sol);
      }
      return;
    }
    const base = this.bTop;
    if (base + bestC > this.branch.length) {
      const grown = new Int32Array(Math.max(this.branch.length * 2, base + bestC));
      grown.set(this.branch);
      this.branch = grown;
    }
    const br = this.branch;
    // Candidates in ascending pattern order (independent of the search history).
    const t = this.tabs[best];
    const ws = this.wStart[best];
    let n = 0;
    for (let w = 0; w < t.W; w++) {
      let x = this.live[ws + w];
      while (x !== 0) {
        const b = x & -x;
        x ^= b;
        br[base + n++] = t.pats[(w << 5) + 31 - Math.clz32(b)];
      }
    }
    this.bTop = base + bestC;
    const rng = this.rng;
    for (let i = 0; i < bestC; i++) {
      if (rng) {
        const j = i + rng.int(bestC - i);
        const tmp = br[base + i];
        br[base + i] = br[base + j];
        br[base + j] = tmp;
      }
      const mark = this.tTop;
      if (this.assignLine(best, br[base + i]) && this.propagate()) this.dfs();
      else this.clearQueue();
      this.undo(mark);
      if (this.aborted || this.found >= this.limit) break;
    }
    this.bTop = base;
  }

  private assignLine(l: number, pat: number): boolean {
    const p = this.p;
    const val = this.val;
    for (let i = p.lineCellStart[l], b = 0; i < p.lineCellStart[l + 1]; i++, b++) {
      const c = p.lineCells[i];
      const v = (pat >>> b) & 1;
      if (val[c] < 0) this.assign(c, v, -1);
      else if (val[c] !== v) return false;
    }
    return true;
  }

  private push(x: number): void {
    if (this.tTop === this.trail.length) {
      const grown = new Int32Array(this.trail.length * 2);
      grown.set(this.trail);
      this.trail = grown;
    }
    this.trail[this.tTop++] = x;
  }

  private assign(c: number, v: number, except: number): void {
    const p = this.p;
    this.val[c] = v;
    this.push(c * 8 + TAG_CELL);
    for (let j = p.cellLineStart[c]; j < p.cellLineStart[c + 1]; j++) {
      const l = p.cellLine[j];
      const bit = p.cellBit[j];
      this.known[l] |= bit;
      if (v) this.ones[l] |= bit;
      if (l !== except && !this.inQ[l]) {
        this.inQ[l] = 1;
        this.queue[this.qTop++] = l;
      }
    }
  }

  private clearQueue(): void {
    while (this.qTop > 0) this.inQ[this.queue[--this.qTop]] = 0;
  }

  private undo(mark: number): void {
    const p = this.p;
    const tr = this.trail;
    while (this.tTop > mark) {
      const code = tr[--this.tTop];
      const tag = code & 7;
      const idx = code >> 3;
      if (tag === TAG_CELL) {
        this.val[idx] = -1;
        for (let j = p.cellLineStart[idx]; j < p.cellLineStart[idx + 1]; j++) {
          const l = p.cellLine[j];
          const nb = ~p.cellBit[j];
          this.known[l] &= nb;
          this.ones[l] &= nb;
        }
      } else if (tag === TAG_WORD) {
        this.live[idx] = tr[--this.tTop];
      } else if (tag === TAG_COUNT) {
        this.cnt[idx] = tr[--this.tTop];
      } else if (tag === TAG_FK) {
        this.fk[idx] = tr[--this.tTop];
      } else {
        this.det[idx] = 0;
      }
    }
  }

  /** Is some live pattern of line l valued v at position i? (residue word first) */
  private support(l: number, t: LenTable, ws: number, i: number, v: number): boolean {
    const live = this.live;
    const has = t.has;
    const off = (i * 2 + v) * t.W;
    const ri = this.resStart[l] + i * 2 + v;
    const r = this.res[ri];
    if ((live[ws + r] & has[off + r]) !== 0) return true;
    for (let w = 0; w < t.W; w++) {
      if ((live[ws + w] & has[off + w]) !== 0) {
        this.res[ri] = w;
        return true;
      }
    }
    return false;
  }

  private propagate(): boolean {
    const p = this.p;
    const live = this.live;
    const cnt = this.cnt;
    const offs = this.offs;
    while (this.qTop > 0) {
      const l = this.queue[--this.qTop];
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
        this.push(this.fk[l]);
        this.push(l * 8 + TAG_FK);
        this.fk[l] = k;
        bitSolverWork.words += W;
        let c = 0;
        const has = t.has;
        for (let w = 0; w < W; w++) {
          const old = live[ws + w];
          if (old === 0) continue;
          let nw = old;
          for (let j = 0; j < nOffs; j++) nw &= has[offs[j] + w];
          if (nw !== old) {
            this.push(old);
            this.push((ws + w) * 8 + TAG_WORD);
            live[ws + w] = nw;
          }
          if (nw !== 0) c += popcount(nw);
        }
        if (c !== cnt[l]) {
          this.push(cnt[l]);
          this.push(l * 8 + TAG_COUNT);
          cnt[l] = c;
        }
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
        this.det[l] = 1;
        this.push(l * 8 + TAG_DET);
        let w = 0;
        while (live[ws + w] === 0) w++;
        const bit = live[ws + w] & -live[ws + w];
        for (let j = p.sibStart[l]; j < p.sibStart[l + 1]; j++) {
          const m = p.sibs[j];
          const mw = this.wStart[m] + w;
          const old = live[mw];
          if ((old & bit) === 0) continue;
          this.push(old);
          this.push(mw * 8 + TAG_WORD);
          live[mw] = old ^ bit;
          this.push(cnt[m]);
          this.push(m * 8 + TAG_COUNT);
          if (--cnt[m] === 0) {
            this.clearQueue();
            return false;
          }
          if (!this.inQ[m]) {
            this.inQ[m] = 1;
            this.queue[this.qTop++] = m;
          }
        }
      }
    }
    return true;
  }
}
