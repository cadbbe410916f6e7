// A tile drawn as text for a model without code (SPEC §6 "What a model reads"), and read back.
// Pure: the referee draws, the tests and the client matrix parse, the site may show the same.

/** What a picture shows of one cell: its value (-1 unknown) and whether another tile shares it. */
export interface PictureCell {
  x: number;
  y: number;
  v: -1 | 0 | 1;
  shared: boolean;
}

/** A tile as a picture shows it: its box and its cells, row by row, left to right. */
export interface PictureTile {
  x0: number;
  y0: number;
  w: number;
  h: number;
  cells: PictureCell[];
}

/** The geometry a picture is drawn from (a tile as every answer carries it, SPEC §6.1). */
export interface PictureShape {
  x0: number;
  y0: number;
  w: number;
  h: number;
  rects: ReadonlyArray<readonly [number, number, number, number]>;
}

/** Glyphs: the plain set for a tile's own cells, a second set for the cells it shares. */
const OWN = { "-1": ".", "0": "0", "1": "1" } as const;
const SHARED = { "-1": ":", "0": "o", "1": "i" } as const;
const VALUE_OF: Record<string, { v: -1 | 0 | 1; shared: boolean }> = {
  ".": { v: -1, shared: false },
  "0": { v: 0, shared: false },
  "1": { v: 1, shared: false },
  ":": { v: -1, shared: true },
  o: { v: 0, shared: true },
  i: { v: 1, shared: true },
};

/** The legend, one line: said once per answer and in the rules. */
export const PICTURE_LEGEND =
  "picture: rows y=N; ruler rows x: read each column down for its x; 0 1 known, . unknown; shared with another tile: o=0 i=1 :=unknown; blank = not in the tile; " +
  "after | each unfinished line of the row as length:1s/0s still needed (not totals), and its x range if it starts past the left edge; rows 1s, 0s: the same per column (- done, * see cols)";

/**
 * Draws a tile: ruler rows (`x` then, per digit of the largest x, that digit of each column's x,
 * read top to bottom), then one row per y of the box (`y=N`), a cell every two characters so each
 * column stands alone, then after `|` what each unfinished line of the row still needs; under
 * the grid, rows `1s` and `0s` with what each column still needs. Counting a line's 1s and 0s by eye was the players'
 * main source of wrong cells; the counts are bookkeeping, never which cell takes which value.
 */
export function drawTile(shape: PictureShape, value: (x: number, y: number) => -1 | 0 | 1, shared: (x: number, y: number) => boolean): string {
  const { x0, y0, w, h } = shape;
  const inside = insideMask(shape);
  const at = (i: number, j: number): -1 | 0 | 1 => value(x0 + i, y0 + j);
  const label = Math.max(1, `y=${y0 + h - 1}`.length);
  const digits = String(x0 + w - 1).length;
  const lines: string[] = [];
  for (let d = 0; d < digits; d++) {
    const row: string[] = [];
    for (let i = 0; i < w; i++) row.push(String(x0 + i).padStart(digits, "0")[d]);
    lines.push(`${"x".padEnd(label)} ${row.join(" ")}`);
  }
  for (let j = 0; j < h; j++) {
    const row: string[] = [];
    for (let i = 0; i < w; i++) {
      if (!inside[j * w + i]) row.push(" ");
      else row.push((shared(x0 + i, y0 + j) ? SHARED : OWN)[at(i, j)]);
    }
    // A line that starts past the box's left edge says where: counting leading blanks by eye put
    // players' cells one column off.
    const needs = lineNeeds(w, (i) => inside[j * w + i] === 1, (i) => at(i, j))
      .filter((n) => n.open)
      .map((n) => (n.start > 0 ? withSpan(n, "x", x0) : n.text));
    const cells = `${`y=${y0 + j}`.padEnd(label)} ${row.join(" ")}`;
    lines.push(needs.length ? `${cells.padEnd(label + 2 * w)} | ${needs.join(" ")}` : cells.trimEnd());
  }
  // Columns: what each needs, under its own column (a line holds at most 9 of a value). A column
  // of several lines, or whose line starts below the box's top, is starred there and spelled out
  // on a `cols` line with each line's y range, as rows give theirs.
  const ones: string[] = [];
  const zeros: string[] = [];
  const spelled: string[] = [];
  for (let i = 0; i < w; i++) {
    const needs = lineNeeds(h, (j) => inside[j * w + i] === 1, (j) => at(i, j));
    const open = needs.filter((n) => n.open);
    const plain = needs.length === 1 && needs[0].start === 0;
    if (!plain && open.length) {
      spelled.push(`x=${x0 + i} ${open.map((n) => withSpan(n, "y", y0)).join(" ")}`);
    }
    const mark = open.length === 0 ? "-" : plain ? null : "*";
    ones.push(mark ?? String(open[0].ones));
    zeros.push(mark ?? String(open[0].zeros));
  }
  if (ones.some((c) => c !== "-")) {
    lines.push(`${"1s".padEnd(label)} ${ones.join(" ")}`, `${"0s".padEnd(label)} ${zeros.join(" ")}`);
  }
  if (spelled.length) lines.push(`cols ${spelled.join(", ")}`);
  return lines.join("\n");
}

/** One line along a row or column: its length and the 1s and 0s it still needs (balance: length/2 of each). */
interface LineNeed {
  /** Where the line starts along its row or column (0 = the box's edge) and how many cells it has. */
  start: number;
  length: number;
  open: boolean;
  ones: number;
  zeros: number;
  text: string;
}

/** A line's counts with where it runs: "2:0/1 (x=24..25)"; `origin` is the box's first x or y. */
function withSpan(n: LineNeed, axis: "x" | "y", origin: number): string {
  return `${n.text} (${axis}=${origin + n.start}..${origin + n.start + n.length - 1})`;
}

/** Every line along one row or column, in order; `open` when it still has an unknown cell. */
function lineNeeds(n: number, inTile: (k: number) => boolean, v: (k: number) => -1 | 0 | 1): LineNeed[] {
  const out: LineNeed[] = [];
  for (let k = 0; k < n; ) {
    if (!inTile(k)) {
      k++;
      continue;
    }
    const start = k;
    let len = 0;
    let ones = 0;
    let zeros = 0;
    for (; k < n && inTile(k); k++, len++) {
      const x = v(k);
      if (x === 1) ones++;
      else if (x === 0) zeros++;
    }
    const need = { ones: len / 2 - ones, zeros: len / 2 - zeros };
    out.push({ start, length: len, open: ones + zeros < len, ...need, text: `${len}:${need.ones}/${need.zeros}` });
  }
  return out;
}

/** Which cells of the box the tile covers (row-major over the box). */
function insideMask(shape: PictureShape): Uint8Array {
  const mask = new Uint8Array(shape.w * shape.h);
  for (const [lx, ly, rw, rh] of shape.rects) {
    for (let j = ly; j < ly + rh; j++) mask.fill(1, j * shape.w + lx, j * shape.w + lx + rw);
  }
  return mask;
}

/**
 * Reads a picture back: the ruler gives each column's x, each `y=` row its cells. Lines that are
 * neither (a header, a legend) are skipped, so a picture can be read out of a whole answer text
 * starting at its first ruler row. Throws on a glyph it does not know.
 */
export function parsePicture(text: string): PictureTile {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^x +\d/.test(l));
  if (start < 0) throw new Error("no ruler row (x …) in the picture");
  const first = lines[start];
  const at = first.search(/\d/); // column of the first cell
  const ruler: string[] = [];
  let k = start;
  while (k < lines.length && /^x +\d/.test(lines[k])) ruler.push(lines[k++]);
  const w = Math.floor((first.length - at) / 2) + 1;
  const xs: number[] = [];
  for (let i = 0; i < w; i++) xs.push(Number(ruler.map((r) => r[at + 2 * i]).join("")));
  for (let i = 1; i < w; i++) if (xs[i] !== xs[0] + i) throw new Error(`ruler column ${i} reads x=${xs[i]}, expected ${xs[0] + i}`);
  const cells: PictureCell[] = [];
  let y0 = -1;
  let last = -1;
  let skipped = false; // a `… not shown` line stands for rows left out, so the next row may jump
  for (; k < lines.length; k++) {
    if (lines[k].startsWith(SKIP_MARK)) {
      skipped = true;
      continue;
    }
    const m = /^y=(\d+)/.exec(lines[k]);
    if (!m) break;
    const y = Number(m[1]);
    if (y0 < 0) y0 = y;
    else if (skipped ? y <= last : y !== last + 1) throw new Error(`row y=${y} out of order`);
    last = y;
    skipped = false;
    const line = lines[k];
    for (let i = 0; i < w; i++) {
      const ch = line[at + 2 * i];
      if (ch === undefined || ch === " ") continue;
      const read = VALUE_OF[ch];
      if (!read) throw new Error(`unknown glyph ${JSON.stringify(ch)} at (${xs[i]},${y})`);
      cells.push({ x: xs[i], y, ...read });
    }
  }
  if (y0 < 0) throw new Error("no rows (y=…) under the ruler");
  return { x0: xs[0], y0, w, h: last - y0 + 1, cells };
}

/** How a picture marks rows it leaves out (`pictureRows`): "… y=5..9 not shown". */
const SKIP_MARK = "…";

/**
 * A picture cut to the rows `keep` names: the ruler and the column counts stay (they are the
 * whole tile's), each run of rows left out becomes one "… y=A..B not shown" line. Null when no
 * row is kept. A commit's answer redraws a long tile's open or changed rows only, so it stays short.
 */
export function pictureRows(picture: string, keep: (y: number) => boolean): string | null {
  const out: string[] = [];
  let kept = 0;
  let gap: [number, number] | null = null;
  const closeGap = (): void => {
    if (gap) out.push(`${SKIP_MARK} y=${gap[0] === gap[1] ? gap[0] : `${gap[0]}..${gap[1]}`} not shown`);
    gap = null;
  };
  for (const line of picture.split("\n")) {
    const m = /^y=(\d+)/.exec(line);
    if (!m) {
      closeGap();
      out.push(line);
      continue;
    }
    const y = Number(m[1]);
    if (keep(y)) {
      closeGap();
      out.push(line);
      kept++;
    } else gap = gap ? [gap[0], y] : [y, y];
  }
  closeGap();
  return kept === 0 ? null : out.join("\n");
}

/** Every picture in a text (an answer may hold several), in order. */
export function parsePictures(text: string): PictureTile[] {
  const out: PictureTile[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^x +\d/.test(lines[i]) || (i > 0 && /^x +\d/.test(lines[i - 1]))) continue;
    out.push(parsePicture(lines.slice(i).join("\n")));
  }
  return out;
}
