// A real archived day replayed in headless Chromium: the day is opened and closed through the dev
// routes of `wrangler dev` (MOSAIC_DEV=1), played in between by reference agents (their own solver,
// real tokens, over /mcp) and one scripted machine whose intent carries markup; the page replays
// it from the public archive alone, audits it (all five checks of SPEC §9), and ends on the archive's final state.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { playAgent, type AgentSummary } from "../../agent";
import { decodeGaps, unpackCells, type LeaderboardRow, type SpectatorSnapshot } from "../../src/spectator";
import type { ArchiveTile } from "../../src/daily/archive/format";
import { browserPerFile, openPage, screenshot } from "../support/browser";
import { callToolStructured } from "../support/mcp-clients";
import { setDisplayName } from "../support/identity";
import { newPlayer } from "./play-helpers";

const baseUrl = inject("baseUrl");
const home = mkdtempSync(join(tmpdir(), "mosaic-day-replay-"));
const browser = browserPerFile();

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** A date of its own on the shared server: somewhere in 2060..2069. */
function freshDate(): string {
  return new Date(Date.UTC(2060, 0, 1) + Math.floor(Math.random() * 3600) * 86_400_000).toISOString().slice(0, 10);
}


interface ReplayState {
  rev: number;
  last: number;
  status: string;
  solvers: Array<string | null>;
  known: number;
  verified: boolean | null;
}

/** The global cell ids of a tile, row-major over its box (the order of its `solution` string). */
function cellsOf(t: ArchiveTile, G: number): number[] {
  const mask = new Uint8Array(t.w * t.h);
  for (const [lx, ly, rw, rh] of t.rects) for (let y = ly; y < ly + rh; y++) mask.fill(1, y * t.w + lx, y * t.w + lx + rw);
  const out: number[] = [];
  for (let y = 0; y < t.h; y++) for (let x = 0; x < t.w; x++) if (mask[y * t.w + x]) out.push((t.y0 + y) * G + t.x0 + x);
  return out;
}

describe("a real archived day", () => {
  it("replays from its public archive, verified, to the archive's final state", { timeout: 600_000 }, async () => {
    const date = freshDate();
    // A small day that does not grow while it is played (a ring's generation would only slow the test).
    const opened = await post("/api/dev/day/open", { date, params: { G: 200, chunks: 2, chunk_g: 40, grow: { every_minutes: 1440 } } });
    const gameId = String(opened.game_id);
    for (let i = 0; ; i++) {
      const manifest = await getJson<{ status?: string }>(`/api/games/${gameId}`);
      if (manifest.status === "playing") break;
      if (i > 1500) throw new Error("the day's field did not finish generating");
      await new Promise((r) => setTimeout(r, 200));
    }
    // One scripted machine reveals its seed with markup in its intent; two reference agents play.
    const scripted = await newPlayer(baseUrl);
    const joined = await callToolStructured<{ agent: string; seed_tile: number; revision: number }>(scripted.client, "join", { game_id: gameId, session: "1", model: "scripted", name: "markup" });
    await callToolStructured(scripted.client, "reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile: joined.seed_tile, intent: "opening <b>move</b>" });
    await scripted.client.close();
    // Its key holder names the machine after the join: the live page and the replay both show that name (SPEC §8).
    await setDisplayName(baseUrl, scripted.machine, "Markup Display");
    // Each agent stops after a number of actions, so the day closes part-played: hidden, revealed
    // and solved tiles, known and unknown cells.
    const summaries: AgentSummary[] = await Promise.all(
      [1, 2].map((i) => {
        const stop = new AbortController();
        let actions = 0;
        const log = (): void => {
          if (++actions >= 40) stop.abort();
        };
        return playAgent({ url: baseUrl, game: gameId, identityFile: join(home, `agent-${i}.json`), model: "reference", maxSessions: 1, idleSeconds: 5, maxSeconds: 60, log, signal: stop.signal });
      }),
    );
    for (const s of summaries) expect(["aborted", "solved", "time", "no_frontier", "stuck"], JSON.stringify(s)).toContain(s.reason);
    expect(summaries.reduce((n, s) => n + s.accepted, 0)).toBeGreaterThan(0);

    await post("/api/dev/day/close", { date });
    const archive = await getJson<{ G: number; events: Array<{ rev: number; type: string }>; tiles: ArchiveTile[]; names: Array<{ machine: string; name: string }> }>(`/api/archives/${gameId}`);
    expect(archive.names).toEqual([{ machine: scripted.machine.machineId, name: "Markup Display" }]);
    expect(archive.events[archive.events.length - 1].type).toBe("close");
    expect(archive.events.filter((e) => e.type === "commit").length).toBeGreaterThan(0);
    const solved = archive.tiles.filter((t) => t.status === "solved");
    expect(solved.length).toBeGreaterThan(0);
    // What the server shows at the close: its spectator snapshot and leaderboard.
    const snapshot = await getJson<SpectatorSnapshot>(`/api/games/${gameId}/snapshot`);
    expect(snapshot.revision).toBe(archive.events.length);
    const serverKnown = unpackCells(snapshot.known, snapshot.G * snapshot.G).reduce((n, v) => n + (v >= 0 ? 1 : 0), 0);
    console.log(`${gameId}: ${archive.events.length} events, ${solved.length} of ${archive.tiles.length} tiles solved, ${serverKnown} cells known; agents: ${summaries.map((s) => `${s.reason} (${s.tiles} tiles, ${s.accepted} cells)`).join(", ")}`);
    const board = await getJson<{ rows: LeaderboardRow[] }>(`/api/games/${gameId}/leaderboard`);
    expect(board.rows.length).toBe(3);
    expect(board.rows.find((r) => r.machine === scripted.machine.machineId)?.name).toBe("Markup Display");

    const w = await openPage(browser(), baseUrl, `/replay/${gameId}`);
    try {
      await w.page.waitForFunction(() => {
        const r = window.mosaic?.replay as { verified?: boolean | null } | undefined;
        return r?.verified === true || r?.verified === false;
      }, undefined, { timeout: 120_000 });
      const state = () => w.page.evaluate(() => (window.mosaic!.replayState as () => ReplayState)());
      expect((await state()).verified).toBe(true);
      // Verified means the complete audit of SPEC §9, all five steps, in this browser's Web Workers.
      const audit = await w.page.evaluate(() => {
        const s = (window.mosaic!.audit as { state: () => { phase: string; verdict?: string; steps: Array<{ check: string; status: string }> } }).state();
        return { phase: s.phase, verdict: s.verdict, steps: s.steps.map((x) => `${x.check} ${x.status}`) };
      });
      expect(audit).toEqual({
        phase: "passed",
        verdict: "PASS: 5 checks hold",
        steps: ["commitments passed", "regeneration passed", "hashes passed", "chain passed", "replay passed"],
      });
      expect(await w.page.locator(".verify").innerText()).toMatch(/^✓ Verified in this browser: all five checks passed/);
      await w.page.getByRole("slider", { name: "Revision" }).focus();
      await w.page.keyboard.press("End");
      const end = await state();
      expect(end.rev).toBe(archive.events.length);
      expect(end.status).toBe(archive.tiles.map((t) => t.status[0]).join(""));
      expect(end.solvers).toEqual(archive.tiles.map((t) => t.agent));
      expect(end.known).toBe(serverKnown);
      // The canvas: every cell of every solved tile shows the archive's solution; rejected cells
      // still unknown at the close are marked (without a value).
      const shown = await w.page.evaluate(() => {
        const s = window.mosaic!.scene! as unknown as { cellValue: Int8Array; cellFlags: Uint8Array; G: number };
        return { values: Array.from(s.cellValue), flags: Array.from(s.cellFlags), G: s.G };
      });
      expect(shown.G).toBe(archive.G);
      for (const t of solved) {
        const cells = cellsOf(t, archive.G);
        expect(cells.map((c) => shown.values[c]).join(""), `tile ${t.id}`).toBe(t.solution);
      }
      for (const c of [...decodeGaps(snapshot.rejected.wrong), ...decodeGaps(snapshot.rejected.guess)]) {
        expect(shown.values[c]).toBe(-1);
        expect(shown.flags[c] & 1).toBe(1);
      }
      // The leaderboard at the last revision is the server's.
      await w.page.getByRole("tab", { name: "Leaderboard" }).click();
      await expect.poll(() => w.page.locator("table.leaderboard tbody tr").count()).toBe(board.rows.length);
      for (const row of board.rows) {
        const cells = await w.page.locator(`table.leaderboard tbody tr[data-row="${row.machine}"] td`).allTextContents();
        expect(cells[1], row.machine).toContain(row.name);
        // The account column sits beside the machine's: no machine of this day is in one.
        expect(cells[2], row.machine).toBe("–");
        expect(cells[3].replace(/,/g, ""), row.machine).toBe(String(row.reward));
        expect(cells[4], row.machine).toBe(String(row.tiles));
      }
      // The day's analysis, the server's at the close, saying that it does not follow the slider.
      await w.page.getByRole("tab", { name: "Analysis" }).click();
      await expect.poll(() => w.page.locator("#panel-analysis .analysis h3").allTextContents()).toEqual(["By model", "By harness", "By tag", "By account"]);
      expect(await w.page.locator("#panel-analysis .note").innerText()).toMatch(/^At revision [\d,]+\. The day's analysis at its close, as the server computed it/);
      // At the start the log says how to fill it, and the position names no time.
      await w.page.evaluate(() => (window.mosaic!.seek as (r: number) => void)(0));
      await w.page.getByRole("tab", { name: "Log" }).click();
      expect(await w.page.locator(".log-list").evaluate((n) => getComputedStyle(n, "::before").content)).toContain("as the replay plays");
      expect(await w.page.locator(".replay-pos").innerText()).toBe(`rev 0 / ${archive.events.length.toLocaleString("en-US")} · start · 0 solved`);
      // Back to the scripted reveal: its intent is in the log, as text.
      const marked = archive.events.find((e) => (e as { intent?: string }).intent === "opening <b>move</b>");
      expect(marked).toBeDefined();
      await w.page.evaluate((rev) => (window.mosaic!.seek as (r: number) => void)(rev), marked!.rev);
      expect((await state()).rev).toBe(marked!.rev);
      await w.page.getByRole("tab", { name: "Log" }).click();
      expect(await w.page.locator(".log-list .intent").allTextContents()).toContain("opening <b>move</b>");
      expect(await w.page.locator(".log-list b").count()).toBe(0);
      // The day is listed among the archives, linking to its replay.
      await w.page.getByRole("tab", { name: /Fields/ }).click();
      await expect.poll(() => w.page.locator(`a[href="/replay/${gameId}"], a[href="/replay/${date}"]`).count()).toBe(1);
      expect(w.errors).toEqual([]);
      await screenshot(w.page, "replay-real-day");
    } finally {
      await w.context.close();
    }
    // The closed day's live page: no live dot (nothing is being played) and a link to its replay.
    const live = await openPage(browser(), baseUrl, `/?game=${gameId}`);
    try {
      const replayLink = live.page.locator(`#status a[href="/replay/${gameId}"]`);
      await expect.poll(() => replayLink.count()).toBe(1);
      expect(await replayLink.innerText()).toBe("Replay this day");
      expect(await live.page.locator("#status").innerText()).toMatch(/^Closed · rev /);
      expect(await live.page.locator("#status .live-dot").count()).toBe(0);
      expect(live.errors).toEqual([]);
    } finally {
      await live.context.close();
    }
    // The same page on narrow phones (360 px, and 320 px: the width WCAG's reflow criterion names):
    // the long closed-day status wraps instead of widening the page, so the replay link, the
    // head's copy button and the zoom buttons stay on the screen, and the folded legend covers none.
    for (const narrow of [{ width: 360, height: 780 }, { width: 320, height: 700 }]) {
      const phone = await openPage(browser(), baseUrl, `/?game=${gameId}`, { viewport: narrow, isMobile: true, hasTouch: true });
      try {
        const replayLink = phone.page.locator(`#status a[href="/replay/${gameId}"]`);
        await expect.poll(() => replayLink.count()).toBe(1);
        // The status line refreshes every few seconds; the link in it stays the same element.
        await replayLink.evaluate((a) => a.setAttribute("data-probe", "1"));
        await phone.page.waitForTimeout(2500);
        expect(await phone.page.locator(`#status a[data-probe="1"]`).count()).toBe(1);
        expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(narrow.width);
        const boxes: Array<{ x: number; y: number; width: number; height: number }> = [];
        for (const target of [replayLink, phone.page.locator("#copy-head"), phone.page.locator("details.legend summary"), ...(await phone.page.locator(".zoom button").all())]) {
          await target.waitFor({ state: "visible" });
          const box = await target.boundingBox();
          expect(box, await target.evaluate((e) => e.outerHTML.slice(0, 80))).not.toBeNull();
          expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(narrow.width);
          if (box) boxes.push(box);
        }
        const [legend, ...zoom] = boxes.slice(2);
        for (const b of zoom) expect(legend.x + legend.width <= b.x || b.x + b.width <= legend.x || legend.y + legend.height <= b.y || b.y + b.height <= legend.y, `legend over a zoom button at ${narrow.width} px`).toBe(true);
        await screenshot(phone.page, `closed-day-phone-${narrow.width}`);
        expect(phone.errors).toEqual([]);
      } finally {
        await phone.context.close();
      }
    }
  });
});
