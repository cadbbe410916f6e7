/**
 * Check 2 (SPEC §9, §3, §5): the field regenerated from `day_seed` and the parameters, ring by
 * ring at the `grow` events' indices, is the archive's tile for tile: geometry, cell count, m,
 * solution and givens.
 */
import { createFieldGenerator, createRingGenerator } from "../../engine";
import { tileStrings } from "../../engine/field-digest";
import type { Field, Tile } from "../../engine/types";
import { archiveField } from "./archive-field";
import { engineParams, type ArchiveParams, type ArchiveTile } from "../archive/format";
import { growEvents, type AuditedArchive } from "./event-log";
import { mismatch, shown, type Progress } from "./mismatch";
import { counted } from "../../text/wording";
import { Breather } from "./abort";

/** Something that advances in bounded steps (the engine's generators). */
interface Stepper {
  step(): Promise<boolean>;
  progress(): { done: number; total: number };
}

/** One independently checkable piece: the initial field (ring 0) or one grown ring. */
export interface RegenerationPart {
  ring: number;
  /** Its first tile id and tile count in the archive. */
  first: number;
  count: number;
  /** The revision of its grow event (none for the initial field). */
  rev?: number;
}

/**
 * The pieces the `grow` events describe: ring k (1, 2, …) brings `tiles` tiles from `first_tile`,
 * ids continuing, and the last ring ends at the archive's last tile. Throws on a log that breaks
 * this (a ring skipped, repeated or out of place).
 */
export function regenerationPlan(archive: AuditedArchive): RegenerationPart[] {
  const grows = growEvents(archive.events);
  const parts: RegenerationPart[] = [];
  let first = 0;
  let count = grows.length > 0 ? (grows[0].first_tile as number) : archive.tiles.length;
  for (let i = 0; i <= grows.length; i++) {
    const g = grows[i - 1];
    if (g) {
      if (g.ring !== i) throw mismatch(`event ${g.rev} (grow): ring ${String(g.ring)} where ring ${i} was due`, { rev: g.rev, field: "ring" });
      if (g.first_tile !== first) throw mismatch(`event ${g.rev} (grow): first_tile ${String(g.first_tile)}, but the tiles before it number ${first}`, { rev: g.rev, field: "first_tile" });
      count = g.tiles as number;
    }
    if (!Number.isSafeInteger(count) || count < 0 || first + count > archive.tiles.length) {
      throw mismatch(`${g ? `event ${g.rev} (grow)` : "the first grow event"}: its tiles run past the archive's ${archive.tiles.length}`, { rev: g?.rev, field: "tiles" });
    }
    parts.push(g ? { ring: i, first, count, rev: g.rev } : { ring: 0, first, count });
    first += count;
  }
  if (first !== archive.tiles.length) {
    throw mismatch(`the archive has ${archive.tiles.length} tiles, its initial field and grow events account for ${first}`, { tile: first, field: "tiles" });
  }
  return parts;
}

/**
 * What regenerating one piece needs: the generation's inputs, the archive's field (at least its
 * tiles before the piece, and the solution of their cells) and the piece's own archive rows. A
 * worker thread gets the field once (field-transfer.ts) and the rows with each piece.
 */
export interface PieceInput {
  G: number;
  params: ArchiveParams;
  day_seed: string;
  field: Field;
  /** The archive's rows of the piece's tiles: ids `part.first …`. */
  rows: readonly ArchiveTile[];
}

/** Hooks of a long regeneration: progress, and a pause between steps (lets an event loop run). */
export interface PieceHooks {
  progress?: (done: number, total: number) => void;
  pause?: () => Promise<void>;
}

/**
 * Regenerates one piece and compares it with the archive. A ring is generated on the archive's
 * own tiles before it: when every piece matches, induction from the initial field makes the whole
 * archive the true field, and the pieces can run in parallel (the command line does).
 */
export async function checkRegenerationPart(
  archive: AuditedArchive,
  part: RegenerationPart,
  progress?: (done: number, total: number) => void,
  pause?: () => Promise<void>,
): Promise<void> {
  const { field } = archiveField(archive);
  const input: PieceInput = { G: archive.G, params: archive.params, day_seed: archive.day_seed, field, rows: archive.tiles.slice(part.first, part.first + part.count) };
  await regeneratePiece(input, part, { progress, pause });
}

/** The same on prepared inputs (a worker thread's side). */
export async function regeneratePiece(input: PieceInput, part: RegenerationPart, hooks: PieceHooks = {}): Promise<void> {
  const params = engineParams(input.params, input.day_seed);
  const run = async (gen: Stepper): Promise<void> => {
    while (!(await gen.step())) {
      const p = gen.progress();
      hooks.progress?.(p.done, p.total);
      await hooks.pause?.();
    }
  };
  if (part.ring === 0) {
    let gen: ReturnType<typeof createFieldGenerator>;
    try {
      gen = createFieldGenerator(params);
    } catch (err) {
      throw mismatch(`params do not describe a field the engine can generate: ${err instanceof Error ? err.message : String(err)}`, { field: "params" });
    }
    await run(gen);
    const field = gen.result();
    if (field.G !== input.G) throw mismatch(`G is ${input.G}, the parameters generate a ${field.G}×${field.G} field`, { field: "G" });
    compareTiles(input.rows, 0, field, 0, field.tiles.length, part.count, "the initial field");
    return;
  }
  const before: Field = { G: input.G, tiles: input.field.tiles.slice(0, part.first), solution: input.field.solution };
  const ring = createRingGenerator(params.seed, params, part.ring, before);
  await run(ring);
  const r = ring.result();
  const field: Field = { G: before.G, tiles: [...before.tiles, ...r.tiles], solution: r.solution };
  compareTiles(input.rows, part.first, field, part.first, r.tiles.length, part.count, `ring ${part.ring} (event ${part.rev})`);
}

export function regenerationSummary(parts: readonly RegenerationPart[]): string {
  const tiles = parts.reduce((n, p) => n + p.count, 0);
  const rings = parts.length - 1;
  return `${tiles} tiles identical to the field regenerated from day_seed (initial field + ${counted(rings, "ring")})`;
}

/** Check 2 in one thread: every piece in order, stopping at the first mismatch. */
export async function checkRegeneration(archive: AuditedArchive, progress?: Progress, signal?: AbortSignal): Promise<string> {
  const parts = regenerationPlan(archive);
  const total = parts.length * 100;
  const breather = new Breather(signal);
  for (let i = 0; i < parts.length; i++) {
    await checkRegenerationPart(archive, parts[i], (done, of) => progress?.("regeneration", i * 100 + Math.round((100 * done) / Math.max(1, of)), total), () => breather.tick());
  }
  progress?.("regeneration", total, total);
  return regenerationSummary(parts);
}

/** Tiles `first … first+count-1` of the regenerated field against the archive's rows (row 0 is tile `rowsFrom`). */
function compareTiles(rows: readonly ArchiveTile[], rowsFrom: number, field: Field, first: number, count: number, expected: number, what: string): void {
  for (let k = 0; k < Math.min(count, expected); k++) compareTile(rows[first + k - rowsFrom], field.tiles[first + k], field.solution);
  if (count !== expected) {
    throw mismatch(`${what}: the archive has ${expected} tiles, regeneration gives ${count}`, { tile: first + Math.min(count, expected), field: "tiles" });
  }
}

function compareTile(row: ArchiveTile | undefined, tile: Tile, solution: Uint8Array): void {
  const id = tile.id;
  if (!row) throw mismatch(`tile ${id}: regenerated but missing from the archive`, { tile: id, field: "tiles" });
  const strings = tileStrings(tile, solution);
  const fields: Array<[keyof ArchiveTile, unknown, unknown]> = [
    ["x0", row.x0, tile.x0],
    ["y0", row.y0, tile.y0],
    ["w", row.w, tile.w],
    ["h", row.h, tile.h],
    ["rects", JSON.stringify(row.rects), JSON.stringify(tile.rects)],
    ["cells", row.cells, tile.cellIds.length],
    ["m", row.m, tile.m],
    ["solution", row.solution, strings.solution],
    ["givens", row.givens, strings.givens],
  ];
  for (const [name, archived, regenerated] of fields) {
    if (archived === regenerated) continue;
    let where = "";
    if (typeof archived === "string" && typeof regenerated === "string" && (name === "solution" || name === "givens")) {
      let i = 0;
      while (i < archived.length && archived[i] === regenerated[i]) i++;
      where = i < tile.cellIds.length ? ` at its cell ${tile.cellIds[i]} (character ${i})` : "";
    }
    throw mismatch(`tile ${id}: ${name} differs from the regenerated field${where}: archive ${shown(archived, 80)}, regenerated ${shown(regenerated, 80)}`, { tile: id, field: name });
  }
}
