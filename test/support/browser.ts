// Real headless Chromium (Debian's `chromium`) driven by playwright-core, for the spectator site.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { FrameTiming } from "../../src/site/field/frame-timing";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS_DIR = resolve("test-artifacts");

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** One Chromium for a test file: launched before its tests, closed after them; call the getter in a test. */
export function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("the browser is launched in beforeAll: call the getter inside a test or hook");
    return browser;
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

/** A page that records console errors, uncaught exceptions, and every request that left the origin. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  errors: string[];
  foreignRequests: string[];
  dialogs: string[];
}

export async function openPage(browser: Browser, baseUrl: string, path: string, options: { viewport?: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    deviceScaleFactor: 1,
    isMobile: options.isMobile ?? false,
    hasTouch: options.hasTouch ?? false,
  });
  const page = await context.newPage();
  const watched: WatchedPage = { page, context, errors: [], foreignRequests: [], dialogs: [] };
  const origin = new URL(baseUrl).origin;
  page.on("console", (m) => {
    if (m.type() === "error") watched.errors.push(m.text());
  });
  page.on("pageerror", (e) => watched.errors.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => {
    watched.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) watched.foreignRequests.push(url);
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: "load" });
  return watched;
}

/** Writes a PNG of the page into test-artifacts/ (not in git). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = resolve(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** What the spectator page exposes on `window.mosaic` to its tests (src/site/debug.ts), as tests read it. */
export interface PageHandleForTests {
  view?: {
    camera: { scale: number; x: number; y: number; toScreen(x: number, y: number): { x: number; y: number } };
    canvas: HTMLCanvasElement;
    /** The page's frame timing (src/site/field/frame-timing.ts). */
    timing: FrameTiming;
    tileAtScreen(x: number, y: number): { id: number } | undefined;
    /** The tiles outlined as frontier (dashed). */
    frontier: Set<number>;
  };
  scene?: {
    G: number;
    image: ImageData;
    cellTile: Int32Array;
    tiles: Map<number, { id: number; x0: number; y0: number; w: number; h: number; rects: Array<[number, number, number, number]>; status: string; agent: string | null }>;
  };
  [hook: string]: unknown;
}

declare global {
  interface Window {
    mosaic?: PageHandleForTests;
  }
}
