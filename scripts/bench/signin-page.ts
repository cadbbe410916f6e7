// First paint of the sign-in consent page (SPEC §8.1; target ≤ 1 s on this machine), in headless
// Chromium against `wrangler dev`, on a phone and a desktop viewport, each time a fresh sign-in
// (the Worker renders the page for that request) in a fresh browser context (nothing cached).
// Reports first contentful paint and the time until the browser-key button is ready.
//
//   npm run bench:signin-page                # 10 loads per viewport
//   npm run bench:signin-page -- --loads 20
import { createHash, randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { DESKTOP, launchBrowser, PHONE } from "../../test/support/browser";
import { startDevServer } from "../../test/support/wrangler-dev";
import { numberOption } from "./bench-options";
import { percentile } from "./samples";

const LOADS = numberOption("loads", 10);

async function authorizeUrl(base: string): Promise<string> {
  const redirect = "http://127.0.0.1:9/callback";
  const reg = (await (await fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "bench", redirect_uris: [redirect], token_endpoint_auth_method: "none" }) })).json()) as { client_id: string };
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256", resource: `${base}/mcp/signed-in` });
  return `${base}/oauth/authorize?${q}`;
}

async function main(): Promise<void> {
  const server = await startDevServer();
  const browser = await launchBrowser();
  try {
    const rows: string[] = [];
    for (const [label, viewport, mobile] of [["phone 390×844", PHONE, true], ["desktop 1440×900", DESKTOP, false]] as const) {
      const fcp: number[] = [];
      const ready: number[] = [];
      for (let i = 0; i < LOADS + 1; i++) {
        const url = await authorizeUrl(server.baseUrl);
        const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
        const page = await context.newPage();
        await page.goto(url, { waitUntil: "load" });
        await page.waitForSelector("#approve-browser:not([disabled])");
        const t = await page.evaluate(() => ({
          fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
          ready: performance.now(),
        }));
        await context.close();
        if (i === 0) continue; // the first load warms the Worker's isolate
        fcp.push(t.fcp);
        ready.push(t.ready);
      }
      fcp.sort((a, b) => a - b);
      ready.sort((a, b) => a - b);
      rows.push(`| ${label} | ${LOADS} | ${percentile(fcp, 50).toFixed(0)} | ${fcp.at(-1)?.toFixed(0)} | ${percentile(ready, 50).toFixed(0)} |`);
    }
    console.log("sign-in consent page, headless Chromium against wrangler dev (ms from navigation start)");
    console.log("| viewport | loads | first contentful paint p50 | FCP max | key button ready p50 |");
    console.log("|---|---|---|---|---|");
    for (const r of rows) console.log(r);
    console.log(`target: first paint ≤ 1000 ms; load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
