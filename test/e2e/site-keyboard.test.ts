// The site from the keyboard alone, in headless Chromium against wrangler dev (SPEC §10, "Everyone
// can use it"): the panel tabs as WAI-ARIA tabs (Tab reaches the tablist, the arrow keys, Home and
// End move selection and focus), pan and zoom on the focused field canvas, the cell under the
// keyboard's focus read out as text, and the live log announced in batched summaries, never line
// by line. Assertions are on what a screen reader is given: focus, names, states, live-region text.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { browserPerFile, openPage, type WatchedPage } from "../support/browser";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";
import { makeArchive } from "./site-archive";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();

interface Focused {
  tag: string;
  id: string;
  role: string | null;
  name: string;
  selected: string | null;
}

/** The focused element as assistive technology gets it: its role, name and selection state. */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { tag: a?.tagName.toLowerCase() ?? "", id: a?.id ?? "", role: a?.getAttribute("role") ?? null, name: a?.getAttribute("aria-label") ?? a?.textContent?.trim() ?? "", selected: a?.getAttribute("aria-selected") ?? null };
  });

/** Presses Tab until `match` holds for the focused element (at most `limit` times). */
async function tabTo(page: Page, match: (f: Focused) => boolean, limit = 60): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (match(f)) return f;
  }
  throw new Error(`Tab never reached the element (${limit} presses)`);
}

/** The panel shown, by the tab that labels it. */
const shownPanel = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...document.querySelectorAll<HTMLElement>("[role=tabpanel]")].filter((p) => !p.hidden).map((p) => document.getElementById(p.getAttribute("aria-labelledby") ?? "")?.textContent ?? "?"));

const camera = (page: Page): Promise<{ scale: number; x: number; y: number }> =>
  page.evaluate(() => {
    const c = window.mosaic!.view!.camera;
    return { scale: c.scale, x: c.x, y: c.y };
  });

const readout = (page: Page): Promise<string> => page.locator("#field-readout").innerText();

/**
 * The visible controls that Tab never reaches in one full round from the page's start: every
 * control must be reachable from the keyboard (inactive tabs excepted: the arrow keys reach them).
 */
async function unreachable(page: Page): Promise<{ controls: number; missed: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const all = [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [tabindex]")].filter(
      (n) => n.tabIndex >= 0 && !(n as HTMLButtonElement).disabled && n.checkVisibility({ visibilityProperty: true }) && n.getClientRects().length > 0,
    );
    all.forEach((n, i) => n.setAttribute("data-reach", String(i)));
    (window as unknown as { reached: Set<string> }).reached = new Set();
    document.addEventListener("focusin", (e) => (window as unknown as { reached: Set<string> }).reached.add((e.target as HTMLElement).getAttribute("data-reach") ?? ""));
  });
  const count = await page.locator("[data-reach]").count();
  for (let i = 0; i < count + 5; i++) await page.keyboard.press("Tab");
  const missed = await page.evaluate(() => {
    const reached = (window as unknown as { reached: Set<string> }).reached;
    return [...document.querySelectorAll<HTMLElement>("[data-reach]")].filter((n) => !reached.has(n.getAttribute("data-reach")!)).map((n) => `${n.tagName.toLowerCase()}#${n.id} ${n.getAttribute("aria-label") ?? n.textContent?.trim().slice(0, 40) ?? ""}`);
  });
  await page.evaluate(() => document.querySelectorAll("[data-reach]").forEach((n) => n.removeAttribute("data-reach")));
  return { controls: count, missed };
}

interface ArchiveDoc {
  G: number;
  tiles: Array<{ id: number; x0: number; y0: number; w: number; h: number; rects: Array<[number, number, number, number]>; m: number; cells: number; status: string; agent: string | null; solution: string }>;
}

/** The cell ids of a tile, row-major over its box (the order of its `solution` string). */
function cellsOf(t: ArchiveDoc["tiles"][number], G: number): number[] {
  const mask = new Uint8Array(t.w * t.h);
  for (const [lx, ly, rw, rh] of t.rects) for (let y = ly; y < ly + rh; y++) mask.fill(1, y * t.w + lx, y * t.w + lx + rw);
  const out: number[] = [];
  for (let y = 0; y < t.h; y++) for (let x = 0; x < t.w; x++) if (mask[y * t.w + x]) out.push((t.y0 + y) * G + t.x0 + x);
  return out;
}

describe("a replay from the keyboard", () => {
  let w: WatchedPage;
  let archive: Awaited<ReturnType<typeof makeArchive>>;
  beforeAll(async () => {
    archive = await makeArchive("2026-11-28");
    w = await openPage(browser(), baseUrl, "/favicon.svg");
    await w.page.route(`**/api/archives/${archive.day}`, (r) => r.fulfill({ status: 200, contentType: "application/json", body: archive.text }));
    await w.page.goto(`${baseUrl}/replay/${archive.day}`);
    await w.page.waitForFunction(() => (window.mosaic?.replay as { verified?: boolean | null } | undefined)?.verified === true, undefined, { timeout: 60_000 });
    // At the end of the day, where every solved tile shows its values.
    await w.page.evaluate((rev) => (window.mosaic!.seek as (r: number) => void)(rev), archive.events);
  });
  afterAll(async () => {
    await w?.context.close();
  });

  it("moves between the panel tabs with the arrow keys, Home and End, selecting as focus moves", async () => {
    const { page } = w;
    const names = await page.getByRole("tab").allInnerTexts();
    expect(names).toEqual(["Log", "Leaderboard", "Analysis", "Fields & days", "Audit"]);
    // Tab reaches the tablist once, on its selected tab (the others are out of the Tab order).
    const first = await tabTo(page, (f) => f.role === "tab");
    expect(first).toMatchObject({ name: "Log", selected: "true" });
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatchObject({ role: "tab", name: "Leaderboard", selected: "true" });
    expect(await shownPanel(page)).toEqual(["Leaderboard"]);
    expect(await page.getByRole("tab", { name: "Log" }).getAttribute("aria-selected")).toBe("false");
    await page.keyboard.press("End");
    expect(await focused(page)).toMatchObject({ role: "tab", name: "Audit", selected: "true" });
    expect(await shownPanel(page)).toEqual(["Audit"]);
    // Past the last tab, the first; before the first, the last.
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatchObject({ name: "Log", selected: "true" });
    await page.keyboard.press("ArrowLeft");
    expect(await focused(page)).toMatchObject({ name: "Audit", selected: "true" });
    await page.keyboard.press("Home");
    expect(await focused(page)).toMatchObject({ name: "Log", selected: "true" });
    expect(await shownPanel(page)).toEqual(["Log"]);
    // Only the selected tab is in the Tab order: the next Tab leaves the tablist.
    await page.keyboard.press("Tab");
    expect((await focused(page)).role).not.toBe("tab");
  });

  it("reaches every control of the page with Tab, in the log and in the leaderboard", async () => {
    const { page } = w;
    await page.getByRole("tab", { name: "Log" }).click();
    const log = await unreachable(page);
    expect(log.missed).toEqual([]);
    expect(log.controls).toBeGreaterThan(15);
    await page.getByRole("tab", { name: "Leaderboard" }).click();
    const board = await unreachable(page);
    expect(board.missed).toEqual([]);
    // The leaderboard's sort buttons are among them.
    expect(board.controls).toBeGreaterThan(log.controls);
    await page.getByRole("tab", { name: "Log" }).click();
  });

  it("pans and zooms the field from the keyboard once Tab reaches its canvas", async () => {
    const { page } = w;
    await page.locator("body").focus();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const canvas = await tabTo(page, (f) => f.id === "field");
    expect(canvas.role).toBe("application");
    expect(canvas.name).toMatch(/Arrow keys pan.*Shift and the arrow keys move the focus cell.*plus and minus zoom.*0 fits/);
    await page.keyboard.press("0");
    const fitted = await camera(page);
    await page.keyboard.press("+");
    const zoomed = await camera(page);
    expect(zoomed.scale).toBeCloseTo(fitted.scale * 1.5, 5);
    await page.keyboard.press("ArrowRight");
    const right = await camera(page);
    expect((right.x - zoomed.x) * zoomed.scale).toBeCloseTo(60, 5);
    await page.keyboard.press("ArrowDown");
    expect(((await camera(page)).y - zoomed.y) * zoomed.scale).toBeCloseTo(60, 5);
    await page.keyboard.press("-");
    expect((await camera(page)).scale).toBeCloseTo(fitted.scale, 5);
    await page.keyboard.press("0");
    expect(await camera(page)).toEqual(fitted);
  });

  it("reads out the cell under the keyboard's focus and its tile, and opens the tile's details with Enter", async () => {
    const { page } = w;
    const doc = JSON.parse(archive.text) as ArchiveDoc;
    const G = doc.G;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, (f) => f.id === "field");
    await page.keyboard.press("0");
    // Taking focus from the keyboard, the canvas names the cell in the middle of the view.
    await expect.poll(() => readout(page)).toMatch(/^Cell \(\d+, \d+\)/);
    const start = /^Cell \((\d+), (\d+)\)/.exec(await readout(page))!.slice(1).map(Number);
    expect(await page.locator("#field-readout").getAttribute("role")).toBe("status");
    // Walk the focus cell with Shift+arrows to a cell of a solved tile that no other tile covers.
    const covering = new Map<number, number>();
    for (const t of doc.tiles) for (const c of cellsOf(t, G)) covering.set(c, (covering.get(c) ?? 0) + 1);
    const tile = doc.tiles.filter((t) => t.status === "solved" && t.agent && cellsOf(t, G).some((c) => covering.get(c) === 1)).sort((a, b) => b.cells - a.cells)[0];
    const cells = cellsOf(tile, G);
    const index = cells.findIndex((c) => covering.get(c) === 1 && c % G > 0);
    const target = { x: cells[index] % G, y: Math.floor(cells[index] / G) };
    for (let x = start[0]; x !== target.x; x += Math.sign(target.x - x)) await page.keyboard.press(target.x > x ? "Shift+ArrowRight" : "Shift+ArrowLeft");
    for (let y = start[1]; y !== target.y; y += Math.sign(target.y - y)) await page.keyboard.press(target.y > y ? "Shift+ArrowDown" : "Shift+ArrowUp");
    // The value is the archive's: the tile's solution, over its cells in row-major order.
    const value = tile.solution[index];
    const machine = tile.agent!.slice(0, tile.agent!.indexOf("/"));
    expect(await readout(page)).toBe(`Cell (${target.x}, ${target.y}): ${value}. Tile ${tile.id}, solved by bot ${machine.slice(2, 5)}, m ${tile.m}, ${tile.cells} cells.`);
    // One more step reads the next cell; a cell outside every tile says so.
    await page.keyboard.press("Shift+ArrowLeft");
    expect(await readout(page)).toMatch(new RegExp(`^Cell \\(${target.x - 1}, ${target.y}\\): `));
    await page.keyboard.press("Shift+ArrowRight");
    // Enter opens the details of the focused cell's tile; Escape closes them.
    await page.keyboard.press("Enter");
    const card = page.locator("#tooltip");
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.innerText()).toContain(`#${tile.id}`);
    await page.keyboard.press("Escape");
    await expect.poll(() => card.isVisible()).toBe(false);
    // The focus cell never leaves the field: at its corner, further steps stay there.
    for (let i = 0; i <= target.x; i++) await page.keyboard.press("Shift+ArrowLeft");
    for (let i = 0; i <= target.y; i++) await page.keyboard.press("Shift+ArrowUp");
    expect(await readout(page)).toMatch(/^Cell \(0, 0\)/);
    expect(w.errors).toEqual([]);
  });
});

describe("the live log", () => {
  let team: McpTeam;
  let w: WatchedPage;
  beforeAll(async () => {
    const host = await newPlayer(baseUrl);
    const started = await startPlaying(host.client, { kind: "scatter", G: 60 });
    team = new McpTeam(baseUrl, started.gameId, started.field);
    await team.add(host);
    w = await openPage(browser(), baseUrl, `/?game=${started.gameId}`);
    await w.page.waitForFunction((r) => (window.mosaic?.revision as (() => number) | undefined)?.() === r, team.revision, { timeout: 30_000 });
  });
  afterAll(async () => {
    await w?.context.close();
    await team?.close();
  });

  it("is a plain list, and new lines are announced politely in summaries, at most one per 15 s", async () => {
    const { page } = w;
    const list = page.locator(".log-list");
    // The list itself is no live region: it keeps its list semantics and speaks nothing.
    expect(await list.evaluate((n) => [n.tagName, n.getAttribute("role"), n.getAttribute("aria-live")])).toEqual(["OL", null, null]);
    const region = page.getByRole("log", { name: "New log lines, summed up" });
    expect(await region.getAttribute("aria-live")).toBe("polite");
    expect(await page.getByRole("checkbox", { name: "announce" }).isChecked()).toBe(true);
    // Every summary the region is given, with when it came.
    await page.evaluate(() => {
      const node = document.querySelector("[role=log][aria-label='New log lines, summed up']")!;
      const spoken: Array<{ at: number; text: string }> = [];
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) spoken.push({ at: performance.now(), text: n.textContent ?? "" });
      }).observe(node, { childList: true });
      (window as unknown as { spoken: typeof spoken }).spoken = spoken;
    });
    const from = team.revision + 1;
    const spoken = (): Promise<Array<{ at: number; text: string }>> => page.evaluate(() => (window as unknown as { spoken: Array<{ at: number; text: string }> }).spoken);
    const covered = async (rev: number): Promise<void> => {
      await expect.poll(async () => (await spoken()).at(-1)?.text ?? "", { timeout: 45_000, interval: 500 }).toMatch(new RegExp(`(revisions \\d+ to ${rev}|revision ${rev}):`));
    };
    // Two machines play: many lines, in many live batches; then, right after the first summary, a third.
    await team.add();
    await team.pass();
    await team.pass();
    await covered(team.revision);
    await team.add();
    await team.pass();
    const to = team.revision;
    await covered(to);
    const said = await spoken();
    const lines = await page.evaluate((r) => [...document.querySelectorAll(".log-list li")].filter((li) => Number(li.getAttribute("data-rev")) >= r).length, from);
    expect(lines).toBe(to - from + 1);
    // Fewer announcements than lines, each a sentence of counts over a run of revisions, in order and without gaps.
    expect(said.length).toBeGreaterThanOrEqual(2);
    expect(said.length).toBeLessThan(lines);
    let next = from;
    for (const s of said) {
      const m = /^(\d+) new log lines?, revisions? (\d+)(?: to (\d+))?: (.*)\.$/.exec(s.text);
      expect(m, s.text).not.toBeNull();
      const [first, last] = [Number(m![2]), Number(m![3] ?? m![2])];
      expect(first).toBe(next);
      expect(Number(m![1])).toBe(last - first + 1);
      expect(m![4]).toMatch(/tiles? revealed|cells? accepted|joins?/);
      next = last + 1;
    }
    expect(next).toBe(to + 1);
    // Never two within 15 s of each other.
    for (let i = 1; i < said.length; i++) expect(said[i].at - said[i - 1].at).toBeGreaterThanOrEqual(14_900);
  });
});
