import { describe, expect, it } from "vitest";
import { Camera, insetsAround } from "../../../src/site/field/camera";

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

describe("site: a fit leaves room for the controls drawn over the canvas", () => {
  it("frames the field beside an open legend and the zoom buttons, not under them", () => {
    const c = new Camera(60);
    c.resize(1000, 700);
    // An open legend in the bottom-left corner and the zoom buttons in the bottom-right one.
    const legend = { x: 12, y: 420, w: 220, h: 268 };
    const zoom = { x: 858, y: 568, w: 130, h: 120 };
    const insets = insetsAround(1000, 700, [legend, zoom]);
    c.setInsets(insets);
    c.fit();
    const a = c.toScreen(0, 0);
    const b = c.toScreen(60, 60);
    const meets = (r: typeof legend) => a.x < r.x + r.w && b.x > r.x && a.y < r.y + r.h && b.y > r.y;
    expect(meets(legend)).toBe(false);
    expect(meets(zoom)).toBe(false);
    expect(a.y).toBeGreaterThanOrEqual(0);
    expect(b.y).toBeLessThanOrEqual(700);
    // The room is taken from the side that costs the field least: columns here, not the bottom row.
    expect(insets.bottom).toBe(0);
    expect(b.x - a.x).toBeGreaterThan(550);
  });

  it("a view following its fit moves when the legend folds, and one the spectator moved does not", () => {
    const c = new Camera(60);
    c.resize(1000, 700);
    c.fit();
    const before = c.toScreen(0, 0);
    c.setInsets({ left: 240, right: 0, top: 0, bottom: 0 });
    expect(c.toScreen(0, 0).x).toBeGreaterThan(before.x);
    c.panBy(10, 0);
    const moved = c.toScreen(0, 0);
    c.setInsets({ left: 0, right: 0, top: 0, bottom: 0 });
    expect(c.toScreen(0, 0)).toEqual(moved);
  });

  it("ignores controls that would leave less than half the viewport (a phone shows the field under them)", () => {
    const c = new Camera(60);
    c.resize(360, 300);
    c.setInsets({ left: 0, right: 0, top: 0, bottom: 200 });
    c.fit();
    expect(c.toScreen(60, 60).y - c.toScreen(0, 0).y).toBeGreaterThan(250);
  });
});
