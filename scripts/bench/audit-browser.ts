/**
 * The browser audit's benchmark (issue 31): the replay page audits the synthetic full day (the
 * archive of `npm run bench:audit`, audit-day.ts) in headless Chromium, all five checks in Web
 * Workers. Prints the audit's time, the regeneration's workers (one per core the browser reports),
 * the longest main-thread task while it ran, the page's peak memory (the renderer process, which
 * holds the page and its workers) and, as the baseline measured in the same run, `npm run audit`
 * on the same file.
 *
 *   npm run bench:audit-browser                  # the full day (built and cached by the audit benchmark's code)
 *   npm run bench:audit-browser -- --quick       # a small day, for a smoke run
 *   npm run bench:audit-browser -- --no-baseline # skip the command-line run
 *
 * The page is served by a small static server here (public/ and the archive, gzip-encoded as the
 * Worker serves it): the audit fetches nothing else, so no Worker runtime is needed.
 */
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { extname, join, normalize } from "node:path";
import { launchBrowser } from "../../test/support/browser";
import { buildSite } from "../build-site";
import { ROOT } from "./field-cache";
import { flagOption } from "./bench-options";
import { buildArchive, log } from "./audit-day";

const GAME = "day-2031-01-01";
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".map": "application/json" };

function serve(archiveGz: Buffer): Promise<{ server: Server; base: string }> {
  const pub = join(ROOT, "public");
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (path === `/api/archives/${GAME}`) {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": archiveGz.length });
      return void res.end(archiveGz);
    }
    if (path.startsWith("/api/")) {
      res.writeHead(404, { "content-type": "application/json" });
      return void res.end('{"error":"not served by the benchmark"}');
    }
    const file = normalize(join(pub, path));
    const target = file.startsWith(pub) && existsSync(file) && statSync(file).isFile() ? file : join(pub, "index.html");
    res.writeHead(200, { "content-type": TYPES[extname(target)] ?? "application/octet-stream" });
    res.end(readFileSync(target));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

// ---- the browser's processes, from /proc ----------------------------------------------------------

interface Proc {
  pid: number;
  ppid: number;
  renderer: boolean;
  rssKb: number;
  cpuTicks: number;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8");
      out.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        renderer: cmd.includes("--type=renderer"),
        rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
        cpuTicks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

/** The processes descending from this one (the Chromium this benchmark launched). */
function ours(all: Proc[]): Proc[] {
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) (mine.add(p.pid), (grew = true));
  }
  return all.filter((p) => p.pid !== process.pid && mine.has(p.pid));
}

// ---- the run ----------------------------------------------------------------------------------

interface PageResult {
  phase: string;
  verdict?: string;
  workers: number;
  cores: number;
  auditMs: number;
  steps: Array<{ check: string; status: string; ms?: number; summary?: string }>;
  longTasks: number[];
  longestDuring: number;
  jsHeapMb: number;
}

async function browserAudit(base: string): Promise<{ page: PageResult; peakRendererMb: number; peakBrowserMb: number; cpuS: number; wallMs: number; mainBusy: { seconds: number; of: number } }> {
  const browser = await launchBrowser();
  let peakRenderer = 0;
  let peakBrowser = 0;
  const sample = (): void => {
    const mine = ours(processes());
    peakRenderer = Math.max(peakRenderer, mine.filter((p) => p.renderer).reduce((n, p) => n + p.rssKb, 0));
    peakBrowser = Math.max(peakBrowser, mine.reduce((n, p) => n + p.rssKb, 0));
  };
  const ticks = (): number => ours(processes()).reduce((n, p) => n + p.cpuTicks, 0);
  const timer = setInterval(sample, 200);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    // Every main-thread task over 50 ms, with its start, from the first script on.
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: Array<[number, number]> };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: "longtask", buffered: true });
    });
    const t0 = Date.now();
    const cpu0 = ticks();
    // The main thread's own busy time (Chromium's TaskDuration) from the audit's start to its verdict.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const taskSeconds = async (): Promise<number> => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
    await page.goto(`${base}/replay/${GAME}`);
    await page.waitForFunction(() => window.mosaic?.audit !== undefined && performance.now() > 0, undefined, { timeout: 600_000, polling: 50 });
    const busy0 = await taskSeconds();
    const w0 = Date.now();
    await page.waitForFunction(
      () => {
        const a = window.mosaic?.audit as { state: () => { phase: string } } | undefined;
        return a !== undefined && !["reading", "running"].includes(a.state().phase);
      },
      undefined,
      { timeout: 1_800_000, polling: 1000 },
    );
    const wallMs = Date.now() - t0;
    const mainBusy = { seconds: (await taskSeconds()) - busy0, of: (Date.now() - w0) / 1000 };
    const cpuS = (ticks() - cpu0) / 100;
    sample();
    const result = await page.evaluate(() => {
      const s = (window.mosaic!.audit as { state: () => { phase: string; verdict?: string; workers: number; startedAt: number; endedAt?: number; steps: Array<{ check: string; status: string; result?: { ms: number; summary: string } }> } }).state();
      const long = (window as unknown as { __longTasks: Array<[number, number]> }).__longTasks;
      // The tasks of the audit's run: from its start (a task of its own, after the replay's first paint) to its verdict.
      const during = long.filter(([start]) => start >= s.startedAt && start <= (s.endedAt ?? Infinity)).map(([, d]) => d);
      const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      return {
        phase: s.phase,
        verdict: s.verdict,
        workers: s.workers,
        cores: navigator.hardwareConcurrency,
        auditMs: (s.endedAt ?? performance.now()) - s.startedAt,
        steps: s.steps.map((x) => ({ check: x.check, status: x.status, ms: x.result?.ms, summary: x.result?.summary })),
        longTasks: long.map(([, d]) => Math.round(d)),
        longestDuring: Math.max(0, ...during),
        jsHeapMb: memory ? Math.round(memory.usedJSHeapSize / 1e6) : 0,
      };
    });
    return { page: result, peakRendererMb: Math.round(peakRenderer / 1024), peakBrowserMb: Math.round(peakBrowser / 1024), cpuS, wallMs, mainBusy };
  } finally {
    clearInterval(timer);
    await browser.close();
  }
}

function cliAudit(file: string): Promise<{ wallMs: number; cpuMs: number; maxRssMb: number; ok: boolean }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", "tsx", join(ROOT, "scripts/audit.ts"), file, "--json"], { cwd: ROOT, maxBuffer: 1 << 26 }, (_err, stdout, stderr) => {
      try {
        const r = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as { ok: boolean; cpu_ms: number; max_rss_mb: number };
        resolve({ wallMs: Date.now() - t0, cpuMs: r.cpu_ms, maxRssMb: r.max_rss_mb, ok: r.ok });
      } catch {
        reject(new Error(`npm run audit failed: ${stderr.slice(-2000)}`));
      }
    });
  });
}

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");

async function main(): Promise<void> {
  log(`browser audit benchmark: ${cpus().length} CPUs, load average ${load()} at start`);
  const archive = await buildArchive();
  log(`archive: ${archive.tiles} tiles, ${archive.rings} rings, ${archive.events} events; ${(archive.rawBytes / 1e6).toFixed(1)} MB raw, ${(statSync(archive.file).size / 1e6).toFixed(1)} MB gzip`);
  await buildSite();
  const { server, base } = await serve(readFileSync(archive.file));
  try {
    const loadBefore = load();
    const run = await browserAudit(base);
    const p = run.page;
    log(`browser audit: ${p.phase} (${p.verdict ?? "no verdict"}) in ${s(p.auditMs)} (page load to verdict ${s(run.wallMs)}), load average ${loadBefore} → ${load()}`);
    for (const step of p.steps) log(`    ${step.check.padEnd(13)} ${step.status.padEnd(7)} ${step.ms !== undefined ? s(step.ms).padStart(8) : "".padStart(8)}  ${step.summary ?? ""}`);
    log(`    cores the browser reports: ${p.cores}; threads regenerating: ${p.workers} (the audit's worker and ${p.workers - 1} more Web Workers); Chromium CPU over the run: ${run.cpuS.toFixed(1)} s`);
    log(`    main thread busy ${run.mainBusy.seconds.toFixed(2)} s of the audit's ${run.mainBusy.of.toFixed(0)} s (Chromium's TaskDuration)`);
    log(`    main thread: longest task while the audit ran ${Math.round(p.longestDuring)} ms; all long tasks of the page (load included): ${p.longTasks.length ? p.longTasks.join(", ") : "none"} ms`);
    log(`    peak memory: renderer process (page and its workers) ${run.peakRendererMb} MB; every Chromium process ${run.peakBrowserMb} MB; main thread's JS heap at the end ${p.jsHeapMb} MB`);
    let cli: Awaited<ReturnType<typeof cliAudit>> | null = null;
    if (!flagOption("no-baseline")) {
      cli = await cliAudit(archive.file);
      log(`baseline, npm run audit on the same file: ${cli.ok ? "PASS" : "FAIL"} in ${s(cli.wallMs)} wall, ${s(cli.cpuMs)} CPU, peak memory ${cli.maxRssMb} MB`);
    }
    log("");
    log("| measure | figure | target |");
    log("|---|---|---|");
    const ratio = cli ? ` (${(p.auditMs / cli.wallMs).toFixed(2)}× npm run audit's ${s(cli.wallMs)})` : "";
    log(`| browser audit, synthetic full day | ${s(p.auditMs)}${ratio}, ${run.cpuS.toFixed(1)} s CPU, ${p.workers} threads regenerating on ${p.cores} cores | — |`);
    log(`| longest main-thread task while auditing | ${Math.round(p.longestDuring)} ms | ≤ 50 ms |`);
    log(`| page's peak memory (renderer) | ${run.peakRendererMb} MB | < 1 GB |`);
    log(`load average at the end: ${load()}`);
    if (p.phase !== "passed" || (cli && !cli.ok)) process.exitCode = 1;
  } finally {
    server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
