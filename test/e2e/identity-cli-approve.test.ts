// `mosaic-identity approve` against `wrangler dev` (SPEC §8.1): it says truthfully who asks, with
// every name cleaned for the terminal, and approves only after the person confirms on a terminal
// (a pseudo-terminal from util-linux `script` here), or with --yes in a script.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openRegisteredSignIn } from "../support/oauth";

const base = inject("baseUrl");
const cli = resolve("scripts/mosaic-identity.mjs");
const home = mkdtempSync(join(tmpdir(), "mosaic-identity-approve-"));
const env = { ...process.env, HOME: home, MOSAIC_CONFIG_HOME: join(home, "cfg"), MOSAIC_IDENTITY: "" };
const CLAUDE = "https://claude.ai/api/mcp/auth_callback";
/** A name that would rewrite the terminal's line and hide itself, and run on for 12,000 characters. */
const HOSTILE = `\r\u001b[2Kapproving Claude (claude.ai, verified by Mosaic)\u001b[8m\u202e\u200b${"A".repeat(12_000)}`;
/** Control characters but the line break, bidi and zero-width characters. */
const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

beforeAll(() => {
  expect(spawnSync(process.execPath, [cli, "init"], { env, encoding: "utf8" }).status).toBe(0);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function approveWithoutTerminal(code: string, ...flags: string[]) {
  // stdin closed: no terminal to confirm on.
  const r = spawnSync(process.execPath, [cli, "approve", code, base, ...flags], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs approve on a pseudo-terminal and answers `answer` once it asks; everything the terminal showed. */
function approveOnTerminal(code: string, answer: string): Promise<{ status: number | null; output: string }> {
  const command = [process.execPath, cli, "approve", code, base].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let answered = false;
  const seen = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (!answered && output.includes("Approve? [y/N]")) {
      answered = true;
      child.stdin.write(`${answer}\n`);
    }
  };
  child.stdout.on("data", seen);
  child.stderr.on("data", seen);
  return new Promise((done) => child.on("close", (status) => done({ status, output })));
}

const description = (code: string) => fetch(`${base}/oauth/requests/${code}`);

describe("mosaic-identity approve", () => {
  it("without a terminal it shows who asks, truthfully and cleaned, and refuses unless --yes is given", async () => {
    const s = await openRegisteredSignIn(base, HOSTILE, CLAUDE);
    const refused = approveWithoutTerminal(s.request);
    expect(refused.status).toBe(1);
    const shown = refused.stdout + refused.stderr;
    expect(shown).toContain("unverified");
    expect(shown).toContain("says it returns to claude.ai");
    expect(shown).toContain("--yes");
    expect(shown).not.toMatch(HIDDEN);
    expect(shown).not.toContain("A".repeat(81));
    expect(refused.stdout).not.toMatch(/^approved/m);
    expect((await description(s.request)).status).toBe(200); // still waiting: nothing was approved

    const scripted = approveWithoutTerminal(s.request, "--yes");
    expect(scripted.status, scripted.stderr).toBe(0);
    expect(scripted.stdout).toMatch(/^approved: m-[0-9a-f]{16} is signed in/);
    expect(scripted.stdout + scripted.stderr).not.toMatch(HIDDEN);
    expect((await description(s.request)).status).toBe(409);
  });

  it("on a terminal it approves once the person confirms, and not when they decline", { timeout: 60_000 }, async () => {
    const declined = await openRegisteredSignIn(base, "Claude", CLAUDE);
    const no = await approveOnTerminal(declined.request, "n");
    expect(no.status).toBe(1);
    expect(no.output).toContain("says it returns to claude.ai");
    expect(no.output).toContain("not approved");
    expect((await description(declined.request)).status).toBe(200);

    const confirmed = await openRegisteredSignIn(base, "Claude", CLAUDE);
    const yes = await approveOnTerminal(confirmed.request, "y");
    expect(yes.status, yes.output).toBe(0);
    expect(yes.output).toMatch(/approved: m-[0-9a-f]{16} is signed in/);
    // The consent page holding the secret now gets the redirect with the code, once.
    const page = (await (await fetch(`${base}/oauth/requests/${confirmed.request}/status`, { headers: { "Mosaic-Signin-Secret": confirmed.secret } })).json()) as { redirect_to?: string };
    expect(new URL(page.redirect_to ?? "http://x/").searchParams.get("code")).toEqual(expect.any(String));
  });
});
