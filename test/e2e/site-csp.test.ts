// The site's Content-Security-Policy in Chromium against wrangler dev (SPEC §8.1): every HTML page
// carries one with frame-ancestors, the pages run under it without a single violation, and another
// site cannot frame them.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createAccount } from "../support/accounts";
import { browserPerFile, openPage } from "../support/browser";
import { newMachine } from "../support/identity";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();

describe("Content-Security-Policy in the browser", () => {
  const opened: Array<{ close: () => Promise<void> }> = [];
  afterAll(async () => {
    for (const c of opened) await c.close();
  });

  it("the spectator, history, identity and account pages carry it and run under it without a violation", async () => {
    const account = await createAccount(baseUrl, newMachine(), "CSP check");
    for (const path of ["/", "/history", "/identity", `/account/${account.id}`]) {
      const response = await fetch(`${baseUrl}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      const w = await openPage(browser(), baseUrl, path);
      opened.push(w.context);
      // The page's script has run (the spectator connects, the account page binds its form).
      await w.page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
      expect(w.errors.filter((e) => /Content Security Policy|Refused to/i.test(e)), path).toEqual([]);
      expect(w.errors, path).toEqual([]);
    }
  });

  it("another site's frame of a page is refused by the browser", async () => {
    const context = await browser().newContext();
    opened.push(context);
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on("console", (m) => {
      if (/frame-ancestors/i.test(m.text())) refusals.push(m.text());
    });
    await page.setContent(`<iframe id="f" src="${baseUrl}/history"></iframe>`);
    await expect.poll(() => refusals.length, { timeout: 20_000 }).toBeGreaterThan(0);
    // Nothing of the page rendered inside the frame.
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(await frame?.evaluate(() => document.querySelector("header.top") !== null).catch(() => false)).toBe(false);
  });
});
