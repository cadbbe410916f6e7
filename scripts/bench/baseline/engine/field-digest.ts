/**
 * A canonical text form of a generated field and its SHA-256, for regression pins and for
 * comparing regenerations (same inputs must give the same digest on every runtime).
 * One line per tile: id x0,y0,w,h rects m solution givens (strings as in SPEC §9's encoding).
 */
import { sha256 } from "./random";
import type { Field, Tile } from "./types";

export function tileStrings(tile: Tile, solution: Uint8Array): { solution: string; givens: string } {
  const givens = new Set(tile.givens);
  let sol = "";
  let giv = "";
  for (const c of tile.cellIds) {
    sol += solution[c] ? "1" : "0";
    giv += givens.has(c) ? "1" : "0";
  }
  return { solution: sol, givens: giv };
}

export function canonicalField(field: Field): string {
  const lines = [`mosaic-field|G=${field.G}|tiles=${field.tiles.length}`];
  for (const t of field.tiles) {
    const s = tileStrings(t, field.solution);
    const rects = t.rects.map((r) => r.join(",")).join(";");
    lines.push(`${t.id}|${t.x0},${t.y0},${t.w},${t.h}|${rects}|${t.m}|${s.solution}|${s.givens}`);
  }
  return lines.join("\n");
}

export async function fieldDigest(field: Field): Promise<string> {
  const bytes = await sha256(canonicalField(field));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
