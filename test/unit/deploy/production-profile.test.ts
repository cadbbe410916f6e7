import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import { LIMIT_PERIODS } from "../../../src/http/middleware/rate-limit";

// The production profile (wrangler.toml [env.production], docs/deploy.md) as wrangler resolves it.
// Wrangler environments do not inherit bindings, so a binding added for local development and
// forgotten in production would only show on the first request after a deploy: caught here.
const configPath = fileURLToPath(new URL("../../../wrangler.toml", import.meta.url));
const local = unstable_readConfig({ config: configPath }, { hideWarnings: true });
const production = unstable_readConfig({ config: configPath, env: "production" }, { hideWarnings: true });

const names = (list: ReadonlyArray<{ name?: string; binding?: string }>): string[] => list.map((b) => b.name ?? b.binding ?? "").sort();

describe("the production profile", () => {
  it("runs the hosted daily server: one field a day, no development joins", () => {
    expect(production.vars.MOSAIC_DAILY).toBe("1");
    expect(production.vars.MOSAIC_DEV).toBe("0");
    expect(Object.keys(production.vars).sort()).toEqual(Object.keys(local.vars).sort());
  });

  it("has the daily cron, logs and the platform's CPU allowance for generation", () => {
    // Hourly at minute 5: the day opens within the hour of a deploy, and 00:05 opens each new day.
    expect(production.triggers.crons).toEqual(["5 * * * *"]);
    expect(production.observability?.enabled).toBe(true);
    expect(production.limits?.cpu_ms).toBe(300_000);
  });

  it("binds every object, bucket and rate limit the local shape binds, with the same classes and limits", () => {
    expect(production.durable_objects.bindings).toEqual(local.durable_objects.bindings);
    expect(names(production.r2_buckets)).toEqual(names(local.r2_buckets));
    expect(production.ratelimits).toEqual(local.ratelimits);
    expect(names(production.ratelimits)).toEqual(["LIMIT_ACCOUNTS", "LIMIT_KEYS", "LIMIT_MCP_ADDRESS", "LIMIT_MCP_MACHINE", "LIMIT_SIGNIN_WAIT"]);
    for (const kv of local.kv_namespaces) expect(names(production.kv_namespaces)).toContain(kv.binding);
    expect(production.assets?.directory).toBe(local.assets?.directory);
  });

  it("tells refused callers the period each limit really has (Retry-After comes from the code)", () => {
    const periods = Object.fromEntries(local.ratelimits.map((r: { name: string; simple: { period: number } }) => [r.name, r.simple.period]));
    expect(periods).toEqual(LIMIT_PERIODS);
  });

  it("declares the KV namespace the OAuth sign-in keeps its grants in", () => {
    expect(names(production.kv_namespaces)).toContain("OAUTH_KV");
  });

  it("never serves on workers.dev, where the edge cache is off (a custom domain is set at deploy)", () => {
    expect(production.workers_dev).toBe(false);
  });
});
