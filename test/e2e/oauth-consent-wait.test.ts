// The consent page in headless Chromium behind a public client address, as Cloudflare's edge
// sees callers (CF-Connecting-IP): it waits for the key-file CLI for longer than the sign-in
// routes' allowance of 20 calls a minute would last, then the person approves on the page, and
// the approval goes through (SPEC §8.1: the page's own waiting never spends it).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { browserPerFile } from "../support/browser";
import { mintToken, newMachine } from "../support/identity";
import { callbackServer, openRegisteredSignIn } from "../support/oauth";

const base = inject("baseUrl");
const browser = browserPerFile();
/**
 * LIMIT_KEYS allows an address 20 calls in each 60 s window. Polls that span more than a whole
 * window have had one window full of them (30 at the page's pace, 40 at the old one's).
 */
const WINDOW_MS = 61_000;
let callback: Awaited<ReturnType<typeof callbackServer>>;

beforeAll(async () => {
  callback = await callbackServer();
});
afterAll(async () => {
  await callback?.close();
});

describe("the consent page behind a public address", () => {
  it("polls past the key routes' limit, then its approval succeeds and the browser goes back with the code", { timeout: 180_000 }, async () => {
    const address = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const token = await mintToken(base, newMachine());
    const s = await openRegisteredSignIn(base, "Waiting Host", callback.url);
    const context = await browser().newContext({ extraHTTPHeaders: { "CF-Connecting-IP": address } });
    const page = await context.newPage();
    const statuses: Array<{ url: string; status: number }> = [];
    const foreign: string[] = [];
    let firstPoll = 0;
    let enough: () => void = () => {};
    const polled = new Promise<void>((r) => (enough = r));
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(callback.url)) foreign.push(r.url());
    });
    page.on("response", (res) => {
      statuses.push({ url: res.url(), status: res.status() });
      if (!res.url().includes("/oauth/requests/")) return;
      firstPoll ||= Date.now();
      // A refused poll means the waiting spent an allowance: the approval must not be refused now.
      if (res.status() === 429 || Date.now() - firstPoll > WINDOW_MS) enough();
    });
    await page.goto(s.authorizeUrl);
    await polled; // the page has waited through a whole window of the address's allowance
    const back = callback.next();
    await page.fill("#token", token);
    const approved = page.waitForResponse((r) => r.url().endsWith("/oauth/approve"));
    await page.click("#approve-token");
    expect((await approved).status()).toBe(200);
    const answer = await Promise.race([
      back,
      new Promise<never>((_, reject) => setTimeout(async () => reject(new Error(`never sent back: ${await page.textContent("#status")}`)), 20_000)),
    ]);
    expect(answer.searchParams.get("code")).toEqual(expect.any(String));
    expect(answer.searchParams.get("state")).toBe("s");
    expect(statuses.filter((r) => r.status === 429)).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it("Chromium's CF-Connecting-IP reaches the Worker as the caller's address (the key routes limit it)", async () => {
    const context = await browser().newContext({ extraHTTPHeaders: { "CF-Connecting-IP": `198.51.100.${1 + Math.floor(Math.random() * 250)}` } });
    const page = await context.newPage();
    await page.goto(`${base}/identity`);
    // 41 quick calls: however a window boundary splits them, one window gets more than 20.
    const statuses = await page.evaluate(async () => {
      const out: number[] = [];
      for (let i = 0; i < 41; i++) out.push((await fetch("/api/keys/whoami")).status);
      return out;
    });
    expect(statuses).toContain(429);
    await context.close();
  });
});
