// Replays in headless Chromium: the page downloads a day archive, audits it (all five checks, in Web Workers),
// scrubs to the end through the shared reducer and lands on the archive's final state; any
// tampering is flagged. The archive is made by the project's own archive writer (site-archive.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { browserPerFile, openPage, PHONE, screenshot, type WatchedPage } from "../support/browser";
import { HOSTILE_INTENT, makeArchive } from "./site-archive";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();
let archive: Awaited<ReturnType<typeof makeArchive>>;

interface ArchiveDoc {
  tiles: Array<{ id: number; status: string; agent: string | null; solution: string }>;
  events: Array<{ rev: number; intent?: string }>;
}

beforeAll(async () => {
  archive = await makeArchive();
});

/** Opens the replay of `day` with the archive route answering `text`. */
async function openReplay(text: string, viewport?: { width: number; height: number }, day = archive.day): Promise<WatchedPage> {
  const w = await openPage(browser(), baseUrl, "/favicon.svg", viewport ? { viewport } : {});
  await w.page.route(`**/api/archives/${day}`, (r) => r.fulfill({ status: 200, contentType: "application/json", body: text }));
  await w.page.goto(`${baseUrl}/replay/${day}`);
  await w.page.waitForFunction(() => {
    const r = window.mosaic?.replay as { verified?: boolean | null } | undefined;
    return r !== undefined && r.verified !== null && r.verified !== undefined;
  }, undefined, { timeout: 60_000 });
  return w;
}

interface ReplayState {
  rev: number;
  last: number;
  status: string;
  solvers: Array<string | null>;
  verified: boolean | null;
}

const replayState = (page: Page): Promise<ReplayState> => page.evaluate(() => (window.mosaic!.replayState as () => ReplayState)());

describe("a replay", () => {
  let w: WatchedPage;
  beforeAll(async () => {
    w = await openReplay(archive.text);
  });
  afterAll(async () => {
    await w?.context.close();
  });

  it("verifies the archive in the browser and says so", async () => {
    expect((await replayState(w.page)).verified).toBe(true);
    await expect.poll(() => w.page.locator(".verify").innerText()).toMatch(/^✓ Verified in this browser: all five checks passed/);
    // The Audit tab says what each of the five steps verified.
    await w.page.getByRole("tab", { name: "Audit" }).click();
    expect(await w.page.locator(".audit-step .audit-status").allInnerTexts()).toEqual(Array(5).fill(expect.stringMatching(/^✓ passed/)));
    const texts = (await w.page.locator(".audit-step .audit-text").allInnerTexts()).join("\n");
    expect(texts).toMatch(/\d+ tiles identical to the field regenerated from day_seed .*; (in one thread|\d Web Workers?)/);
    expect(texts).toMatch(/\d+ events chained from seed_commit/);
    expect(texts).toMatch(/\d+ events reproduced by the referee/);
    expect(w.foreignRequests).toEqual([]);
  });

  it("scrubs to the end and matches the archive's final state", async () => {
    const { page } = w;
    const doc = JSON.parse(archive.text) as ArchiveDoc;
    const range = page.getByRole("slider", { name: "Revision" });
    await range.focus();
    await page.keyboard.press("End");
    const end = await replayState(page);
    expect(end.rev).toBe(archive.events);
    expect(end.status).toBe(doc.tiles.map((t) => t.status[0]).join(""));
    expect(end.solvers).toEqual(doc.tiles.map((t) => t.agent));
    // Every cell of a solved tile shows its value, as the archive's solution has it.
    const shown = await page.evaluate(() => {
      const s = window.mosaic!.scene! as unknown as { cellValue: Int8Array; G: number };
      return { values: Array.from(s.cellValue), G: s.G };
    });
    for (const t of doc.tiles.filter((t) => t.status === "solved").slice(0, 10)) {
      const geometry = JSON.parse(archive.text).tiles[t.id] as { x0: number; y0: number; w: number; h: number; rects: number[][] };
      const mask = new Uint8Array(geometry.w * geometry.h);
      for (const [lx, ly, rw, rh] of geometry.rects) for (let y = ly; y < ly + rh; y++) mask.fill(1, y * geometry.w + lx, y * geometry.w + lx + rw);
      let k = 0;
      for (let y = 0; y < geometry.h; y++) for (let x = 0; x < geometry.w; x++) {
        if (!mask[y * geometry.w + x]) continue;
        expect(shown.values[(geometry.y0 + y) * shown.G + geometry.x0 + x]).toBe(Number(t.solution[k++]));
      }
    }
    // The leaderboard at the end has one row per machine that joined.
    await page.getByRole("tab", { name: "Leaderboard" }).click();
    expect(await page.locator("table.leaderboard tbody tr").count()).toBe(3);
    await screenshot(page, "replay-desktop");
  });

  it("scrubs back and plays forward again to the same state", async () => {
    const { page } = w;
    await page.evaluate(() => (window.mosaic!.seek as (r: number) => void)(5));
    expect((await replayState(page)).rev).toBe(5);
    await page.getByRole("button", { name: "Forward one event" }).click();
    expect((await replayState(page)).rev).toBe(6);
    await page.getByRole("combobox", { name: /Speed/ }).selectOption("2000");
    await page.getByRole("button", { name: "Play" }).click();
    await page.waitForFunction((last) => (window.mosaic!.replayState as () => { rev: number })().rev === last, archive.events);
    const doc = JSON.parse(archive.text) as ArchiveDoc;
    expect((await replayState(page)).status).toBe(doc.tiles.map((t) => t.status[0]).join(""));
  });

  it("shows intents as text", async () => {
    const { page } = w;
    await page.evaluate(() => (window.mosaic!.seek as (r: number) => void)(12));
    await page.getByRole("tab", { name: "Log" }).click();
    const intents = await page.locator(".log-list .intent").allTextContents();
    expect(intents.some((t) => t.includes(HOSTILE_INTENT))).toBe(true);
    expect(await page.locator(".log-list img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it("keeps the slider and the speed menu still while the revision label changes", async () => {
    const { page } = w;
    const places = async () => ({
      slider: await page.getByRole("slider", { name: "Revision" }).boundingBox(),
      speed: await page.getByRole("combobox", { name: /Speed/ }).boundingBox(),
    });
    await page.evaluate(() => (window.mosaic!.seek as (r: number) => void)(0));
    const atStart = await places();
    for (const rev of [7, 99, archive.events]) {
      await page.evaluate((r) => (window.mosaic!.seek as (r: number) => void)(r), rev);
      expect(await places(), `at revision ${rev}`).toEqual(atStart);
    }
  });

  it("prints the log's small print at AA contrast and says what the leaderboard's figures mean without hover", async () => {
    const { page } = w;
    await page.getByRole("tab", { name: "Log" }).click();
    // Contrast of the revision numbers against the panel behind them (WCAG 2 relative luminance).
    const ratio = await page.locator(".log-list .ev .rev").first().evaluate((node) => {
      const rgb = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = ([r, g, b]: number[]) => {
        const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      let back: Element | null = node;
      while (back && getComputedStyle(back).backgroundColor.match(/rgba\(.*, 0\)|transparent/)) back = back.parentElement;
      const fg = lum(rgb(getComputedStyle(node).color));
      const bg = lum(rgb(getComputedStyle(back ?? document.body).backgroundColor));
      return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    });
    expect(ratio).toBeGreaterThanOrEqual(4.5);

    await page.getByRole("tab", { name: "Leaderboard" }).click();
    const health = await page.locator("table.leaderboard tbody tr").first().locator("[class^=health-]").innerText();
    expect(health).toMatch(/^\w+ · \d+\.\d % wrong$/);
    expect(await page.locator("#panel-leaderboard .table-legend").innerText()).toMatch(/Guesses: accepted cells propagation did not force/);
  });

  it("fits a phone", async () => {
    const phone = await openReplay(archive.text, PHONE);
    const bar = await phone.page.locator("#replay-bar").boundingBox();
    const canvas = await phone.page.locator("canvas#field").boundingBox();
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(canvas!.y + 1);
    expect(canvas!.height).toBeGreaterThan(150);
    await screenshot(phone.page, "replay-phone");
    await phone.context.close();
  });
});

describe("a fogged replay", () => {
  let w: WatchedPage;
  beforeAll(async () => {
    const fogged = await makeArchive("2026-11-29", { fog: true });
    w = await openReplay(fogged.text, undefined, fogged.day);
  });
  afterAll(async () => {
    await w?.context.close();
  });

  interface CameraState {
    x: number;
    y: number;
    scale: number;
    following: boolean;
  }
  const camera = (page: Page): Promise<CameraState> =>
    page.evaluate(() => {
      const c = window.mosaic!.view!.camera as unknown as { x: number; y: number; scale: number; following: boolean };
      return { x: c.x, y: c.y, scale: c.scale, following: c.following };
    });

  it("says why the field is blank at revision 0, then follows the reached area as it plays, until the viewer zooms", async () => {
    const { page } = w;
    const hint = page.locator("#field-hint");
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.innerText()).toMatch(/Nothing reached yet/);
    const blank = await camera(page);

    // The first join reaches its seed tile: the camera frames it, closer than the whole canvas.
    await page.getByRole("button", { name: "Forward one event" }).click();
    expect(await hint.isVisible()).toBe(false);
    const first = await camera(page);
    expect(first.scale).toBeGreaterThan(blank.scale * 1.5);
    expect(first.following).toBe(true);

    // Played on, the reach widens and the camera keeps it framed.
    const last = (await replayState(page)).last;
    for (let rev = 2; rev <= last / 2; rev++) await page.evaluate((r) => (window.mosaic!.seek as (r: number) => void)(r), rev);
    const played = await camera(page);
    expect(played.following).toBe(true);
    expect(played).not.toEqual(first);

    // Once the viewer zooms, playing on leaves the camera where they put it.
    await page.getByRole("button", { name: "Zoom in" }).click();
    const zoomed = await camera(page);
    expect(zoomed.following).toBe(false);
    await page.evaluate((r) => (window.mosaic!.seek as (r: number) => void)(r), last);
    expect(await camera(page)).toEqual(zoomed);

    // ⤢ frames what a spectator can see, the reached area (not the blank canvas), and follows again.
    await page.evaluate(() => (window.mosaic!.seek as (r: number) => void)(1));
    expect((await camera(page)).following).toBe(false);
    await page.getByRole("button", { name: "Fit the field" }).click();
    const refitted = await camera(page);
    expect(refitted.following).toBe(true);
    expect(refitted.scale).toBeGreaterThan(blank.scale * 1.5);
    // With the whole geometry shown, the whole field is what there is to see.
    await page.getByRole("checkbox", { name: "whole geometry" }).check();
    await page.getByRole("button", { name: "Fit the field" }).click();
    expect((await camera(page)).scale).toBeCloseTo(blank.scale, 5);
    expect(w.errors).toEqual([]);
  });
});

describe("a tampered archive", () => {
  const cases: Array<[string, (doc: Record<string, unknown> & ArchiveDoc) => void, RegExp]> = [
    ["an edited intent", (doc) => (doc.events[7].intent = "edited after the fact"), /event 8 \(\w+\): hash differs/],
    // The regeneration (check 2) names it before the tile hashes (check 3) do.
    ["a flipped solution bit", (doc) => (doc.tiles[3].solution = doc.tiles[3].solution.replace(/^./, (c) => (c === "0" ? "1" : "0"))), /tile 3: solution differs from the regenerated field/],
    ["a wrong released key", (doc) => (doc.day_key = "00".repeat(32)), /day_key does not match hash_key_commit/],
    ["a dropped event", (doc) => doc.events.splice(4, 1), /event 5: its rev is 6/],
  ];
  for (const [name, tamper, message] of cases) {
    it(`is flagged: ${name}`, async () => {
      const doc = JSON.parse(archive.text) as Record<string, unknown> & ArchiveDoc;
      tamper(doc);
      const w = await openReplay(JSON.stringify(doc)).catch(async (err: Error) => {
        throw err;
      });
      try {
        expect((await replayState(w.page)).verified).toBe(false);
        const verdict = await w.page.locator(".verify").innerText();
        expect(verdict).toMatch(/Tampered or corrupt archive/);
        expect(verdict).toMatch(message);
        expect(await w.page.locator("#status").innerText()).toMatch(/DOES NOT VERIFY/);
        if (name === "an edited intent") await screenshot(w.page, "replay-tampered");
      } finally {
        await w.context.close();
      }
    });
  }
});
