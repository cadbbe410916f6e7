import { describe, expect, it } from "vitest";
import { Camera } from "../../../src/site/field/camera";

/** The field rectangle the viewport shows, in cells. */
function shown(c: Camera): { x0: number; y0: number; x1: number; y1: number } {
  const a = c.toField(0, 0);
  const b = c.toField(c.width, c.height);
  return { x0: a.x, y0: a.y, x1: b.x, y1: b.y };
}

function contains(c: Camera, box: { x: number; y: number; w: number; h: number }): boolean {
  const s = shown(c);
  const eps = 1e-6;
  return s.x0 <= box.x + eps && s.y0 <= box.y + eps && s.x1 >= box.x + box.w - eps && s.y1 >= box.y + box.h - eps;
}

describe("site: the camera keeps a fitted view through resizes until the spectator moves it", () => {
  it("refits the whole field when the viewport shrinks after a fit (a control bar wrapping to a second line)", () => {
    const c = new Camera(200);
    c.resize(1000, 657);
    c.fit();
    expect(contains(c, { x: 0, y: 0, w: 200, h: 200 })).toBe(true);
    c.resize(1000, 625);
    expect(c.following).toBe(true);
    expect(contains(c, { x: 0, y: 0, w: 200, h: 200 })).toBe(true);
  });

  it("refits the box it was fitted to (the reach under fog), not the whole field", () => {
    const c = new Camera(1000);
    c.resize(800, 600);
    const reach = { x: 400, y: 420, w: 120, h: 90 };
    c.fit(reach);
    c.resize(400, 300);
    expect(contains(c, reach)).toBe(true);
    expect(shown(c).x1 - shown(c).x0).toBeLessThan(300);
  });

  it("leaves the view alone once the spectator has panned or zoomed", () => {
    const c = new Camera(200);
    c.resize(800, 600);
    c.fit();
    c.zoomAt(4, 400, 300);
    const zoomed = { ...shown(c), scale: c.scale };
    c.resize(800, 560);
    expect(c.following).toBe(false);
    expect(c.scale).toBe(zoomed.scale);
    expect(shown(c).x0).toBeCloseTo(zoomed.x0, 6);
    c.fit();
    expect(c.following).toBe(true);
    c.panBy(10, 0);
    expect(c.following).toBe(false);
  });
});
