// A real archived day replayed in headless Chromium: the day is opened and closed through the dev
// routes of `wrangler dev` (MOSAIC_DEV=1), played in between by machines with real tokens over
// /mcp; the page replays it from the public archive alone, verifies it, and ends on its final state.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, openPage, screenshot } from "./harness/browser";
import { callToolStructured } from "./harness/mcp-clients";
import { newPlayer } from "./play-helpers";

const baseUrl = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** A date of its own on the shared server: somewhere in 2060..2069. */
function freshDate(): string {
  return new Date(Date.UTC(2060, 0, 1) + Math.floor(Math.random() * 3600) * 86_400_000).toISOString().slice(0, 10);
}

describe("a real archived day", () => {
  it("replays from its public archive, verified, to the archive's final state", async () => {
    const date = freshDate();
    const opened = await post("/api/dev/day/open", { date, params: { G: 200, chunks: 2, chunk_g: 40 } });
    const gameId = String(opened.game_id);
    for (let i = 0; ; i++) {
      const manifest = (await (await fetch(`${baseUrl}/api/games/${gameId}`)).json()) as { status?: string };
      if (manifest.status === "playing") break;
      if (i > 600) throw new Error("the day's field did not finish generating");
      await new Promise((r) => setTimeout(r, 200));
    }
    // Two machines join and reveal their seed tiles, one intent carrying markup.
    for (const intent of ["opening <b>move</b>", "reveal the seed"]) {
      const p = await newPlayer(baseUrl);
      const joined = await callToolStructured<{ agent: string; seed_tile: number; revision: number }>(p.client, "join", { game_id: gameId, session: "1", model: "scripted", name: `replay ${intent.length}` });
      await callToolStructured(p.client, "reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile: joined.seed_tile, intent });
      await p.client.close();
    }
    await post("/api/dev/day/close", { date });
    const archive = (await (await fetch(`${baseUrl}/api/archives/${gameId}`)).json()) as { events: unknown[]; tiles: Array<{ status: string; agent: string | null }> };

    const w = await openPage(browser, baseUrl, `/replay/${gameId}`);
    try {
      await w.page.waitForFunction(() => {
        const r = window.mosaic?.replay as { verified?: boolean | null } | undefined;
        return r?.verified === true || r?.verified === false;
      }, undefined, { timeout: 90_000 });
      const state = () => w.page.evaluate(() => (window.mosaic!.replayState as () => { rev: number; status: string; solvers: Array<string | null>; verified: boolean })());
      expect((await state()).verified).toBe(true);
      await w.page.getByRole("slider", { name: "Revision" }).focus();
      await w.page.keyboard.press("End");
      const end = await state();
      expect(end.rev).toBe(archive.events.length);
      expect(end.status).toBe(archive.tiles.map((t) => t.status[0]).join(""));
      expect(end.solvers).toEqual(archive.tiles.map((t) => t.agent));
      expect(await w.page.locator(".log-list .intent").allTextContents()).toContain("opening <b>move</b>");
      // The day is listed among the archives, linking to its replay.
      await w.page.getByRole("tab", { name: /Fields/ }).click();
      await expect.poll(() => w.page.locator(`a[href="/replay/${gameId}"], a[href="/replay/${date}"]`).count()).toBe(1);
      expect(w.errors).toEqual([]);
      await screenshot(w.page, "replay-real-day");
    } finally {
      await w.context.close();
    }
  });
});
