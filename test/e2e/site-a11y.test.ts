// Every page of the site under axe-core's WCAG 2.0–2.2 A and AA rules (SPEC §10, "Everyone can use
// it"), in headless Chromium against wrangler dev, at a desktop and a phone viewport: the live field
// while scripted agents play it, the home page, History, a replay of an archived day, the identity
// page, an account page and the consent page of a pending sign-in. Each page is checked as it opens
// and in the states a visitor reaches cheaply (every panel tab, a tile's details, the legend folded
// or open), and the MCP Apps view `ui://mosaic/field` in a test host after a played round, in the
// host's light and dark themes. A serious or critical violation fails the test; every violation's
// count is printed.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { HistoryTables } from "../../src/history/tables";
import { blocking, countByImpact, describeViolations, runAxe } from "../support/axe";
import { createAccount } from "../support/accounts";
import { browserPerFile, openPage, PHONE } from "../support/browser";
import { syntheticYear } from "../support/history-year";
import { mintToken, newMachine } from "../support/identity";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";
import { makeArchive } from "./site-archive";
import { startAppsHost, type AppsHost } from "../support/apps-host/serve";
import { playForView, type ViewRound } from "./view-round";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();

const VIEWPORTS = [
  { name: "desktop", options: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", options: { viewport: PHONE, isMobile: true, hasTouch: true } },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

/** What each check found, printed after the file: the figures docs/accessibility.md quotes. */
const figures: string[] = [];
afterAll(() => {
  console.log(`axe-core WCAG 2.2 A/AA, violating nodes by impact:\n${figures.join("\n")}`);
});

/** Runs axe on the page as it is now; returns the blocking violations' description ("" when none). */
async function check(page: Page | Frame, label: string): Promise<string> {
  const all = await runAxe(page);
  const counts = countByImpact(all);
  figures.push(`${label.padEnd(44)} ${Object.keys(counts).length ? JSON.stringify(counts) : "none"}${all.length ? `  [${all.map((v) => `${v.id}×${v.nodes.length}`).join(", ")}]` : ""}`);
  const bad = blocking(all);
  return bad.length ? `${label}:\n${describeViolations(bad)}` : "";
}

/** Checks the page, then each state `states` leads to in turn; fails listing every blocking violation found. */
async function checkAll(page: Page | Frame, label: string, states: Array<[string, () => Promise<void>]> = []): Promise<void> {
  const found = [await check(page, label)];
  for (const [name, reach] of states) {
    await reach();
    found.push(await check(page, `${label} · ${name}`));
  }
  const failures = found.filter(Boolean);
  expect(failures, failures.join("\n\n")).toEqual([]);
}

/** The panel tabs one after another (the first is open already), each panel given time to fill. */
function tabStates(page: Page, names: string[]): Array<[string, () => Promise<void>]> {
  return names.map((name) => [
    `${name} tab`,
    async () => {
      const tab = page.getByRole("tab", { name });
      await tab.click();
      await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true");
      // A panel that loads shows "Loading…" until its data is in.
      await expect.poll(() => page.locator("[role=tabpanel]:not([hidden])").innerText(), { timeout: 15_000 }).not.toMatch(/^\s*Loading/);
    },
  ]);
}

/** Clicks (or taps) the middle of the tile nearest the canvas's centre, which pins its details. */
function tileDetails(page: Page, vp: Viewport): [string, () => Promise<void>] {
  return [
    "tile details",
    async () => {
      const point = await page.evaluate(() => {
        const v = window.mosaic!.view!;
        const r = v.canvas.getBoundingClientRect();
        for (let d = 0; d < Math.min(r.width, r.height) / 2; d += 4)
          for (const [dx, dy] of [[d, 0], [-d, 0], [0, d], [0, -d]]) {
            const x = r.width / 2 + dx;
            const y = r.height / 2 + dy;
            if (v.tileAtScreen(x, y)) return { x: Math.round(r.left + x), y: Math.round(r.top + y) };
          }
        return null;
      });
      expect(point, "a tile on the canvas").not.toBeNull();
      if (vp.name === "phone") await page.touchscreen.tap(point!.x, point!.y);
      else await page.mouse.click(point!.x, point!.y);
      await expect.poll(() => page.locator("#tooltip").isVisible()).toBe(true);
    },
  ];
}

/** The legend folded if it was open and the other way round (a phone starts with it folded). */
function toggleLegend(page: Page): [string, () => Promise<void>] {
  return ["legend toggled", () => page.locator("details.legend summary").click()];
}

describe("the live field and the home page", () => {
  let team: McpTeam;
  let gameId: string;

  beforeAll(async () => {
    const host = await newPlayer(baseUrl);
    const started = await startPlaying(host.client, { kind: "scatter", G: 60 });
    gameId = started.gameId;
    team = new McpTeam(baseUrl, gameId, started.field);
    await team.add(host);
    await team.pass();
  });
  afterAll(async () => {
    await team?.close();
  });

  for (const vp of VIEWPORTS) {
    it(`the live field, played while it is open, has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, `/?game=${gameId}`, vp.options);
      try {
        const { page } = w;
        await page.waitForFunction((r) => (window.mosaic?.revision as (() => number) | undefined)?.() === r, team.revision, { timeout: 30_000 });
        // Lines arrive while the page is open: the log has its backfill and live lines.
        const before = team.revision;
        await team.add();
        await team.pass();
        expect(team.revision).toBeGreaterThan(before);
        await expect.poll(() => page.evaluate(() => Number(document.querySelector(".log-list li:last-child")?.getAttribute("data-rev"))), { timeout: 15_000 }).toBe(team.revision);
        await checkAll(page, `live field, ${vp.name}`, [...tabStates(page, ["Leaderboard", "Analysis", "Fields & days", "Log"]), tileDetails(page, vp), toggleLegend(page)]);
        expect(w.errors).toEqual([]);
      } finally {
        await w.context.close();
      }
    });

    it(`the home page has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, "/", vp.options);
      try {
        // Whichever field the server shows first (today's or the newest), once it is loaded and its panels filled.
        await expect.poll(() => w.page.locator("#status-state").innerText(), { timeout: 30_000 }).toMatch(/^(Live|Solved|Closed|No field)/);
        await checkAll(w.page, `home, ${vp.name}`);
      } finally {
        await w.context.close();
      }
    });
  }
});

describe("History", () => {
  // A month of synthetic days, answered by the history routes' own code at their usual URLs.
  const tables = new HistoryTables(syntheticYear(30, 12));
  for (const vp of VIEWPORTS) {
    it(`has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, "/favicon.svg", vp.options);
      try {
        const { page } = w;
        await page.route("**/api/history**", async (route) => {
          const url = new URL(route.request().url());
          const a = await tables.answerUrl(`${url.pathname}${url.search}`);
          await route.fulfill({ status: a.status, contentType: a.contentType === "csv" ? "text/csv" : "application/json", body: a.body });
        });
        await page.goto(`${baseUrl}/history?model=model-a`);
        await page.waitForFunction(() => document.body.dataset.ready === "1" && document.querySelector("svg.plot") !== null, undefined, { timeout: 30_000 });
        await checkAll(page, `history, ${vp.name}`);
      } finally {
        await w.context.close();
      }
    });
  }
});

describe("a replay of an archived day", () => {
  let archive: Awaited<ReturnType<typeof makeArchive>>;
  beforeAll(async () => {
    archive = await makeArchive("2026-11-29");
  });

  for (const vp of VIEWPORTS) {
    it(`has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, "/favicon.svg", vp.options);
      try {
        const { page } = w;
        await page.route(`**/api/archives/${archive.day}`, (r) => r.fulfill({ status: 200, contentType: "application/json", body: archive.text }));
        await page.goto(`${baseUrl}/replay/${archive.day}`);
        await page.waitForFunction(() => (window.mosaic?.replay as { verified?: boolean | null } | undefined)?.verified === true, undefined, { timeout: 60_000 });
        await checkAll(page, `replay, ${vp.name}`, [...tabStates(page, ["Leaderboard", "Analysis", "Fields & days", "Audit", "Log"]), tileDetails(page, vp), toggleLegend(page)]);
        // The server never held this day: its analysis (the Analysis tab) answers 404, which the tab says.
        expect(w.errors.filter((e) => !e.includes("404 (Not Found)"))).toEqual([]);
      } finally {
        await w.context.close();
      }
    });
  }
});

describe("the identity, account and consent pages", () => {
  let account: { id: string; name: string };
  beforeAll(async () => {
    const machine = newMachine();
    await mintToken(baseUrl, machine);
    account = await createAccount(baseUrl, machine, "Accessible machines");
  });

  /** A pending sign-in of a client registered here (RFC 7591), as a host's browser opens it. */
  async function authorizeUrl(): Promise<string> {
    const callback = "http://127.0.0.1:9/callback";
    const res = await fetch(`${baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Accessibility check", redirect_uris: [callback], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
    });
    const { client_id } = (await res.json()) as { client_id: string };
    expect(res.status).toBe(201);
    const q = new URLSearchParams({ response_type: "code", client_id, redirect_uri: callback, code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", resource: `${baseUrl}/mcp/signed-in`, state: "a11y" });
    return `/oauth/authorize?${q.toString()}`;
  }

  for (const vp of VIEWPORTS) {
    it(`the identity page has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, "/identity", vp.options);
      try {
        await checkAll(w.page, `identity, ${vp.name}`);
      } finally {
        await w.context.close();
      }
    });

    it(`an account page has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, `/account/${account.id}`, vp.options);
      try {
        expect(await w.page.locator("#account-name").innerText()).toBe("Accessible machines");
        await checkAll(w.page, `account, ${vp.name}`);
      } finally {
        await w.context.close();
      }
    });

    it(`the consent page of a pending sign-in has no serious violation (${vp.name})`, async () => {
      const w = await openPage(browser(), baseUrl, await authorizeUrl(), vp.options);
      try {
        const { page } = w;
        expect(await page.locator("h1").innerText()).toBe("Sign in to Mosaic");
        // Its script has looked for a browser key and enabled the approve button.
        await expect.poll(() => page.locator("#approve-browser").isEnabled(), { timeout: 15_000 }).toBe(true);
        await checkAll(page, `consent, ${vp.name}`);
        expect(w.errors).toEqual([]);
      } finally {
        await w.context.close();
      }
    });
  }
});

describe("the MCP Apps view in a host", () => {
  let host: AppsHost;
  let round: ViewRound;
  beforeAll(async () => {
    host = await startAppsHost();
    round = await playForView(baseUrl);
  });
  afterAll(async () => {
    await host?.close();
  });

  for (const vp of VIEWPORTS)
    for (const theme of ["light", "dark"] as const) {
      it(`after join, reveal, a commit with a rejected cell and observe, has no serious violation (${vp.name}, ${theme})`, async () => {
        const context = await browser().newContext(vp.options);
        try {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on("pageerror", (e) => errors.push(e.message));
          // The view's own refresh gets the round's observe answer, as a host forwarding it would.
          await page.exposeFunction("hostCallTool", async () => round.results.at(-1)!.result);
          await page.goto(host.url);
          await page.waitForSelector("body[data-ready]", { state: "attached" });
          await page.evaluate(([html, t]) => window.host.load(html, { connectDomains: [], resourceDomains: [] }, t), [round.html, theme] as const);
          const frame = page.frames().find((f) => f !== page.mainFrame())!;
          for (const { args, result } of round.results) await page.evaluate(([a, r]) => window.host.send(a, r), [args, result] as const);
          await frame.waitForFunction((n) => (window as unknown as { mosaicView: { results: number } }).mosaicView.results >= n, round.results.length);
          await expect.poll(() => frame.textContent("[data-list=rejected]"), { timeout: 30_000 }).toContain(round.rejectedAt);
          await expect.poll(() => frame.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          await expect.poll(() => frame.textContent("#note"), { timeout: 30_000 }).toMatch(/^Refreshed/);
          await checkAll(frame, `MCP Apps view, ${vp.name}, ${theme}`);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
});
