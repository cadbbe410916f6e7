import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../support/wrangler-dev";

/**
 * `npm start` as a user runs it: `npm start -- --port N` and `PORT=N npm start` bring the service
 * up on that port (wrangler refuses an option given twice, so the script must not add its own).
 */
const running: ChildProcess[] = [];

function npmStart(args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn("npm", ["start", "--", ...args], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CI: "1", ...env },
  });
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  running.push(child);
  return { child, output: () => output };
}

async function untilHealthy(port: number, started: { child: ChildProcess; output: () => string }): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited early:\n${started.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) {
        expect(await res.json()).toMatchObject({ ok: true });
        return;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer on port ${port}:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGTERM"); // the whole group: npm, the start script, wrangler, workerd
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

describe("npm start", () => {
  it("serves on the port given as `npm start -- --port N`, even with PORT set too", async () => {
    const state = mkdtempSync(join(tmpdir(), "mosaic-start-"));
    try {
      const port = await freePort();
      const started = npmStart(["--port", String(port), "--persist-to", state], { PORT: "1" });
      await untilHealthy(port, started);
      // An object call, then no trace store: wrangler's per-invocation traces stay off (dev-args.ts).
      expect((await fetch(`http://127.0.0.1:${port}/api/games`)).status).toBe(200);
      expect(existsSync(join(state, "v3", "observability"))).toBe(false);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it("serves on the port given as PORT=N npm start", async () => {
    const state = mkdtempSync(join(tmpdir(), "mosaic-start-"));
    try {
      const port = await freePort();
      const started = npmStart(["--persist-to", state], { PORT: String(port) });
      await untilHealthy(port, started);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it("stops with a clear message on a PORT that is not a port number", async () => {
    const started = npmStart([], { PORT: "eighty" });
    const code = await new Promise<number | null>((r) => started.child.once("exit", r));
    expect(code).not.toBe(0);
    expect(started.output()).toContain("PORT must be a port number");
  });
});
