// The spectator's field canvas in real headless Chromium, served by wrangler dev: it draws
// tiles by status, pans and zooms with the mouse, the wheel and the keys, and shows a tile's
// details on hover. The scene comes from a generated field (engine), fed through the page's hook.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { generateField } from "../../src/engine";
import { browserPerFile, openPage, screenshot, type WatchedPage } from "../support/browser";
import { shapeMismatches } from "../support/scene-shapes";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();

async function sceneInput(G: number) {
  const field = await generateField({ kind: "scatter", G, seed: `site-field-${G}` });
  const tiles = field.tiles.map((t, i) => ({
    id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, cells: t.cellIds.length, m: t.m,
    status: i % 3 === 0 ? "solved" : i % 3 === 1 ? "revealed" : "hidden",
    agent: i % 3 === 0 ? `m-${String(i % 5).repeat(16)}/1` : null,
  }));
  const known: Array<[number, number]> = [];
  for (const t of field.tiles) if (t.id % 3 === 0) for (const c of t.cellIds) known.push([c, field.solution[c]]);
  return { field, input: { G, tiles, known } };
}

async function camera(page: Page): Promise<{ scale: number; x: number; y: number }> {
  return page.evaluate(() => {
    const c = window.mosaic!.view!.camera;
    return { scale: c.scale, x: c.x, y: c.y };
  });
}

describe("the field canvas", () => {
  let w: WatchedPage;
  let field: Awaited<ReturnType<typeof sceneInput>>["field"];

  beforeAll(async () => {
    const made = await sceneInput(60);
    field = made.field;
    w = await openPage(browser(), baseUrl, "/replay/day-2000-01-01");
    await w.page.waitForFunction(() => window.mosaic?.view !== undefined);
    await w.page.evaluate((input) => (window.mosaic!.showScene as (i: unknown) => void)(input), made.input);
    await w.page.waitForFunction(() => window.mosaic!.view!.timing.drawCount > 1);
  });
  afterAll(async () => {
    await w?.context.close();
  });

  it("is served at /replay/<day> (the page routes on its path) with a labelled, focusable canvas", async () => {
    const canvas = w.page.locator("canvas#field");
    expect(await canvas.getAttribute("tabindex")).toBe("0");
    expect(await canvas.getAttribute("aria-label")).toMatch(/pan.*zoom/i);
    expect(await w.page.title()).toContain("day-2000-01-01");
  });

  it("folds its legend away and back, so the legend never hides the field for good", async () => {
    const legend = w.page.locator("details.legend");
    expect(await legend.getAttribute("open")).not.toBeNull();
    await legend.locator("summary").click();
    expect(await legend.locator("li").first().isVisible()).toBe(false);
    await legend.locator("summary").click();
    expect(await legend.locator("li").first().isVisible()).toBe(true);
  });

  it("draws each tile's cells by status: solved in two tones of its solver's colour, revealed flat, hidden checkered", async () => {
    const sample = await w.page.evaluate(() => {
      const scene = window.mosaic!.scene!;
      const px = new Uint32Array(scene.image.data.buffer);
      const out: Record<string, number[]> = { solved: [], revealed: [], hidden: [] };
      for (const t of scene.tiles.values()) {
        const [lx, ly, rw] = t.rects[0];
        const c = (t.y0 + ly) * scene.G + t.x0 + lx;
        if (scene.cellTile[c] !== t.id) continue;
        out[t.status].push(px[c], px[c + 1 < (t.y0 + ly) * scene.G + t.x0 + lx + rw ? c + 1 : c]);
      }
      return out;
    });
    const distinct = (a: number[]) => new Set(a).size;
    expect(sample.solved.length).toBeGreaterThan(0);
    expect(sample.revealed.length).toBeGreaterThan(0);
    expect(sample.hidden.length).toBeGreaterThan(0);
    const solved = new Set(sample.solved);
    for (const p of [...sample.revealed, ...sample.hidden]) expect(solved.has(p)).toBe(false);
    expect(distinct(sample.hidden)).toBe(2); // the checker's two shades
    expect(distinct(sample.revealed)).toBe(1);
    // Every cell drawn as the tile the engine puts there, whatever its shape.
    expect(field.tiles.some((t) => t.rects.length > 1)).toBe(true);
    expect(await shapeMismatches(w.page, field)).toEqual({ cells: 0, tiles: 0 });
  });

  it("zooms around the cursor with the wheel, pans by dragging, and with keys and buttons", async () => {
    const { page } = w;
    const box = (await page.locator("canvas#field").boundingBox())!;
    // Whole pixels: mouse events carry integer coordinates.
    const sx = Math.round(box.x + box.width * 0.3);
    const sy = Math.round(box.y + box.height * 0.6);
    const before = await camera(page);
    const under = { x: before.x + (sx - box.x) / before.scale, y: before.y + (sy - box.y) / before.scale };
    await page.mouse.move(sx, sy);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(100);
    const zoomed = await camera(page);
    expect(zoomed.scale).toBeGreaterThan(before.scale * 1.5);
    // The field point under the cursor stays under it.
    expect(zoomed.x + (sx - box.x) / zoomed.scale).toBeCloseTo(under.x, 3);
    expect(zoomed.y + (sy - box.y) / zoomed.scale).toBeCloseTo(under.y, 3);

    await page.mouse.down();
    await page.mouse.move(sx + 100, sy + 40, { steps: 5 });
    await page.mouse.up();
    const dragged = await camera(page);
    expect((zoomed.x - dragged.x) * zoomed.scale).toBeCloseTo(100, 0);
    expect((zoomed.y - dragged.y) * zoomed.scale).toBeCloseTo(40, 0);

    await page.locator("canvas#field").focus();
    await page.keyboard.press("ArrowRight");
    expect((await camera(page)).x).toBeGreaterThan(dragged.x);
    await page.keyboard.press("0");
    const fitted = await camera(page);
    expect(fitted.scale).toBeLessThan(zoomed.scale);
    await page.getByRole("button", { name: "Zoom in" }).click();
    expect((await camera(page)).scale).toBeCloseTo(fitted.scale * 1.5, 5);
  });

  it("shows a tile's id, m, cells and solver, and the cell under the pointer, on hover", async () => {
    const { page } = w;
    await page.locator("canvas#field").focus();
    await page.keyboard.press("0");
    const tile = field.tiles.find((t) => t.id % 3 === 0 && t.w >= 6 && t.h >= 6)!;
    const [lx, ly, rw, rh] = tile.rects.reduce((a, b) => (a[2] * a[3] >= b[2] * b[3] ? a : b));
    const point = await page.evaluate(
      ([x, y]) => {
        const v = window.mosaic!.view!;
        const r = v.canvas.getBoundingClientRect();
        const p = v.camera.toScreen(x, y);
        return { x: r.left + p.x, y: r.top + p.y };
      },
      [tile.x0 + lx + rw / 2, tile.y0 + ly + rh / 2],
    );
    const shownId = await page.evaluate(([x, y]) => {
      const v = window.mosaic!.view!;
      const r = v.canvas.getBoundingClientRect();
      return v.tileAtScreen(x - r.left, y - r.top)?.id;
    }, [point.x, point.y]);
    expect(shownId).toBeDefined();
    await page.mouse.move(point.x, point.y);
    const tooltip = page.locator("#tooltip");
    await tooltip.waitFor({ state: "visible" });
    const text = await tooltip.innerText();
    expect(text).toContain(`#${shownId}`);
    const shown = field.tiles[shownId!];
    expect(text).toMatch(new RegExp(`cells\\s+${shown.cellIds.length}\\b`));
    expect(text).toMatch(new RegExp(`\\bm\\s+${shown.m}\\b`));
    if (shown.id % 3 === 0) {
      expect(text).toContain(`m-${String(shown.id % 5).repeat(16)}`);
      // A machine without a display name: its agent id once, not the machine id and then the agent id.
      const solverLine = await tooltip.evaluate((t) => [...t.querySelectorAll("dt")].find((dt) => dt.textContent === "solver")!.nextElementSibling!.textContent);
      expect(solverLine).toMatch(new RegExp(`^m-${String(shown.id % 5).repeat(16)}/[^ ]+$`));
    }
    // The cell under the pointer, in words: inside the tile, with its value when it is known.
    const cellLine = /cell\s+\((\d+), (\d+)\): (\S+)/.exec(text);
    expect(cellLine, text).not.toBeNull();
    const [cx, cy] = [Number(cellLine![1]), Number(cellLine![2])];
    expect(cx - tile.x0 >= lx && cx - tile.x0 < lx + rw && cy - tile.y0 >= ly && cy - tile.y0 < ly + rh).toBe(true);
    const known = field.tiles.some((t) => t.id % 3 === 0 && t.cellIds.includes(cy * field.G + cx));
    expect(cellLine![3]).toBe(known ? String(field.solution[cy * field.G + cx]) : "unknown");
    await screenshot(page, "field-hover-desktop");
  });
});
