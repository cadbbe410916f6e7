/**
 * A disk cache of generated fields for the benchmarks (Node only): a G = 1000 growing field takes
 * minutes of CPU, and it is a pure function of the seed, the parameters and the engine's code. Each
 * piece (the initial field, each ring) is stored under a key made of those, the engine's sources
 * included, so a change to the engine never serves a stale field. Folder: `.cache/fields/`
 * (gitignored).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { FieldParams, RingResult } from "../../src/engine";
import type { Field, Rect, SolutionCount, Tile } from "../../src/engine/types";
import { shapeCellIds } from "../../src/engine/geometry";
import { engineFields, type FieldSource } from "../../test/support/synthetic-day";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CACHE_DIR = join(ROOT, ".cache");

/** SHA-256 over the files under the given folders (paths and contents, in sorted order). */
export function sourceDigest(...folders: string[]): string {
  const h = createHash("sha256");
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const p = join(dir, name);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
  for (const folder of folders) {
    const abs = join(ROOT, folder);
    for (const file of existsSync(abs) && statSync(abs).isDirectory() ? walk(abs) : [abs]) {
      h.update(relative(ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
    }
  }
  return h.digest("hex").slice(0, 16);
}

interface StoredPiece {
  G: number;
  tiles: Array<Omit<Tile, "cellIds">>;
  room: boolean;
  /** The whole field's solution after this piece, base64. */
  solution: string;
}

function key(params: FieldParams, piece: number): string {
  const h = createHash("sha256").update(JSON.stringify({ ...params, piece, engine: sourceDigest("src/engine") }));
  return h.digest("hex").slice(0, 24);
}

function load(file: string): { field: Field; room: boolean } {
  const stored = JSON.parse(readFileSync(file, "utf8")) as StoredPiece;
  const tiles = stored.tiles.map((t) => ({ ...t, rects: t.rects as Rect[], m: t.m as SolutionCount, cellIds: shapeCellIds(t, stored.G) }));
  return { field: { G: stored.G, tiles, solution: new Uint8Array(Buffer.from(stored.solution, "base64")) }, room: stored.room };
}

function save(file: string, G: number, tiles: Tile[], solution: Uint8Array, room: boolean): void {
  mkdirSync(dirname(file), { recursive: true });
  const stored: StoredPiece = {
    G,
    tiles: tiles.map(({ cellIds: _cells, ...t }) => t),
    room,
    solution: Buffer.from(solution).toString("base64"),
  };
  writeFileSync(file, JSON.stringify(stored));
}

/** The engine's fields, each piece read from disk when it was generated before. */
export function cachedFields(log: (line: string) => void = () => {}): FieldSource {
  const path = (params: FieldParams, piece: number): string => join(CACHE_DIR, "fields", `${key(params, piece)}.json`);
  return {
    async initial(params) {
      const file = path(params, 0);
      if (existsSync(file)) return load(file).field;
      const t0 = Date.now();
      const field = await engineFields.initial(params);
      log(`generated the initial field (${field.tiles.length} tiles) in ${((Date.now() - t0) / 1000).toFixed(1)} s; cached`);
      save(file, field.G, field.tiles, field.solution, true);
      return field;
    },
    async ring(params, ring, field): Promise<RingResult> {
      const file = path(params, ring);
      if (existsSync(file)) {
        const { field: piece, room } = load(file);
        return { ring, tiles: piece.tiles, solution: piece.solution, room };
      }
      const t0 = Date.now();
      const result = await engineFields.ring(params, ring, field);
      log(`generated ring ${ring} (${result.tiles.length} tiles) in ${((Date.now() - t0) / 1000).toFixed(1)} s; cached`);
      save(file, field.G, result.tiles, result.solution, result.room);
      return result;
    },
  };
}
