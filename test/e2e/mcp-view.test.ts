// The MCP Apps view `ui://mosaic/field` (SPEC §6.2) in a real host implementation: a loopback page
// renders the resource with ext-apps' AppBridge in a sandboxed iframe, as the reference host does,
// while an agent joins, reveals and commits through the official SDK client. The results the agent
// gets are handed to the view; the view's own `observe` goes through the bridge to the server.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { browserPerFile, PHONE, screenshot } from "../support/browser";
import { mintToken, newMachine } from "../support/identity";
import { connectClient } from "../support/mcp-clients";
import { startAppsHost, type AppsHost } from "../support/apps-host/serve";
import type { ViewCsp } from "../support/apps-host/page";
import { startPlaying } from "./play-helpers";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();
const VIEW = "ui://mosaic/field";
const VIEW_TOOLS = ["join", "observe", "reveal", "commit"];
/** Conditions are awaited, never timed: a loaded machine only makes them slower. */
const WAIT = { timeout: 60_000, interval: 50 };
const UI_CAPABILITY = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

/** An SDK v2 client on the 2026-07-28 revision (or the 2025 handshake), sending the machine's token; `ui` advertises MCP Apps. */
async function rawClient(token: string, options: { ui?: boolean; legacy?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: "view-e2e", version: "1.0.0" }, {
    capabilities: options.ui ? (UI_CAPABILITY as Record<string, unknown>) : {},
    ...(options.legacy ? {} : { versionNegotiation: { mode: "auto" as const } }),
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** What a host hands the view: the result's content and structured data. */
function forView(result: unknown): CallToolResult {
  const r = result as CallToolResult;
  return { content: r.content, structuredContent: r.structuredContent, ...(r.isError ? { isError: true } : {}) };
}

interface ViewHooks {
  results: number;
  state: { G: number | null; revision: number | null; tiles: Map<number, { status: string }>; rejected: Set<number>; agent: string | null };
  view: { timing: { drawCount: number }; scene: { cellTile: Int32Array; G: number }; camera: { toScreen(x: number, y: number): { x: number; y: number } }; canvas: HTMLCanvasElement } | null;
}
declare global {
  interface Window {
    mosaicView?: ViewHooks;
  }
}

describe("the field view in an MCP Apps host", () => {
  let host: AppsHost;
  let page: Page;
  let frame: Frame;
  let client: Client;
  const errors: string[] = [];
  const frameRequests: string[] = [];
  const forwarded: Array<{ name: string; arguments?: Record<string, unknown> }> = [];

  beforeAll(async () => {
    host = await startAppsHost();
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await host?.close();
  });

  it("lists the view and links it from join, observe, reveal and commit on both protocol eras", async () => {
    const token = await mintToken(baseUrl, newMachine());
    for (const legacy of [false, true]) {
      const c = await rawClient(token, { legacy });
      try {
        const { resources } = await c.listResources();
        expect(resources.find((r) => r.uri === VIEW)).toMatchObject({ uri: VIEW, mimeType: RESOURCE_MIME_TYPE });
        const read = await c.readResource({ uri: VIEW });
        expect(read.contents).toHaveLength(1);
        const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: { ui?: { csp?: ViewCsp } } };
        expect(content).toMatchObject({ uri: VIEW, mimeType: RESOURCE_MIME_TYPE });
        // The CSP opens nothing: no domain to connect to or load from.
        expect(content._meta?.ui?.csp).toEqual({ connectDomains: [], resourceDomains: [] });
        expect(content.text).toMatch(/^<!doctype html>/i);
        // One self-contained document: no script, style or image from anywhere; the server's origin baked in for the spectator link.
        expect(content.text).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
        expect(content.text).toContain(`data-origin="${new URL(baseUrl).origin}"`);
        const { tools } = await c.listTools();
        for (const tool of tools) {
          const meta = tool._meta as { ui?: { resourceUri?: string } } | undefined;
          if (VIEW_TOOLS.includes(tool.name)) expect(meta?.ui?.resourceUri, tool.name).toBe(VIEW);
          else expect(meta?.ui, tool.name).toBeUndefined();
        }
        expect(JSON.stringify({ tools }).length).toBeLessThan(16_000);
      } finally {
        await c.close();
      }
    }
    // SDK 1.x (2025-era) sees the same listing.
    const v1 = new ClientV1({ name: "view-e2e-v1", version: "1.0.0" }, { capabilities: {} });
    await v1.connect(new TransportV1(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      expect((await v1.listResources()).resources.map((r) => r.uri)).toContain(VIEW);
      expect(((await v1.listTools()).tools.find((t) => t.name === "reveal")?._meta as { ui?: { resourceUri?: string } }).ui?.resourceUri).toBe(VIEW);
    } finally {
      await v1.close();
    }
  });

  it("draws the agent's play from each result, refreshes through observe, and fits a 390-pixel frame", async () => {
    const machine = newMachine();
    const token = await mintToken(baseUrl, machine);
    const setup = await connectClient(baseUrl, { headers: { Authorization: `Bearer ${token}` } });
    // A 2×2 grid of 6×6 tiles on G = 11.
    const { gameId, field } = await startPlaying(setup, { kind: "grid", n: 6, G: 11 });
    await setup.close();
    client = await rawClient(token, { ui: true });

    const context = await browser().newContext({ viewport: PHONE, deviceScaleFactor: 1 });
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    page.on("request", (r) => {
      if (r.frame() !== page.mainFrame()) frameRequests.push(r.url());
    });
    // The host holds the view's calls until the test lets them through: what the view shows
    // before that comes from the handed result alone.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.exposeFunction("hostCallTool", async (params: { name: string; arguments?: Record<string, unknown> }) => {
      forwarded.push(params);
      await gate;
      return forView(await client.callTool(params));
    });
    await page.goto(host.url);
    await page.waitForSelector("body[data-ready]", { state: "attached" });
    const read = await client.readResource({ uri: VIEW });
    const content = read.contents[0] as { text: string; _meta?: { ui?: { csp?: ViewCsp } } };
    await page.evaluate(([html, csp]) => window.host.load(html, csp, "light"), [content.text, content._meta?.ui?.csp] as const);
    frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(frame).toBeDefined();

    const act = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
      const result = forView(await client.callTool({ name, arguments: args }));
      const before = await frame.evaluate(() => window.mosaicView!.results);
      await page.evaluate(([a, r]) => window.host.send(a, r), [args, result] as const);
      await frame.waitForFunction((n) => window.mosaicView!.results > n, before);
      return result;
    };

    // join: the seed tile is drawn at once, from the result alone.
    const joined = await act("join", { game_id: gameId, session: "1", model: "view-test" });
    const seed = (joined.structuredContent as { seed_tile: number }).seed_tile;
    const agent = (joined.structuredContent as { agent: string }).agent;
    const tile = field.tiles[seed];
    await frame.waitForFunction((id) => window.mosaicView!.state.tiles.has(id) && (window.mosaicView!.view?.timing.drawCount ?? 0) > 0, seed);
    expect(await frame.evaluate(([x, y]) => window.mosaicView!.view!.scene.cellTile[y * window.mosaicView!.view!.scene.G + x], [tile.x0 + 1, tile.y0 + 1])).toBe(seed);
    // The canvas shows the tile: its centre is painted, not the background.
    const pixel = await frame.evaluate(([x, y]) => {
      const v = window.mosaicView!.view!;
      const p = v.camera.toScreen(x, y);
      const ctx = v.canvas.getContext("2d")!;
      return Array.from(ctx.getImageData(Math.round(p.x * devicePixelRatio), Math.round(p.y * devicePixelRatio), 1, 1).data.slice(0, 3));
    }, [tile.x0 + tile.w / 2, tile.y0 + tile.h / 2]);
    expect(pixel).not.toEqual([0x0d, 0x0f, 0x14]);
    expect(pixel).not.toEqual([0x15, 0x19, 0x22]);
    await expect.poll(() => frame.textContent("[data-list=frontier]"), WAIT).toContain(String(seed));
    expect(await frame.evaluate(() => window.mosaicView!.state.G)).toBeNull();
    release();

    // The view refreshed itself with observe {game_id, agent} through the host: it now knows G.
    await frame.waitForFunction(() => window.mosaicView!.state.G === 11);
    expect(forwarded.find((c) => c.name === "observe")?.arguments).toEqual({ game_id: gameId, agent });

    // reveal: the tile's picture appears, its givens drawn as digits.
    const revealed = await act("reveal", { game_id: gameId, agent, expected_revision: (joined.structuredContent as { revision: number }).revision, tile: seed, intent: "seed" });
    const rs = revealed.structuredContent as { revision: number; givens: Array<[number, number]> };
    expect(await frame.textContent("#picture-caption")).toContain(`Tile ${seed}`);
    const picture = (await frame.textContent("#picture")) ?? "";
    expect(picture.split("\n")).toHaveLength(tile.h + 1);
    expect(picture).toMatch(/[01]/);
    expect(await frame.evaluate((id) => window.mosaicView!.state.tiles.get(id)?.status, seed)).toBe("revealed");

    // commit with one wrong cell: the view lists the rejected cell by its coordinates.
    const given = new Set(rs.givens.map(([c]) => c));
    const open = tile.cellIds.filter((c) => !given.has(c));
    const wrong = open[0];
    const cells = open.map((c) => [c, c === wrong ? 1 - field.solution[c] : field.solution[c]]);
    const committed = await act("commit", { game_id: gameId, agent, expected_revision: rs.revision, cells, intent: "one wrong on purpose" });
    expect((committed.structuredContent as { rejected: Array<{ id: number }> }).rejected.map((r) => r.id)).toContain(wrong);
    await expect.poll(() => frame.textContent("[data-list=rejected]"), WAIT).toContain(`(${wrong % 11},${Math.floor(wrong / 11)})`);
    expect(await frame.evaluate((c) => window.mosaicView!.state.rejected.has(c), wrong)).toBe(true);
    await expect.poll(() => frame.evaluate(() => window.mosaicView!.state.revision), WAIT).toBe((committed.structuredContent as { revision: number }).revision);

    // The map's text equivalent: focused from the keyboard, it names the tile and cell at its centre.
    await frame.focus("#field");
    await expect.poll(() => frame.textContent("#tile-under"), WAIT).toMatch(/^Tile \d+: (hidden|revealed|solved).* Cell \(\d+,\d+\): (0|1|unknown|rejected)\.$/);
    expect(await frame.getAttribute("#field", "aria-label")).toMatch(/\b1 rejected cell\b/);

    // The Refresh button calls observe again through the bridge.
    const observes = forwarded.filter((c) => c.name === "observe").length;
    await frame.click("#refresh");
    await expect.poll(() => forwarded.filter((c) => c.name === "observe").length, WAIT).toBeGreaterThan(observes);
    // The view never writes.
    expect(forwarded.map((c) => c.name).filter((n) => n !== "observe")).toEqual([]);

    // It fits the 390-pixel-wide frame: nothing overflows sideways.
    const widths = await frame.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.client).toBeLessThanOrEqual(PHONE.width);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);

    // The spectator link names the field on the server's origin, and opens through the host.
    expect(await frame.getAttribute("#spectator", "href")).toBe(`${new URL(baseUrl).origin}/?game=${gameId}`);
    await frame.click("#spectator");
    await expect.poll(() => page.evaluate(() => window.host.opened), WAIT).toEqual([`${new URL(baseUrl).origin}/?game=${gameId}`]);

    // It follows the host's theme.
    const light = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.evaluate(() => window.host.setTheme("dark"));
    await frame.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(light);

    await screenshot(page, "mcp-view-phone-dark");
    expect(frameRequests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("answers alike with and without the MCP Apps capability", async () => {
    const token = await mintToken(baseUrl, newMachine());
    const setup = await connectClient(baseUrl, { headers: { Authorization: `Bearer ${token}` } });
    const { gameId } = await startPlaying(setup, { kind: "grid", n: 6, G: 11 });
    await setup.close();
    const plain = await rawClient(token);
    const apps = await rawClient(token, { ui: true });
    try {
      const joined = await plain.callTool({ name: "join", arguments: { game_id: gameId, session: "1", model: "view-test" } });
      const agent = (joined.structuredContent as { agent: string }).agent;
      // The same seat joined again answers the same (the session is idempotent); observe is read-only.
      for (const [name, args] of [["join", { game_id: gameId, session: "1", model: "view-test" }], ["observe", { game_id: gameId, agent }]] as const) {
        const a = forView(await plain.callTool({ name, arguments: args }));
        const b = forView(await apps.callTool({ name, arguments: args }));
        expect(b.content, name).toEqual(a.content);
        expect(b.structuredContent, name).toEqual(a.structuredContent);
      }
    } finally {
      await plain.close();
      await apps.close();
    }
  });
});
