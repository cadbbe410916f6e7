/** What the painter draws cell by cell once zoomed in: the grid, tile edges, rejected marks, digits. */
import { OVERLAY } from "../palette";
import type { Camera } from "./camera";
import type { FieldScene } from "./scene";
import { ZOOM } from "./zoom-levels";

export function drawGrid(ctx: CanvasRenderingContext2D, camera: Camera, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  for (let x = x0; x <= x1; x++) {
    const p = camera.toScreen(x, y0);
    const q = camera.toScreen(x, y1);
    ctx.moveTo(Math.round(p.x) + 0.5, p.y);
    ctx.lineTo(Math.round(q.x) + 0.5, q.y);
  }
  for (let y = y0; y <= y1; y++) {
    const p = camera.toScreen(x0, y);
    const q = camera.toScreen(x1, y);
    ctx.moveTo(p.x, Math.round(p.y) + 0.5);
    ctx.lineTo(q.x, Math.round(q.y) + 0.5);
  }
  ctx.strokeStyle = OVERLAY.grid;
  ctx.lineWidth = 1;
  ctx.stroke();
}

/**
 * Boundaries between cells of different tiles (or a tile and nothing), from the cell map.
 * Collinear unit edges are merged into runs, so the path has one segment per straight stretch
 * of boundary rather than one per cell.
 */
export function drawTileEdges(ctx: CanvasRenderingContext2D, camera: Camera, scene: FieldScene, x0: number, y0: number, x1: number, y1: number): void {
  const G = scene.G;
  const t = scene.cellTile;
  const s = camera.scale;
  const ox = camera.x;
  const oy = camera.y;
  ctx.beginPath();
  // Horizontal boundaries: between row y-1 and row y.
  for (let y = y0; y <= Math.min(y1, G - 1); y++) {
    const row = y * G;
    let start = -1;
    for (let x = x0; x <= x1; x++) {
      let edge = false;
      if (x < x1) {
        const id = t[row + x];
        const up = y > 0 ? t[row - G + x] : -1;
        edge = id !== up;
      }
      if (edge && start < 0) start = x;
      else if (!edge && start >= 0) {
        const sy = (y - oy) * s;
        ctx.moveTo((start - ox) * s, sy);
        ctx.lineTo((x - ox) * s, sy);
        start = -1;
      }
    }
  }
  // Vertical boundaries: between column x-1 and column x.
  for (let x = x0; x <= Math.min(x1, G - 1); x++) {
    let start = -1;
    for (let y = y0; y <= y1; y++) {
      let edge = false;
      if (y < y1) {
        const id = t[y * G + x];
        const left = x > 0 ? t[y * G + x - 1] : -1;
        edge = id !== left;
      }
      if (edge && start < 0) start = y;
      else if (!edge && start >= 0) {
        const sx = (x - ox) * s;
        ctx.moveTo(sx, (start - oy) * s);
        ctx.lineTo(sx, (y - oy) * s);
        start = -1;
      }
    }
  }
  ctx.strokeStyle = OVERLAY.tileEdge;
  ctx.lineWidth = s >= ZOOM.thickTileEdges ? 2 : 1;
  ctx.stroke();
}

/** Rejected cells as a cross, without their value (SPEC §4.8). */
export function drawRejected(ctx: CanvasRenderingContext2D, camera: Camera, scene: FieldScene, x0: number, y0: number, x1: number, y1: number): void {
  const G = scene.G;
  const s = camera.scale;
  const pad = s * 0.25;
  ctx.beginPath();
  let any = false;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!scene.isRejected(y * G + x)) continue;
      any = true;
      const sx = (x - camera.x) * s;
      const sy = (y - camera.y) * s;
      ctx.moveTo(sx + pad, sy + pad);
      ctx.lineTo(sx + s - pad, sy + s - pad);
      ctx.moveTo(sx + s - pad, sy + pad);
      ctx.lineTo(sx + pad, sy + s - pad);
    }
  }
  if (!any) return;
  ctx.strokeStyle = OVERLAY.rejected;
  ctx.lineWidth = Math.max(1.5, s / 10);
  ctx.stroke();
}

/** Cell values as digits when zoomed far in: readable without colour. */
export function drawValues(ctx: CanvasRenderingContext2D, camera: Camera, scene: FieldScene, x0: number, y0: number, x1: number, y1: number): void {
  const G = scene.G;
  const s = camera.scale;
  ctx.font = `${Math.round(s * 0.45)}px ui-monospace, monospace`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const v = scene.cellValue[y * G + x];
      if (v < 0) continue;
      ctx.fillStyle = v ? OVERLAY.digitOnOne : OVERLAY.digitOnZero;
      ctx.fillText(v ? "1" : "0", (x + 0.5 - camera.x) * s, (y + 0.5 - camera.y) * s);
    }
  }
}
