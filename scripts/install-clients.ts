// Installs the client-matrix test package (test/clients: the MCP client SDKs agent authors use)
// from its lockfile, only when its node_modules is missing or older than the lockfile. Runs before
// `npm test` and in the e2e harness's global setup; the service's own `npm install` stays lean.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const dir = resolve(dirname(fileURLToPath(import.meta.url)), "../test/clients");
const marker = resolve(dir, "node_modules/.mosaic-lockfile-sha256");

function lockfileHash(): string {
  return createHash("sha256").update(readFileSync(resolve(dir, "package-lock.json"))).digest("hex");
}

export function clientsInstalled(): boolean {
  return existsSync(marker) && readFileSync(marker, "utf8").trim() === lockfileHash();
}

/** `npm ci` in test/clients unless the installed tree matches the lockfile already. */
export function installClients(): void {
  if (clientsInstalled()) return;
  process.stderr.write("installing the client matrix (test/clients) from its lockfile…\n");
  // The npm on PATH runs under the Node that runs this script (Node 22 inside npm scripts).
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = spawnSync(npm, ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error(`npm ci in ${dir} failed (status ${String(r.status)}${r.error ? `, ${r.error.message}` : ""})`);
  writeFileSync(marker, lockfileHash() + "\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) installClients();
