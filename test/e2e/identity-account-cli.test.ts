// `mosaic-identity account …` against `wrangler dev`: two key files linked into one account,
// a stranger refused, the account's page and JSON, then an unlink (SPEC §8.2).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");
const cli = resolve("scripts/mosaic-identity.mjs");
const home = mkdtempSync(join(tmpdir(), "mosaic-account-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(who: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, "--file", join(home, `${who}.json`), ...args], { encoding: "utf8", env: { ...process.env, HOME: home, MOSAIC_IDENTITY: "" }, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const machineOf = (who: string): string => (JSON.parse(readFileSync(join(home, `${who}.json`), "utf8")) as { machine_id: string }).machine_id;

describe("scripts/mosaic-identity.mjs account", () => {
  it("create, invite, join, show, a reused invitation refused, unlink", async () => {
    for (const who of ["laptop", "server", "stranger"]) expect(run(who, ["init"]).status).toBe(0);
    const [laptop, server] = [machineOf("laptop"), machineOf("server")];
    expect(run("laptop", ["name", base, "Laptop"]).status).toBe(0);

    const created = run("laptop", ["account", "create", base, "Ada's machines"]);
    expect(created.status, created.stderr).toBe(0);
    const id = /created account (a-[0-9a-f]{16}) "Ada's machines"/.exec(created.stdout)?.[1];
    expect(id, created.stdout).toBeDefined();

    const invited = run("laptop", ["account", "invite", base]);
    expect(invited.status, invited.stderr).toBe(0);
    const invitation = invited.stdout.trim();
    expect(invitation).toMatch(/^mosaic-invite\.[A-Za-z0-9_-]+$/);
    expect(invited.stderr).toContain(`account join ${base}`);

    const joined = run("server", ["account", "join", base, invitation]);
    expect(joined.status, joined.stderr).toBe(0);
    expect(joined.stdout).toContain(`${server} joined account ${id}`);

    const shown = run("server", ["account", "show", base]);
    expect(shown.status, shown.stderr).toBe(0);
    const doc = JSON.parse(shown.stdout) as { id: string; name: string; machines: Array<{ machine_id: string; name: string | null }> };
    expect(doc).toMatchObject({ id, name: "Ada's machines" });
    expect(doc.machines.map((m) => [m.machine_id, m.name])).toEqual([
      [laptop, "Laptop"],
      [server, null],
    ]);

    // The invitation was spent: nobody else gets in with it.
    const reused = run("stranger", ["account", "join", base, invitation]);
    expect(reused.status).toBe(1);
    expect(reused.stderr).toMatch(/replayed invitation/);
    expect(run("stranger", ["account", "show", base]).stdout).toContain("is in no account");

    const page = await fetch(`${base}/account/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1 id="account-name">Ada\'s machines</h1>');
    expect(html).toContain(laptop);
    expect(html).toContain(server);
    expect(html).toContain(`account join ${base}`);
    expect((await fetch(`${base}/account/a-0000000000000000`)).status).toBe(404);

    // A member unlinks the other machine.
    const unlinked = run("laptop", ["account", "unlink", base, server]);
    expect(unlinked.status, unlinked.stderr).toBe(0);
    expect(unlinked.stdout).toContain(`${server} unlinked from account ${id}`);
    expect(run("server", ["account", "show", base]).stdout).toContain(`machine ${server} is in no account`);
    const after = (await (await fetch(`${base}/api/accounts/${id}`)).json()) as { machines: Array<{ machine_id: string }> };
    expect(after.machines.map((m) => m.machine_id)).toEqual([laptop]);
  });
});
