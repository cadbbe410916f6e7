// The live spectator in headless Chromium against wrangler dev: scripted agents play a field
// through /mcp with real tokens while the page watches. The page's model (the shared reducer)
// must equal the API's snapshot after live batches and after a dropped socket.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { browserPerFile, openPage, PHONE, screenshot, type WatchedPage } from "../support/browser";
import { callToolStructured } from "../support/mcp-clients";
import { shapeMismatches } from "../support/scene-shapes";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();

async function apiSnapshot(gameId: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/api/games/${gameId}/snapshot`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function waitForRevision(page: Page, rev: number): Promise<void> {
  await page.waitForFunction((r) => (window.mosaic?.revision as (() => number) | undefined)?.() === r, rev, { timeout: 30_000 });
}

/** The page's model, serialised as the server serialises its own. */
async function pageSnapshot(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => JSON.parse(JSON.stringify((window.mosaic!.snapshot as () => unknown)())) as Record<string, unknown>);
}

describe("the live field", () => {
  let team: McpTeam;
  let gameId: string;
  let w: WatchedPage;
  let field: Awaited<ReturnType<typeof startPlaying>>["field"];

  beforeAll(async () => {
    const host = await newPlayer(baseUrl);
    const started = await startPlaying(host.client, { kind: "scatter", G: 60 });
    gameId = started.gameId;
    field = started.field;
    team = new McpTeam(baseUrl, gameId, started.field);
    await team.add(host);
    w = await openPage(browser(), baseUrl, `/?game=${gameId}`);
    await waitForRevision(w.page, team.revision);
  });
  afterAll(async () => {
    await w?.context.close();
    await team?.close();
  });

  it("loads with no console errors and no request leaving the origin", async () => {
    expect(w.errors).toEqual([]);
    expect(w.foreignRequests).toEqual([]);
    await expect.poll(() => w.page.locator("#status").innerText()).toMatch(/rev \d+/);
  });

  it("shows each new revision in the status line but announces only the connection state", async () => {
    const { page } = w;
    const region = page.locator("#status [role=status], #status[role=status]");
    await expect.poll(() => region.innerText(), { timeout: 10_000 }).toMatch(/^Live\b/);
    // Every mutation of the live region is something a screen reader may speak.
    await page.evaluate(() => {
      const region = document.querySelector("#status [role=status], #status[role=status]")!;
      const spoken: string[] = [];
      new MutationObserver(() => spoken.push(region.textContent ?? "")).observe(region, { childList: true, subtree: true, characterData: true });
      (window as unknown as { spoken: string[] }).spoken = spoken;
    });
    expect(await region.innerText()).toBe("Live");
    await team.pass();
    await waitForRevision(page, team.revision);
    await expect.poll(() => page.locator("#status").innerText(), { timeout: 10_000 }).toContain(`rev ${team.revision} `);
    expect(await page.evaluate(() => (window as unknown as { spoken: string[] }).spoken)).toEqual([]);
    expect(await region.innerText()).toBe("Live");
  });

  it("follows the agents' play without a reload, and its state equals the API's", async () => {
    const navigations: string[] = [];
    w.page.on("framenavigated", (f) => navigations.push(f.url()));
    await team.pass();
    await team.pass();
    await waitForRevision(w.page, team.revision);
    expect(navigations).toEqual([]);
    expect(await pageSnapshot(w.page)).toEqual(await apiSnapshot(gameId));
    // The canvas shows the solved tiles in their solver's colour.
    const solvedDrawn = await w.page.evaluate(() => [...window.mosaic!.scene!.tiles.values()].filter((t) => t.status === "solved").length);
    expect(solvedDrawn).toBeGreaterThan(0);
    // Every cell drawn where the engine puts it: tiles revealed and solved live kept their shapes.
    expect(await shapeMismatches(w.page, field)).toEqual({ cells: 0, tiles: 0 });
    // The dashed frontier is every group's frontier as the referee tells each agent (SPEC §4.2).
    const frontiers = new Set<number>();
    for (const seat of team.seats) for (const t of (await team.observe(seat)).frontier) frontiers.add(t);
    expect(frontiers.size).toBeGreaterThan(0);
    const byId = (a: number, b: number) => a - b;
    await expect.poll(() => w.page.evaluate(() => [...window.mosaic!.view!.frontier])).toEqual(expect.arrayContaining([...frontiers]));
    expect((await w.page.evaluate(() => [...window.mosaic!.view!.frontier])).sort(byId)).toEqual([...frontiers].sort(byId));
    // The log holds every revision once, in order, the page's opening backfill and live lines alike.
    await expect.poll(() => w.page.evaluate(() => Number(document.querySelector(".log-list li:last-child")?.getAttribute("data-rev")))).toBe(team.revision);
    const revs = await w.page.evaluate(() => [...document.querySelectorAll(".log-list li")].map((li) => Number(li.getAttribute("data-rev"))));
    expect(revs).toEqual(Array.from({ length: revs.length }, (_, i) => revs[0] + i));
  });

  it("reconnects after its socket drops and catches up with nothing missing", async () => {
    const { page } = w;
    await page.evaluate(() => (window.mosaic!.dropSocket as () => void)());
    await team.pass();
    await team.pass();
    await waitForRevision(page, team.revision);
    expect(await page.evaluate(() => (window.mosaic!.connected as () => boolean)())).toBe(true);
    expect(await pageSnapshot(page)).toEqual(await apiSnapshot(gameId));
    expect(w.errors).toEqual([]);
  });

  it("paints a freshly opened field from the snapshot exactly as the reducer's model has it", async () => {
    await team.pass();
    const fresh = await openPage(browser(), baseUrl, `/?game=${gameId}`);
    try {
      await waitForRevision(fresh.page, team.revision);
      const diff = await fresh.page.evaluate(() => (window.mosaic!.sceneDiff as () => unknown)());
      expect(diff).toEqual({ pixels: 0, cells: 0, tiles: 0 });
      // Both sides of that comparison are scenes of the page's own making: the engine decides.
      expect(await shapeMismatches(fresh.page, field)).toEqual({ cells: 0, tiles: 0 });
      const drawn = await fresh.page.evaluate(() => window.mosaic!.scene!.tiles.size);
      expect(drawn).toBe(field.tiles.length);
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it("shows an intent as text and runs none of it", async () => {
    const { page } = w;
    const seat = team.seats[0];
    const o = await team.observe(seat);
    const status = new Map(o.tiles.map((t) => [t.id, t.status]));
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    const tileId = o.frontier[0];
    expect(tileId).toBeDefined();
    if (status.get(tileId) !== "revealed") {
      const r = await callToolStructured<{ revision: number }>(seat.player.client, "reveal", { game_id: gameId, agent: seat.agent, expected_revision: team.revision, tile: tileId, intent: hostile });
      team.revision = r.revision;
    } else {
      const tile = field.tiles[tileId];
      const cell = tile.cellIds.find((c) => !tile.givens.includes(c))!;
      const r = await callToolStructured<{ revision: number }>(seat.player.client, "commit", { game_id: gameId, agent: seat.agent, expected_revision: team.revision, cells: [[cell, field.solution[cell]]], intent: hostile });
      team.revision = r.revision;
    }
    await waitForRevision(page, team.revision);
    // New lines join the log a few times a second, not with every message.
    await expect.poll(() => page.locator(".log-list .intent").allTextContents()).toContain(hostile);
    expect(await page.locator(".log-list img, .log-list script").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(w.dialogs).toEqual([]);
  });

  it("brings the log back to its newest line when its tab is opened again", async () => {
    const { page } = w;
    await page.getByRole("tab", { name: "Leaderboard" }).click();
    await team.pass();
    await team.pass();
    await waitForRevision(page, team.revision);
    await page.getByRole("tab", { name: "Log" }).click();
    const list = page.locator(".log-list");
    expect(await list.evaluate((l) => l.scrollHeight > l.clientHeight + 40)).toBe(true);
    expect(await list.evaluate((l) => l.scrollHeight - l.scrollTop - l.clientHeight)).toBeLessThan(40);
    // A reader who scrolled up is left where they are.
    await list.evaluate((l) => (l.scrollTop = 0));
    await team.pass();
    await waitForRevision(page, team.revision);
    expect(await list.evaluate((l) => l.scrollTop)).toBe(0);
  });

  it("shows the leaderboard the API serves, one row per machine, sortable", async () => {
    const { page } = w;
    // While another tab is open, play goes on and the hidden table is left alone.
    await page.getByRole("tab", { name: "Log" }).click();
    await page.evaluate(() => {
      const table = document.querySelector("table.leaderboard")!;
      const seen = { mutations: 0 };
      (window as unknown as { boardSeen: typeof seen }).boardSeen = seen;
      new MutationObserver((records) => (seen.mutations += records.length)).observe(table, { subtree: true, childList: true, characterData: true });
    });
    await team.pass();
    await waitForRevision(page, team.revision);
    await page.waitForTimeout(600);
    expect(await page.evaluate(() => (window as unknown as { boardSeen: { mutations: number } }).boardSeen.mutations)).toBe(0);
    await page.getByRole("tab", { name: "Leaderboard" }).click();
    const res = await fetch(`${baseUrl}/api/games/${gameId}/leaderboard`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rows?: Array<{ machine: string; reward: number; tiles: number }> } | Array<{ machine: string; reward: number; tiles: number }>;
    const rows = Array.isArray(body) ? body : body.rows!;
    await waitForRevision(page, team.revision);
    await expect.poll(() => page.locator("table.leaderboard tbody tr").count()).toBe(rows.length);
    // The panels redraw at most every few hundred ms: each row settles on what the API serves.
    for (const row of rows) {
      const tr = page.locator(`table.leaderboard tbody tr[data-row="${row.machine}"]`);
      await expect.poll(async () => (await tr.locator("td").allTextContents()).slice(3, 5).map((c) => c.replace(/,/g, ""))).toEqual([String(row.reward), String(row.tiles)]);
    }
    // Sorting by a column reverses on the second click.
    const header = page.locator("table.leaderboard th[data-key=reward]");
    await header.locator("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("ascending");
    // On a desktop the side panel widens for the table, and narrows again for the log.
    const width = page.viewportSize()!.width;
    expect((await page.locator("#side").boundingBox())!.width).toBeGreaterThanOrEqual(Math.min(0.6 * width, 1300) - 2);
    await expect.poll(async () => Math.round((await page.locator("table.leaderboard").boundingBox())!.width)).toBeGreaterThan(440);
    await screenshot(page, "live-leaderboard-desktop");
    await page.getByRole("tab", { name: "Log" }).click();
    expect(Math.round((await page.locator("#side").boundingBox())!.width)).toBe(440);
    await page.getByRole("tab", { name: "Leaderboard" }).click();
  });

  it("shows the analysis grouped by model, harness and tag, as the API serves it", async () => {
    const { page } = w;
    const res = await fetch(`${baseUrl}/api/games/${gameId}/analysis`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { by_model: Array<{ key: string }>; by_harness: unknown[]; by_tag: unknown[] };
    await page.getByRole("tab", { name: "Analysis" }).click();
    await page.evaluate(() => (window.mosaic!.live as { refreshAnalysis(): Promise<void> }).refreshAnalysis());
    await expect.poll(() => page.locator(".analysis h3").allTextContents()).toEqual(["By model", "By harness", "By tag", "By account"]);
    // It says which revision its figures describe, and the field's optimum once computed.
    await expect.poll(() => page.locator("#panel-analysis .note").innerText()).toMatch(/^At revision [\d,]+\. .*(optimum play is being computed|Optimum play of the field's [\d,]+ tiles: [\d.]+ % of [\d,]+ cells forced)/);
    const modelRows = page.locator(".analysis table").first().locator("tbody tr");
    expect(await modelRows.count()).toBe(body.by_model.length);
    expect(await modelRows.first().locator("td").first().innerText()).toBe(body.by_model[0].key);
    // Headers wrap and intervals sit under their values: the table is a little wider than the
    // widened panel, not twice as wide (1.5× and 2.1× when this was written).
    const widths = await page.locator(".analysis .table-wrap").first().evaluate((n) => ({ table: n.scrollWidth, panel: n.clientWidth }));
    expect(widths.table).toBeLessThanOrEqual(1.75 * widths.panel);
    await screenshot(page, "live-analysis-desktop");
  });

  it("fits the field beside the open legend and the zoom buttons on a desktop, not under them", async () => {
    const { page } = w;
    await page.getByRole("button", { name: "Fit the field" }).click();
    const field = await page.evaluate(() => {
      const v = window.mosaic!.view!;
      const r = v.canvas.getBoundingClientRect();
      const a = v.camera.toScreen(0, 0);
      const b = v.camera.toScreen(window.mosaic!.scene!.G, window.mosaic!.scene!.G);
      return { x: r.left + a.x, y: r.top + a.y, w: b.x - a.x, h: b.y - a.y };
    });
    expect(await page.locator("details.legend").getAttribute("open")).not.toBeNull();
    for (const control of ["details.legend", ".zoom"]) {
      const r = (await page.locator(control).boundingBox())!;
      const overlaps = field.x < r.x + r.width && field.x + field.w > r.x && field.y < r.y + r.height && field.y + field.h > r.y;
      expect(overlaps, control).toBe(false);
    }
  });

  it("puts new log lines in a few times a second, however fast the batches come", async () => {
    // A page of its own, fed batches faster than the server sends them (retractions of nothing
    // by a seated agent: valid events that change no state), so the shared page stays in step.
    const fresh = await openPage(browser(), baseUrl, `/?game=${gameId}`);
    try {
      const { page } = fresh;
      await waitForRevision(page, team.revision);
      await page.waitForTimeout(500);
      const result = await page.evaluate(async ({ agent, batches }) => {
        const live = window.mosaic!.live as { onMessage(m: unknown): void; model: { revision: number } };
        const list = document.querySelector(".log-list")!;
        let updates = 0;
        new MutationObserver(() => updates++).observe(list, { childList: true });
        const from = live.model.revision;
        // What the header and the log show, read together: the status line's revision, the log
        // head's, and the newest log line's.
        const shown = () => ({
          status: Number(/rev ([\d,]+)/.exec(document.getElementById("status-detail")!.textContent ?? "")?.[1].replace(/,/g, "")),
          head: Number(/@(\d+)/.exec(document.getElementById("head-text")!.textContent ?? "")?.[1]),
          log: Number(list.lastElementChild?.getAttribute("data-rev")),
        });
        const apart: Array<ReturnType<typeof shown>> = [];
        for (let i = 1; i <= batches; i++) {
          const rev = from + i;
          live.onMessage({ type: "events", events: [{ type: "retract", rev, at: Date.now(), agent, intent: `batch ${i}`, retracted: [], ignored: [] }], log_head: { hash: "ab".repeat(32), rev } });
          await new Promise((r) => setTimeout(r, 50));
          const now = shown();
          if (now.status !== now.log || now.head !== now.log) apart.push(now);
        }
        await new Promise((r) => setTimeout(r, 400));
        const lines = [...list.querySelectorAll(".intent")].map((n) => n.textContent);
        return { updates, lines: lines.slice(-batches), apart, end: shown(), last: from + batches };
      }, { agent: team.seats[0].agent, batches: 20 });
      // 20 batches over a second: every line is there, put in with a handful of updates, not 20
      // (each one lays out, pre-paints and paints the list again).
      expect(result.lines).toEqual(Array.from({ length: 20 }, (_, i) => `batch ${i + 1}`));
      expect(result.updates).toBeLessThanOrEqual(6);
      // The header moves with the log: at every moment its revision and its log head (what "Copy
      // head" hands an auditor) are the newest line's.
      expect(result.apart).toEqual([]);
      expect(result.end).toEqual({ status: result.last, head: result.last, log: result.last });
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it("redraws a pulsing mark ten times a second, whatever else drew meanwhile", async () => {
    const { page } = w;
    // The frames drawn for other reasons (here a pan's worth of them) must not each start
    // another chain of redraws.
    const drawsPerSecond = await page.evaluate(async () => {
      const view = window.mosaic!.view! as unknown as { markers: Array<{ rev: number }>; timing: { drawCount: number }; invalidate(): void };
      view.markers.push({ kind: "meet", x: 1, y: 1, label: "a test mark", rev: -1, since: performance.now() } as { rev: number });
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      for (let i = 0; i < 40; i++) {
        view.invalidate();
        await frame();
      }
      await new Promise((r) => setTimeout(r, 200));
      const before = view.timing.drawCount;
      await new Promise((r) => setTimeout(r, 1000));
      const drawn = view.timing.drawCount - before;
      view.markers = view.markers.filter((m) => m.rev !== -1);
      return drawn;
    });
    expect(drawsPerSecond).toBeGreaterThanOrEqual(5);
    expect(drawsPerSecond).toBeLessThanOrEqual(13);
  });

  it("keeps a mark's label inside the canvas when the mark is at its right edge", async () => {
    const { page } = w;
    const drawn = await page.evaluate(async () => {
      const view = window.mosaic!.view! as unknown as { markers: Array<{ rev: number }>; invalidate(): void; camera: { x: number; y: number; scale: number; width: number; height: number } };
      const { camera } = view;
      const label = "m-0123456789abcdef met m-fedcba9876543210";
      const texts: Array<{ x: number; width: number }> = [];
      const original = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number) {
        if (text === label) texts.push({ x, width: this.measureText(text).width });
        original.call(this, text, x, y);
      };
      try {
        // 6 px from the canvas's right edge, halfway down.
        view.markers.push({ kind: "meet", x: camera.x + (camera.width - 6) / camera.scale, y: camera.y + camera.height / 2 / camera.scale, label, rev: -2, since: performance.now() } as { rev: number });
        view.invalidate();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      } finally {
        CanvasRenderingContext2D.prototype.fillText = original;
        view.markers = view.markers.filter((m) => m.rev !== -2);
        view.invalidate();
      }
      return { texts, width: camera.width };
    });
    expect(drawn.texts.length).toBeGreaterThan(0);
    for (const t of drawn.texts) {
      expect(t.x).toBeGreaterThanOrEqual(0);
      expect(t.x + t.width).toBeLessThanOrEqual(drawn.width);
    }
  });

  it("keeps the open list of fields up to date: a field started meanwhile appears without reopening the tab", async () => {
    const { page } = w;
    await page.getByRole("tab", { name: /Fields/ }).click();
    await expect.poll(() => page.locator(`#panel-fields a[href="/?game=${gameId}"]`).count()).toBe(1);
    const host = await newPlayer(baseUrl);
    try {
      const started = await startPlaying(host.client, { kind: "scatter", G: 24 });
      await expect.poll(() => page.locator(`#panel-fields a[href="/?game=${started.gameId}"]`).count(), { timeout: 15_000 }).toBe(1);
    } finally {
      await host.client.close();
      await page.getByRole("tab", { name: "Log" }).click();
    }
  });

  it("lays out on a phone", async () => {
    const phone = await openPage(browser(), baseUrl, `/?game=${gameId}`, { viewport: PHONE, isMobile: true, hasTouch: true });
    await waitForRevision(phone.page, team.revision);
    await phone.page.waitForTimeout(300);
    const canvas = await phone.page.locator("canvas#field").boundingBox();
    expect(canvas!.width).toBeGreaterThanOrEqual(PHONE.width - 2);
    for (const b of await phone.page.locator(".zoom button").all()) {
      const box = await b.boundingBox();
      expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(24);
    }
    // The legend is there on a phone too, folded so that it does not cover the small field.
    const legend = phone.page.locator("details.legend");
    expect(await legend.isVisible()).toBe(true);
    expect(await legend.getAttribute("open")).toBeNull();
    await legend.locator("summary").click();
    expect(await legend.locator("li").first().isVisible()).toBe(true);
    await legend.locator("summary").click();
    // A tile's card, opened by a tap, closes when the reader moves on to a tab.
    // The tap must land on the canvas itself, over a tile: on a phone the zoom buttons, the legend
    // and the tabs cover parts of the field, so the point is chosen where nothing else is on top.
    const point = await phone.page.evaluate(() => {
      const v = window.mosaic!.view!;
      const r = v.canvas.getBoundingClientRect();
      const tiles = [...window.mosaic!.scene!.tiles.values()].sort((a, b) => Number(b.status === "solved") - Number(a.status === "solved"));
      for (const tile of tiles) {
        for (const [lx, ly, rw, rh] of tile.rects) {
          const p = v.camera.toScreen(tile.x0 + lx + rw / 2, tile.y0 + ly + rh / 2);
          const x = r.left + p.x;
          const y = r.top + p.y;
          if (document.elementFromPoint(x, y) === v.canvas && v.tileAtScreen(p.x, p.y) === tile) return { x, y };
        }
      }
      return null;
    });
    expect(point).not.toBeNull();
    await phone.page.touchscreen.tap(point!.x, point!.y);
    await phone.page.locator("#tooltip").waitFor({ state: "visible" });
    await phone.page.getByRole("tab", { name: "Leaderboard" }).click();
    expect(await phone.page.locator("#tooltip").isVisible()).toBe(false);
    // The leaderboard is wider than a phone: scrolled to its last column, the machine's name
    // stays in view at the left edge.
    const wrap = phone.page.locator("#panel-leaderboard .table-wrap");
    expect(await wrap.evaluate((n) => n.scrollWidth > n.clientWidth)).toBe(true);
    await wrap.evaluate((n) => (n.scrollLeft = n.scrollWidth));
    const wrapBox = (await wrap.boundingBox())!;
    const firstRow = phone.page.locator("table.leaderboard tbody tr").first();
    const name = (await firstRow.locator("td.pin").boundingBox())!;
    expect(name.x).toBeGreaterThanOrEqual(wrapBox.x - 1);
    expect(name.x + name.width).toBeLessThanOrEqual(wrapBox.x + wrapBox.width);
    const lastCell = (await firstRow.locator("td").last().boundingBox())!;
    expect(lastCell.x + lastCell.width).toBeLessThanOrEqual(wrapBox.x + wrapBox.width + 1);
    // Nothing of the scrolled columns shows through the pinned name.
    expect(await firstRow.locator("td.pin").evaluate((n) => getComputedStyle(n).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    await screenshot(phone.page, "live-phone");
    await screenshot(w.page, "live-desktop");
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});

describe("fog", () => {
  it("draws only what the agents have reached", async () => {
    const host = await newPlayer(baseUrl);
    const started = await startPlaying(host.client, { kind: "scatter", G: 60, rules: { fog: true } });
    const team = new McpTeam(baseUrl, started.gameId, started.field);
    const w = await openPage(browser(), baseUrl, `/?game=${started.gameId}`);
    try {
      // Before anyone joins, nothing is reached: the page says why the field is blank.
      const hint = w.page.locator("#field-hint");
      await hint.waitFor({ state: "visible", timeout: 30_000 });
      expect(await hint.innerText()).toMatch(/Nothing reached yet/);
      await team.add(host);
      await waitForRevision(w.page, team.revision);
      expect(await hint.isVisible()).toBe(false);
      const drawn = await w.page.evaluate(() => [...window.mosaic!.scene!.tiles.keys()].sort((a, b) => a - b));
      const api = await apiSnapshot(started.gameId);
      expect(api.fog).toBe(true);
      expect(drawn.length).toBeGreaterThan(0);
      expect(drawn.length).toBeLessThan(started.field.tiles.length);
      // Exactly the reached tiles: the seed (not yet revealed) is all a single agent has reached.
      const seed = (await pageSnapshot(w.page)).agents as Array<{ seed: number }>;
      expect(drawn).toEqual([seed[0].seed]);
      // Unreached cells are left empty on the canvas.
      const far = await w.page.evaluate(() => {
        const s = window.mosaic!.scene!;
        const px = new Uint32Array(s.image.data.buffer);
        let painted = 0;
        for (let c = 0; c < px.length; c++) if (px[c] !== 0 && s.cellTile[c] < 0) painted++;
        return painted;
      });
      expect(far).toBe(0);
      await team.pass();
      await waitForRevision(w.page, team.revision);
      expect(await pageSnapshot(w.page)).toEqual(await apiSnapshot(started.gameId));
      expect(w.errors).toEqual([]);
    } finally {
      await w.context.close();
      await team.close();
    }
  });
});
