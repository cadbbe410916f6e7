// Runs the recipes of the served /identity.md for real, in a scratch HOME, against `wrangler dev`.
// The commands come from the document itself, so the documentation and this test cannot drift.
import { spawnSync } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");
let doc = "";
const scratch: string[] = [];

beforeAll(async () => {
  const res = await fetch(`${base}/identity.md`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  doc = await res.text();
});
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** The ```sh blocks of the section whose heading starts with `heading`, in order. */
function shellBlocks(heading: string): string[] {
  const sections = doc.split(/^## /m);
  const section = sections.find((s) => s.startsWith(heading));
  if (!section) throw new Error(`no section '${heading}' in /identity.md`);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

interface RecipeRun {
  home: string;
  stdout: string;
  token: string;
  joinArgs: Record<string, string>;
}

/** Runs the Server block then every block of a recipe in one bash, as a user pasting them would. */
function runRecipe(heading: string): RecipeRun {
  const home = mkdtempSync(join(tmpdir(), "mosaic-identity-doc-"));
  scratch.push(home);
  const script = ["set -euo pipefail", ...shellBlocks("Server"), ...shellBlocks(heading), 'printf "\\nRESULT-TOKEN %s\\n" "$MOSAIC_TOKEN"'].join("\n");
  const r = spawnSync("bash", ["-c", script], { cwd: home, env: { ...process.env, HOME: home }, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`recipe '${heading}' failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const token = /RESULT-TOKEN (\S+)/.exec(r.stdout)?.[1] ?? "";
  const joinLine = r.stdout.split("\n").find((l) => l.startsWith('{"game_id"'));
  return { home, stdout: r.stdout, token, joinArgs: joinLine ? JSON.parse(joinLine) : {} };
}

async function whoami(token: string): Promise<{ machine_id?: string; name?: string | null }> {
  const res = await fetch(`${base}/api/keys/whoami`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return res.json();
}

/** The MCP client configuration printed by step 6 must be valid JSON carrying a working token. */
async function expectMcpConfig(stdout: string, token: string): Promise<void> {
  const block = /^\{\n {2}"mcpServers"[\s\S]*?^\}$/m.exec(stdout);
  expect(block, "no MCP configuration printed").not.toBeNull();
  const config = JSON.parse(block![0]) as { mcpServers: { mosaic: { url: string; headers: { Authorization: string } } } };
  expect(config.mcpServers.mosaic.url).toBe(`${base}/mcp`);
  expect(config.mcpServers.mosaic.headers.Authorization).toBe(`Bearer ${token}`);
}

function expectProofChecked(run: RecipeRun, machineId: string): void {
  expect(run.joinArgs.machine_id).toBe(machineId);
  expect(run.joinArgs.game_id).toMatch(/^day-\d{4}-\d{2}-\d{2}$/);
  expect(run.stdout).toMatch(/"ok":true,"machine_id":"m-[0-9a-f]{16}"/);
}

describe("/identity.md recipes run against the server", () => {
  it("keeps the token you had when minting is refused, and says why instead of claiming success", () => {
    for (const heading of ["With Node", "With OpenSSL", "With Python"]) {
      const home = mkdtempSync(join(tmpdir(), "mosaic-identity-doc-"));
      scratch.push(home);
      const [makeKey, mint] = shellBlocks(heading);
      // A careless MOSAIC_HOST without its port: the server names the host it expects.
      const script = [...shellBlocks("Server"), makeKey, 'MOSAIC_HOST="${MOSAIC_HOST%%:*}"', "export MOSAIC_TOKEN=previous", mint, 'printf "\\nRESULT-TOKEN %s\\n" "$MOSAIC_TOKEN"'].join("\n");
      const r = spawnSync("bash", ["-c", script], { cwd: home, env: { ...process.env, HOME: home }, encoding: "utf8", timeout: 60_000 });
      expect(r.stdout, heading).not.toContain("minted a token");
      expect(/RESULT-TOKEN (\S+)/.exec(r.stdout)?.[1], heading).toBe("previous");
      expect(`${r.stdout}${r.stderr}`, heading).toMatch(/wrong host/);
    }
  });

  it("documents the request's own host in every command", () => {
    const host = new URL(base).host;
    expect(shellBlocks("Server")[0]).toContain(`export MOSAIC=${base} MOSAIC_HOST=${host}`);
    expect(doc).not.toContain("{{");
  });

  it("serves an HTML version with the same commands", async () => {
    const res = await fetch(`${base}/identity`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("<h2>With OpenSSL (3.0 or later) and curl</h2>");
    expect(html).toContain("openssl genpkey -algorithm ed25519");
    expect(html).toContain(`export MOSAIC=${base}`);
  });

  it("Node: makes a key, mints a token, names the machine, proves a join, prints the MCP config", async () => {
    const run = runRecipe("With Node");
    const file = join(run.home, ".config/mosaic/identity.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const identity = JSON.parse(readFileSync(file, "utf8")) as { machine_id: string; publicKey: string };
    const who = await whoami(run.token);
    expect(who).toEqual({ machine_id: identity.machine_id, name: "node agent" });
    expectProofChecked(run, identity.machine_id);
    await expectMcpConfig(run.stdout, run.token);
  });

  it("OpenSSL: makes a key, mints a token, names the machine, proves a join", async () => {
    const run = runRecipe("With OpenSSL");
    // Derive the machine id independently from the PEM the recipe made.
    const pem = readFileSync(join(run.home, ".config/mosaic/ed25519.pem"), "utf8");
    const raw = createPublicKey(pem).export({ format: "der", type: "spki" }).subarray(12);
    const machineId = "m-" + createHash("sha256").update(raw).digest("hex").slice(0, 16);
    expect(run.stdout).toContain(`machine ${machineId}, public key ${raw.toString("base64")}`);
    expect(await whoami(run.token)).toEqual({ machine_id: machineId, name: "openssl agent" });
    expectProofChecked(run, machineId);
  });

  it("Python: the same with the cryptography package", async () => {
    const probe = spawnSync("python3", ["-c", "import cryptography"], { encoding: "utf8" });
    if (probe.status !== 0) {
      // Without the package the recipe cannot sign; still prove every Python block compiles.
      for (const block of shellBlocks("With Python")) {
        for (const m of block.matchAll(/<<'PY'\n([\s\S]*?)^PY$/gm)) {
          const c = spawnSync("python3", ["-c", `import ast,sys; ast.parse(sys.stdin.read())`], { input: m[1], encoding: "utf8" });
          expect(c.status, c.stderr).toBe(0);
        }
      }
      console.warn("python3 'cryptography' is not installed: the Python recipe was only parsed, not run");
      return;
    }
    const run = runRecipe("With Python");
    const identity = JSON.parse(readFileSync(join(run.home, ".config/mosaic/identity.json"), "utf8")) as { machine_id: string };
    expect(await whoami(run.token)).toEqual({ machine_id: identity.machine_id, name: "python agent" });
    expectProofChecked(run, identity.machine_id);
  });
});
