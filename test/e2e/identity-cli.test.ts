// The identity CLI against `wrangler dev`, with its key file in a scratch folder.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");
const cli = resolve("scripts/mosaic-identity.mjs");
const home = mkdtempSync(join(tmpdir(), "mosaic-identity-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, HOME: home, MOSAIC_CONFIG_HOME: join(home, "cfg"), MOSAIC_IDENTITY: "", ...env }, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("scripts/mosaic-identity.mjs", () => {
  it("init makes a private key file under MOSAIC_CONFIG_HOME once, and keeps it after", () => {
    const first = run(["init"]);
    expect(first.status, first.stderr).toBe(0);
    const file = join(home, "cfg/identity.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const id = JSON.parse(readFileSync(file, "utf8")) as { machine_id: string; publicKey: string };
    expect(first.stdout).toContain(`machine ${id.machine_id}`);
    const again = run(["init"]);
    expect(again.stdout).toContain("exists; keeping it");
    expect(JSON.parse(readFileSync(file, "utf8")).publicKey).toBe(id.publicKey);
  });

  it("token mints, stores and prints a working MCP configuration; a second mint replaces the first", async () => {
    const first = run(["token", base]);
    expect(first.status, first.stderr).toBe(0);
    const config = JSON.parse(first.stdout) as { mcpServers: { mosaic: { url: string; headers: { Authorization: string } } } };
    expect(config.mcpServers.mosaic.url).toBe(`${base}/mcp`);
    const firstAuth = config.mcpServers.mosaic.headers.Authorization;
    await new Promise((r) => setTimeout(r, 1100)); // a new second, so a new signed request
    const second = run(["token", base]);
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(run(["config", base]).stdout)).toEqual(JSON.parse(second.stdout));
    const who = run(["whoami", base]);
    const id = JSON.parse(readFileSync(join(home, "cfg/identity.json"), "utf8")) as { machine_id: string };
    expect(JSON.parse(who.stdout)).toMatchObject({ machine_id: id.machine_id });
    const old = await fetch(`${base}/api/keys/whoami`, { headers: { authorization: firstAuth } });
    expect(old.status).toBe(401);
  });

  it("name sets the display name", async () => {
    const r = run(["name", base, "cli agent"]);
    expect(r.status, r.stderr).toBe(0);
    const who = JSON.parse(run(["whoami", base]).stdout) as { name: string };
    expect(who.name).toBe("cli agent");
  });

  it("proof prints join arguments the server verifies", async () => {
    const r = run(["proof", "g-cli", "3"]);
    expect(r.status, r.stderr).toBe(0);
    const args = JSON.parse(r.stdout) as Record<string, string>;
    expect(args.session).toBe("3");
    const res = await fetch(`${base}/api/keys/proof-check`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(args) });
    expect(await res.json()).toMatchObject({ ok: true, machine_id: args.machine_id });
  });

  it("--file picks another key file; errors are clear and exit non-zero", () => {
    const other = join(home, "elsewhere/id.json");
    expect(run(["init", "--file", other]).status).toBe(0);
    expect(statSync(other).isFile()).toBe(true);
    const missing = run(["show", "--config", join(home, "nope.json")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("no key file at");
    expect(run(["token", "ftp://x"]).stderr).toContain("must be http(s)");
    expect(run(["frobnicate"]).stderr).toContain("unknown command 'frobnicate'");
    const badName = run(["name", base, "<b>"]);
    expect(badName.status).toBe(1);
    expect(badName.stderr).toContain("name must be 1-40 characters");
  });
});
