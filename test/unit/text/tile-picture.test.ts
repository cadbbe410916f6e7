import { describe, expect, it } from "vitest";
import { generateField } from "../../../src/engine";
import { shapeCellIds } from "../../../src/engine/geometry";
import { shapeCatalogue, type ShapeKind } from "../../../src/engine/generate/shapes";
import type { Field } from "../../../src/engine/types";
import { tilePicture } from "../../../src/referee/pictures";
import type { Referee } from "../../../src/referee/referee";
import { drawTile, parsePicture, parsePictures, pictureRows, type PictureCell } from "../../../src/text/tile-picture";
import { commit, joinInput, lcg, makeReferee, ok, reveal } from "../referee/helpers";

/** The same field moved by (dx, dy) onto a board of side G: coordinates with more digits. */
function moved(field: Field, G: number, dx: number, dy: number): Field {
  const solution = new Uint8Array(G * G);
  const tiles = field.tiles.map((t) => {
    const shape = { id: t.id, x0: t.x0 + dx, y0: t.y0 + dy, w: t.w, h: t.h, rects: t.rects };
    const at = (c: number) => (Math.floor(c / field.G) + dy) * G + (c % field.G) + dx;
    for (const c of t.cellIds) solution[at(c)] = field.solution[c];
    return { ...shape, cellIds: shapeCellIds(shape, G), m: t.m, givens: t.givens.map(at) };
  });
  return { G, tiles, solution };
}

/** What a picture must show of a tile, straight from the referee's state. */
function expectedCells(ref: Referee, field: Field, tileId: number): PictureCell[] {
  const G = field.G;
  const covering = new Map<number, number>();
  for (const t of field.tiles) for (const c of t.cellIds) covering.set(c, (covering.get(c) ?? 0) + 1);
  return field.tiles[tileId].cellIds.map((c) => ({
    x: c % G,
    y: Math.floor(c / G),
    v: ref.cell(c)!.value,
    shared: (covering.get(c) ?? 0) > 1,
  }));
}

describe("tile pictures", () => {
  it("read back into exactly the tile: cells, known values and shared marks, on real fields up to G = 1000", async () => {
    const bases = [
      await generateField({ kind: "scatter", seed: "pictures-a", G: 40 }),
      await generateField({ kind: "scatter", seed: "pictures-b", G: 60 }),
      await generateField({ kind: "grid", seed: "pictures-c", n: 6, G: 16 }),
      await generateField({ kind: "scatter", seed: "pictures-d", G: 80 }),
    ];
    const kinds = new Set<number>();
    let drawn = 0;
    const glyphs = new Set<string>();
    for (const [b, base] of bases.entries()) {
      // At the origin, and moved so x and y run to three digits (the far corner at 999).
      for (const [G, dx, dy] of [[base.G, 0, 0], [1000, 1000 - base.G, 1000 - base.G], [1000, 95 - b, 990 - base.G]] as const) {
        const field = moved(base, G, dx, dy);
        const ref = makeReferee(field);
        const agent = String(ok(ref, joinInput("m-0000000000000001")).agent);
        const rnd = lcg(G + b);
        // Reveal what the frontier allows and commit true values into part of it, so pictures
        // hold givens, seam and accepted cells next to unknown ones.
        for (let step = 0; step < 12; step++) {
          const frontier = ref.frontier(agent) ?? [];
          if (frontier.length === 0) break;
          const t = frontier[rnd(frontier.length)];
          reveal(ref, agent, t);
          const cells = field.tiles[t].cellIds.filter(() => rnd(3) === 0).map((c): [number, 0 | 1] => [c, field.solution[c] as 0 | 1]);
          if (cells.length) commit(ref, agent, cells.slice(0, 512));
        }
        for (const tile of field.tiles) {
          kinds.add(tile.rects.length);
          const picture = tilePicture((ref as unknown as { state: { board: Parameters<typeof tilePicture>[0] } }).state.board, tile.id, true);
          const read = parsePicture(picture);
          expect({ x0: read.x0, y0: read.y0, w: read.w, h: read.h }).toEqual({ x0: tile.x0, y0: tile.y0, w: tile.w, h: tile.h });
          expect(read.cells).toEqual(expectedCells(ref, field, tile.id));
          for (const c of read.cells) glyphs.add(`${c.v}${c.shared}`);
          drawn++;
        }
      }
    }
    expect(drawn).toBeGreaterThan(400);
    // Every glyph occurs: unknown, 0 and 1, each plain and shared.
    expect(glyphs.size).toBe(6);
    expect(kinds.size).toBeGreaterThan(1); // unions of several rectangles, not only rectangles
  });

  it("read back every shape of the generator's catalogue (rect, L, T, plus, ring, union) anywhere on a 1000 board", () => {
    const rnd = lcg(7);
    const seen = new Set<ShapeKind>();
    for (const { draft } of shapeCatalogue()) {
      seen.add(draft.kind);
      const x0 = rnd(1000 - draft.w + 1);
      const y0 = rnd(1000 - draft.h + 1);
      const values = new Map<string, -1 | 0 | 1>();
      const shared = new Set<string>();
      const expected: PictureCell[] = [];
      const mask = new Uint8Array(draft.w * draft.h);
      for (const [lx, ly, w, h] of draft.rects) for (let j = ly; j < ly + h; j++) for (let i = lx; i < lx + w; i++) mask[j * draft.w + i] = 1;
      for (let j = 0; j < draft.h; j++) {
        for (let i = 0; i < draft.w; i++) {
          if (!mask[j * draft.w + i]) continue;
          const key = `${x0 + i},${y0 + j}`;
          const v = (rnd(3) - 1) as -1 | 0 | 1;
          const s = rnd(4) === 0;
          values.set(key, v);
          if (s) shared.add(key);
          expected.push({ x: x0 + i, y: y0 + j, v, shared: s });
        }
      }
      const picture = drawTile({ x0, y0, w: draft.w, h: draft.h, rects: draft.rects }, (x, y) => values.get(`${x},${y}`)!, (x, y) => shared.has(`${x},${y}`));
      const read = parsePicture(picture);
      expect({ x0: read.x0, y0: read.y0, w: read.w, h: read.h }).toEqual({ x0, y0, w: draft.w, h: draft.h });
      expect(read.cells).toEqual(expected);
    }
    expect([...seen].sort()).toEqual(["L", "T", "plus", "rect", "ring", "union"]);
  });

  it("draws a ruler a reader can follow, blanks outside the shape, what each line still needs, and is found among other lines", () => {
    // An L at x 98..101 (the ruler crosses 99 → 100), rows 9..12 (labels of two widths).
    const picture = drawTile(
      { x0: 98, y0: 9, w: 4, h: 4, rects: [[0, 0, 2, 4], [2, 2, 2, 2]] },
      (x, y) => (x === 98 && y === 9 ? 1 : x === 101 ? 0 : -1),
      (x) => x === 99,
    );
    expect(picture).toBe(
      [
        "x    0 0 1 1",
        "x    9 9 0 0",
        "x    8 9 0 1",
        "y=9  1 :     | 2:0/1",
        "y=10 . :     | 2:1/1",
        "y=11 . : . 0 | 4:2/1",
        "y=12 . : . 0 | 4:2/1",
        // What each column still needs, under it; column x=101 is complete; x=100 starts below
        // the top, so its line is spelled out with where it runs.
        "1s   1 2 * -",
        "0s   2 2 * -",
        "cols x=100 2:1/1 (y=11..12)",
      ].join("\n"),
    );
    const text = `tile 3 revealed\n${picture}\nnext: commit\n\nx   5 6\ny=2 1 0`;
    expect(parsePictures(text).map((p) => [p.x0, p.y0, p.cells.length])).toEqual([[98, 9, 12], [5, 2, 2]]);
  });

  it("says for every unfinished line of every catalogue shape how many 1s and 0s it still needs, as a reader would count them", () => {
    const rnd = lcg(11);
    let checked = 0;
    for (const { draft } of shapeCatalogue().filter((_, k) => k % 7 === 0)) {
      const mask = new Uint8Array(draft.w * draft.h);
      for (const [lx, ly, w, h] of draft.rects) for (let j = ly; j < ly + h; j++) for (let i = lx; i < lx + w; i++) mask[j * draft.w + i] = 1;
      const values = new Map<string, -1 | 0 | 1>();
      // Known values as a solution would have them (a checkerboard balances every even line), some left unknown.
      for (let j = 0; j < draft.h; j++) for (let i = 0; i < draft.w; i++) if (mask[j * draft.w + i]) values.set(`${i},${j}`, rnd(2) === 0 ? -1 : ((i + j) % 2 as 0 | 1));
      const picture = drawTile({ x0: 0, y0: 0, w: draft.w, h: draft.h, rects: draft.rects }, (x, y) => values.get(`${x},${y}`)!, () => false);
      const cells = parsePicture(picture).cells;
      // Counted from the cells read back: runs of consecutive cells along each row and each column.
      // A row's line starting past the box's left edge gives its x range; a column spelled out on
      // the cols line gives each line's y range.
      const needs = (line: PictureCell[], range: (run: PictureCell[]) => string): string[] => {
        const out: string[] = [];
        let run: PictureCell[] = [];
        const close = () => {
          const ones = run.filter((c) => c.v === 1).length;
          const zeros = run.filter((c) => c.v === 0).length;
          if (run.length && ones + zeros < run.length) out.push(`${run.length}:${run.length / 2 - ones}/${run.length / 2 - zeros}${range(run)}`);
          run = [];
        };
        for (const c of line) {
          const last = run.at(-1);
          const adjacent = last !== undefined && ((c.y === last.y && c.x === last.x + 1) || (c.x === last.x && c.y === last.y + 1));
          if (!adjacent) close();
          run.push(c);
        }
        close();
        return out;
      };
      const rows = picture.split("\n").filter((l) => l.startsWith("y="));
      for (let j = 0; j < draft.h; j++) {
        const said = rows[j].includes("|") ? rows[j].slice(rows[j].indexOf("|") + 2) : "";
        const xRange = (run: PictureCell[]) => (run[0].x > 0 ? ` (x=${run[0].x}..${run.at(-1)!.x})` : "");
        expect(said).toEqual(needs(cells.filter((c) => c.y === j), xRange).join(" "));
        checked++;
      }
      // Under the grid: 1s and 0s a column still needs (digits under the columns), `*` for a column of
      // several lines or starting below the top (spelled out on the cols line), `-` for a complete one.
      const all = picture.split("\n");
      const at = all[0].search(/\d/);
      const underRow = (name: string) => all.find((l) => l.startsWith(`${name} `));
      const colsLine = all.find((l) => l.startsWith("cols ")) ?? "cols ";
      const spelled = new Map(colsLine.slice(5).split(", ").filter(Boolean).map((e) => [Number(e.slice(2, e.indexOf(" "))), e.slice(e.indexOf(" ") + 1)]));
      const yRange = (run: PictureCell[]) => ` (y=${run[0].y}..${run.at(-1)!.y})`;
      for (let i = 0; i < draft.w; i++) {
        const column = cells.filter((c) => c.x === i).sort((a, b) => a.y - b.y);
        const open = needs(column, () => "");
        const runs = column.filter((c, k) => k === 0 || c.y !== column[k - 1].y + 1).length;
        const startsBelowTop = column.length > 0 && column[0].y > 0;
        const [ones, zeros] = [underRow("1s")?.[at + 2 * i] ?? "-", underRow("0s")?.[at + 2 * i] ?? "-"];
        if (open.length === 0) expect([ones, zeros], `column x=${i}`).toEqual(["-", "-"]);
        else if (runs > 1 || startsBelowTop) {
          expect([ones, zeros], `column x=${i}`).toEqual(["*", "*"]);
          expect(spelled.get(i), `column x=${i}`).toEqual(needs(column, yRange).join(" "));
        } else expect(`${column.length}:${ones}/${zeros}`, `column x=${i}`).toBe(open[0]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("cuts a picture to chosen rows, marks each run left out, and reads back exactly the rows kept, over every catalogue shape", () => {
    const rnd = lcg(23);
    let cut = 0;
    for (const { draft } of shapeCatalogue().filter((_, k) => k % 5 === 0)) {
      const values = new Map<string, -1 | 0 | 1>();
      const picture = drawTile(
        { x0: 37, y0: 95, w: draft.w, h: draft.h, rects: draft.rects },
        (x, y) => {
          const key = `${x},${y}`;
          if (!values.has(key)) values.set(key, (rnd(3) - 1) as -1 | 0 | 1);
          return values.get(key)!;
        },
        (x, y) => (x + y) % 5 === 0,
      );
      const whole = parsePicture(picture);
      const keep = new Set<number>();
      for (let y = 95; y < 95 + draft.h; y++) if (rnd(3) === 0) keep.add(y);
      const rows = pictureRows(picture, (y) => keep.has(y));
      if (keep.size === 0) {
        expect(rows).toBeNull();
        continue;
      }
      const read = parsePicture(rows!);
      expect(read.cells).toEqual(whole.cells.filter((c) => keep.has(c.y)));
      expect(read.x0).toBe(whole.x0);
      // Every row left out is named by exactly one "… y=A..B not shown" line; ruler and column counts stay.
      const named = new Set<number>();
      for (const line of rows!.split("\n").filter((l) => l.startsWith("…"))) {
        const [, a, b] = /^… y=(\d+)(?:\.\.(\d+))? not shown$/.exec(line)!;
        for (let y = Number(a); y <= Number(b ?? a); y++) named.add(y);
      }
      expect([...named, ...keep].sort((p, q) => p - q)).toEqual(Array.from({ length: draft.h }, (_, j) => 95 + j));
      const notRows = (text: string) => text.split("\n").filter((l) => !l.startsWith("y=") && !l.startsWith("…"));
      expect(notRows(rows!)).toEqual(notRows(picture));
      cut++;
    }
    expect(cut).toBeGreaterThan(100);
  });
});
