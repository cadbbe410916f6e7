/** The marks drawn over the field in screen space: growth rings, meetings and deaths. */
import { OVERLAY } from "../palette";
import type { Camera } from "./camera";

/** A mark on the field: where groups met, where a machine died (it pulses for a minute, then stays dim). */
export interface FieldMarker {
  kind: "meet" | "death";
  x: number;
  y: number;
  label: string;
  /** The revision of the event it marks (one event's marks are never added twice). */
  rev: number;
  /** performance.now() when it appeared (markers fade to a dim mark after a while). */
  since: number;
}

export interface RingBox {
  ring: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** How long a new mark pulses before it stays dim. */
export const MARKER_LIFETIME_MS = 60_000;

export function drawRings(ctx: CanvasRenderingContext2D, camera: Camera, rings: readonly RingBox[]): void {
  if (!rings.length) return;
  ctx.save();
  ctx.setLineDash([6, 4]);
  ctx.strokeStyle = OVERLAY.ringLine;
  ctx.fillStyle = OVERLAY.ringLabel;
  ctx.font = "12px system-ui, sans-serif";
  ctx.lineWidth = 1;
  for (const r of rings) {
    const p = camera.toScreen(r.x, r.y);
    ctx.strokeRect(p.x, p.y, r.w * camera.scale, r.h * camera.scale);
    ctx.fillText(`ring ${r.ring}`, p.x + 4, p.y - 4);
  }
  ctx.restore();
}

export function drawMarkers(ctx: CanvasRenderingContext2D, camera: Camera, markers: readonly FieldMarker[], reducedMotion: boolean): void {
  const now = performance.now();
  ctx.font = "600 12px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const m of markers) {
    const age = (now - m.since) / MARKER_LIFETIME_MS;
    const p = camera.toScreen(m.x, m.y);
    const pulse = reducedMotion || age >= 1 ? 0 : 4 * Math.sin(now / 180);
    ctx.globalAlpha = Math.max(0.35, 1 - age);
    ctx.beginPath();
    if (m.kind === "meet") {
      ctx.arc(p.x, p.y, 11 + pulse, 0, Math.PI * 2);
      ctx.strokeStyle = OVERLAY.meeting;
    } else {
      ctx.moveTo(p.x - 9, p.y - 9);
      ctx.lineTo(p.x + 9, p.y + 9);
      ctx.moveTo(p.x + 9, p.y - 9);
      ctx.lineTo(p.x - 9, p.y + 9);
      ctx.strokeStyle = OVERLAY.death;
    }
    ctx.lineWidth = 3;
    ctx.stroke();
    // The label sits right of the mark, or left of it where the canvas would cut it off; it
    // fades less than the mark, so that an old meeting (a replay's, say) stays readable.
    const width = ctx.measureText(m.label).width + 8;
    const right = p.x + 14 + width <= camera.width || p.x - 14 - width < 0;
    const left = right ? p.x + 14 : p.x - 14 - width;
    ctx.globalAlpha = Math.max(0.8, 1 - age);
    ctx.fillStyle = OVERLAY.markerLabelBackdrop;
    ctx.fillRect(left, p.y - 9, width, 18);
    ctx.fillStyle = m.kind === "meet" ? OVERLAY.meeting : OVERLAY.deathLabel;
    ctx.fillText(m.label, left + 4, p.y);
    ctx.globalAlpha = 1;
  }
}
