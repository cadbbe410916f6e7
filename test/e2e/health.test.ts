import { describe, expect, inject, it } from "vitest";

describe("wrangler dev", () => {
  it("serves the health route and the site", async () => {
    const base = inject("baseUrl");
    const health = await fetch(`${base}/api/health`);
    expect(await health.json()).toEqual({ ok: true, service: "mosaic" });
    const site = await fetch(`${base}/`);
    expect(site.status).toBe(200);
    expect(await site.text()).toContain("Mosaic");
  });
});
