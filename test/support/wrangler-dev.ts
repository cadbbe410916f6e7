import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { devEnv } from "../../scripts/start/dev-args.ts";

const wranglerBin = resolve("node_modules/wrangler/bin/wrangler.js");

/** A `wrangler dev` process on a free loopback port with its own persisted state folder. */
export interface DevServer {
  baseUrl: string;
  stateDir: string;
  port: number;
  /** The wrangler process; it leads the process group that workerd runs in. */
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL to wrangler and workerd at once (no shutdown of any kind); the state folder stays. */
  kill(): Promise<void>;
  /** What wrangler printed so far (its log, and workerd's). */
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startDevServer(
  options: { vars?: Record<string, string>; stateDir?: string; port?: number; config?: string; env?: Record<string, string> } = {},
): Promise<DevServer> {
  const port = options.port ?? (await freePort());
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "mosaic-e2e-"));
  const args = [wranglerBin, "dev", "--local", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", stateDir, "--show-interactive-dev-session=false"];
  for (const [key, value] of Object.entries(options.vars ?? {})) args.push("--var", `${key}:${value}`);
  // Another configuration than the repository's wrangler.toml (a benchmark's split of the Worker).
  if (options.config) args.push("--config", options.config);
  // Run wrangler's own entry under this Node (detached, so the whole process group stops with it).
  const child: ChildProcess = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...devEnv(process.env), NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CI: "1", ...options.env } });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      signalGroup(child, "SIGTERM");
      throw new Error(`wrangler dev did not come up on ${baseUrl}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const exited = new Promise((r) => child.once("exit", r));
  return {
    baseUrl,
    stateDir,
    port,
    pid: child.pid ?? 0,
    output: () => output,
    async kill() {
      signalGroup(child, "SIGKILL");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        signalGroup(child, "SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) signalGroup(child, "SIGKILL");
      }
      if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
