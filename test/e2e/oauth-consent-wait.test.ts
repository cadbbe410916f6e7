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
/** More polls than LIMIT_KEYS allows an address in a minute (20). */
const POLLS = 22;
let callback: Awaited<ReturnType<typeof callbackServer>>;

beforeAll(async () => {
  callback = await callbackServer();
});
afterAll(async () => {
  await callback?.close();
});

describe("the consent page behind a public address", () => {
  it("polls past the key routes' limit, then its approval succeeds and the browser goes back with the code", { timeout: 120_000 }, async () => {
    const address = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const token = await mintToken(base, newMachine());
    const s = await openRegisteredSignIn(base, "Waiting Host", callback.url);
    const context = await browser().newContext({ extraHTTPHeaders: { "CF-Connecting-IP": address } });
    const page = await context.newPage();
    const statuses: Array<{ url: string; status: number }> = [];
    const foreign: string[] = [];
    let polls = 0;
    let enough: () => void = () => {};
    const polled = new Promise<void>((r) => (enough = r));
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(callback.url)) foreign.push(r.url());
    });
    page.on("response", (res) => {
      statuses.push({ url: res.url(), status: res.status() });
      if (res.url().includes("/oauth/requests/") && ++polls >= POLLS) enough();
    });
    await page.goto(s.authorizeUrl);
    await polled; // the page has waited longer than the address's allowance of the key routes lasts
    const back = callback.next();
    await page.fill("#token", token);
    await page.click("#approve-token");
    const answer = await Promise.race([
      back,
      new Promise<never>((_, reject) => setTimeout(async () => reject(new Error(`never sent back: ${await page.textContent("#status")}`)), 20_000)),
    ]);
    expect(answer.searchParams.get("code")).toEqual(expect.any(String));
    expect(answer.searchParams.get("state")).toBe("s");
    const approve = statuses.find((r) => r.url.endsWith("/oauth/approve"));
    expect(approve?.status).toBe(200);
    expect(statuses.filter((r) => r.status === 429)).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });
});
