/**
 * The browser audit's benchmark (issue 31): the replay page audits the synthetic full day (the
 * archive of `npm run bench:audit`, audit-day.ts) in headless Chromium, all five checks in Web
 * Workers. Prints the audit's time, the regeneration's workers (one per core the browser reports),
 * the main thread's tasks over 50 ms while it ran, each with the time the thread actually ran in it
 * and what ran (from a Chromium trace and a CPU profile: on a loaded machine a task can last 100 ms
 * while the thread runs for 5), the main thread's busy time, the page's peak memory (its renderer
 * process, which holds the page and its workers) and, as the baseline measured in the same run,
 * `npm run audit` on the same file.
 *
 *   npm run bench:audit-browser                  # the full day (built and cached by the audit benchmark's code)
 *   npm run bench:audit-browser -- --quick       # a small day, for a smoke run
 *   npm run bench:audit-browser -- --no-baseline # skip the command-line run
 *   npm run bench:audit-browser -- --save-trace t.json  # keep the Chromium trace (open it in the DevTools' Performance panel)
 *   npm run bench:audit-browser -- --unminified  # the site's bundles unminified: the CPU profile names functions
 *
 * The page is served by a small static server here (public/ and the archive, gzip-encoded as the
 * Worker serves it): the audit fetches nothing else, so no Worker runtime is needed.
 */
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, existsSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { extname, join, normalize } from "node:path";
import { launchBrowser } from "../../test/support/browser";
import { buildSite } from "../build-site";
import { ROOT } from "./field-cache";
import { flagOption, textOption } from "./bench-options";
import { buildArchive, log } from "./audit-day";
import { traceEventsOf } from "./live-page-trace";
import { mainThreadTasks, pageClockOrigin, type CpuProfile, type MainThreadTasks } from "./main-thread-tasks";

const GAME = "day-2031-01-01";
/** Trace categories: tasks with their thread time, and what ran in them (script, GC, style, layout, paint). */
const TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing"];
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
  /** Resident memory of its own (anonymous and shared-memory pages): what Chromium's task manager calls its footprint, without the shared libraries' pages every process maps. */
  privateKb: number;
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
        privateKb: Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) + Number(/RssShmem:\s+(\d+)/.exec(status)?.[1] ?? 0),
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
  startedAt: number;
  endedAt: number;
  auditMs: number;
  steps: Array<{ check: string; status: string; ms?: number; summary?: string }>;
  longTasks: number[];
  longestDuring: number;
  jsHeapMb: number;
}

interface BrowserRun {
  page: PageResult;
  peakRendererMb: number;
  peakBrowserMb: number;
  /** The page's renderer process alone: its private memory, and its resident set (shared libraries included). */
  peakPagePrivateMb: number;
  peakPageRssMb: number;
  /** The page process's private peak before the audit started (the page's load, the replay's parse and first paint). */
  peakBeforeAuditMb: number;
  /** When the page process's private peak came (s from the page's load) and what the audit was doing then. */
  peakAt: { s: number; doing: string };
  memoryTimeline: number[];
  cpuS: number;
  wallMs: number;
  tasks: MainThreadTasks;
}

/** What the audit is doing, in a few words (for the memory timeline). */
function doingNow(): { phase: string; doing: string } {
  const a = window.mosaic?.audit as { state: () => { phase: string; steps: Array<{ check: string; status: string; done: number; total: number }> } } | undefined;
  if (!a) return { phase: "loading", doing: "loading the page and the replay" };
  const s = a.state();
  const running = s.steps.filter((x) => x.status === "running").map((x) => `${x.check} ${Math.floor((100 * x.done) / Math.max(1, x.total))} %`);
  return { phase: s.phase, doing: `${s.phase}${running.length ? `: ${running.join(", ")}` : ""}` };
}

async function browserAudit(base: string): Promise<BrowserRun> {
  const browser = await launchBrowser();
  const t0 = Date.now();
  let peakRenderer = 0;
  let peakRendererAt = 0;
  let peakBrowser = 0;
  let auditStartedAt = Infinity;
  let peakBeforeAudit = 0;
  // The page's own renderer process (the one with the most memory of its own: Chromium keeps spare
  // renderers too): its private memory and its whole resident set.
  let peakPagePrivate = 0;
  let peakPageRss = 0;
  /** The page process's own memory every 5 s from the page's load (MB). */
  const memoryTimeline: number[] = [];
  const sample = (): void => {
    const mine = ours(processes());
    const renderers = mine.filter((p) => p.renderer);
    const renderer = renderers.reduce((n, p) => n + p.rssKb, 0);
    const pageProcess = renderers.sort((a, b) => b.privateKb - a.privateKb)[0];
    peakPageRss = Math.max(peakPageRss, pageProcess?.rssKb ?? 0);
    peakRenderer = Math.max(peakRenderer, renderer);
    const own = pageProcess?.privateKb ?? 0;
    if (Date.now() - t0 >= memoryTimeline.length * 5000) memoryTimeline.push(Math.round(own / 1024));
    if (own > peakPagePrivate) (peakPagePrivate = own), (peakRendererAt = Date.now() - t0);
    if (Date.now() - t0 < auditStartedAt) peakBeforeAudit = Math.max(peakBeforeAudit, own);
    peakBrowser = Math.max(peakBrowser, mine.reduce((n, p) => n + p.rssKb, 0));
  };
  const ticks = (): number => ours(processes()).reduce((n, p) => n + p.cpuTicks, 0);
  const timer = setInterval(sample, 200);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    // tsx compiles the functions handed to the page with esbuild's keepNames, which calls `__name`.
    await page.addInitScript("globalThis.__name ??= (f) => f;");
    // Every main-thread task over 50 ms as the page itself sees them, from the first script on.
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: Array<[number, number]> };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: "longtask", buffered: true });
    });
    // A trace (each main-thread task's wall and thread time, and what ran in it) and a CPU profile
    // of the main thread's JavaScript, over the whole run; cut to the audit's window afterwards.
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
    await cdp.send("Profiler.start");
    const cpu0 = ticks();
    await page.goto(`${base}/replay/${GAME}`);
    const timeline: Array<[number, string]> = [];
    for (;;) {
      // Asked over the protocol directly: a Playwright evaluate first injects its own script into
      // the page, a main-thread task of its own (200 ms of CPU once under load) inside the audit.
      const answer = (await cdp.send("Runtime.evaluate", { expression: `(${doingNow.toString()})()`, returnByValue: true })) as { result: { value?: { phase: string; doing: string } } };
      const now = answer.result.value ?? { phase: "loading", doing: "loading the page and the replay" };
      timeline.push([Date.now() - t0, now.doing]);
      if (now.phase !== "loading" && auditStartedAt === Infinity) auditStartedAt = Date.now() - t0;
      if (!["loading", "reading", "running"].includes(now.phase)) break;
      if (Date.now() - t0 > 1_800_000) throw new Error("the audit took over 30 minutes");
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const wallMs = Date.now() - t0;
    const cpuS = (ticks() - cpu0) / 100;
    sample();
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    const trace = await browser.stopTracing();
    const saveTo = textOption("save-trace");
    if (saveTo) writeFileSync(saveTo, trace);
    const events = traceEventsOf(trace);
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
        startedAt: s.startedAt,
        endedAt: s.endedAt ?? performance.now(),
        auditMs: (s.endedAt ?? performance.now()) - s.startedAt,
        steps: s.steps.map((x) => ({ check: x.check, status: x.status, ms: x.result?.ms, summary: x.result?.summary })),
        longTasks: long.map(([, d]) => Math.round(d)),
        longestDuring: Math.max(0, ...during),
        jsHeapMb: memory ? Math.round(memory.usedJSHeapSize / 1e6) : 0,
      };
    });
    const origin = pageClockOrigin(events, `/replay/${GAME}`);
    const tasks = origin === null ? mainThreadTasks([], 0, 0, null) : mainThreadTasks(events, origin + result.startedAt * 1000, origin + result.endedAt * 1000, profile);
    const doing = [...timeline].reverse().find(([at]) => at <= peakRendererAt)?.[1] ?? "loading the page and the replay";
    return {
      page: result,
      peakRendererMb: Math.round(peakRenderer / 1024),
      peakBrowserMb: Math.round(peakBrowser / 1024),
      peakPagePrivateMb: Math.round(peakPagePrivate / 1024),
      peakPageRssMb: Math.round(peakPageRss / 1024),
      peakBeforeAuditMb: Math.round(peakBeforeAudit / 1024),
      peakAt: { s: peakRendererAt / 1000, doing },
      memoryTimeline,
      cpuS,
      wallMs,
      tasks,
    };
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
  await buildSite({ minify: !flagOption("unminified") });
  const { server, base } = await serve(readFileSync(archive.file));
  try {
    const loadBefore = load();
    const run = await browserAudit(base);
    const p = run.page;
    log(`browser audit: ${p.phase} (${p.verdict ?? "no verdict"}) in ${s(p.auditMs)} (page load to verdict ${s(run.wallMs)}), load average ${loadBefore} → ${load()}`);
    for (const step of p.steps) log(`    ${step.check.padEnd(13)} ${step.status.padEnd(7)} ${step.ms !== undefined ? s(step.ms).padStart(8) : "".padStart(8)}  ${step.summary ?? ""}`);
    log(`    cores the browser reports: ${p.cores}; threads regenerating: ${p.workers} (the audit's worker and ${p.workers - 1} more Web Workers); Chromium CPU over the run: ${run.cpuS.toFixed(1)} s`);
    const t = run.tasks;
    const auditS = p.auditMs / 1000;
    log(`    main thread while the audit ran (trace): ${t.tasks} tasks, busy ${t.busyWall.toFixed(2)} s of wall time, ${t.busyCpu.toFixed(2)} s of its own CPU time, of the audit's ${auditS.toFixed(1)} s; JavaScript sampled ${t.jsMs} ms`);
    if (t.functions.length) log(`      JavaScript by function: ${t.functions.map((f) => `${f.name} ${f.ms} ms`).join(", ")}`);
    log(`    tasks over 50 ms while the audit ran: ${t.long.length} by wall time, ${t.longByCpu} by the thread's CPU time${t.long.length > t.longByCpu ? " (the others lasted while the thread waited to be scheduled)" : ""}; the page's own observer saw a longest of ${Math.round(p.longestDuring)} ms`);
    for (const l of t.long.slice(0, 12)) {
      const what = [...l.events.map((e) => `${e.name} ${e.ms} ms`), ...l.functions.map((f) => `js ${f.name} ${f.ms} ms`)].join(", ");
      log(`      at +${(l.at / 1000).toFixed(1)} s: ${l.wallMs} ms wall, ${l.cpuMs} ms CPU: ${what}`);
    }
    log(`    all long tasks of the page (load included): ${p.longTasks.length ? p.longTasks.join(", ") : "none"} ms`);
    log(`    peak memory: the page's renderer process (the page and its workers) ${run.peakPagePrivateMb} MB of its own, ${run.peakPageRssMb} MB resident with the shared libraries; the peak of its own at +${run.peakAt.s.toFixed(1)} s (${run.peakAt.doing}), ${run.peakBeforeAuditMb} MB before the audit started; every renderer process summed ${run.peakRendererMb} MB; every Chromium process ${run.peakBrowserMb} MB; main thread's JS heap at the end ${p.jsHeapMb} MB`);
    log(`    the page process's own memory every 5 s from the page's load: ${run.memoryTimeline.join(", ")} MB`);
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
    const longest = Math.max(0, ...t.long.map((l) => l.wallMs));
    const longestCpu = Math.max(0, ...t.long.map((l) => l.cpuMs));
    log(`| main-thread tasks over 50 ms while auditing | ${t.long.length} (${t.longByCpu} over 50 ms of CPU); longest ${longest} ms wall${t.long.length ? `, the longest's CPU ${t.long.find((l) => l.wallMs === longest)?.cpuMs} ms, most CPU in one ${longestCpu} ms` : ""} | none over 50 ms |`);
    log(`| main thread busy while auditing | ${t.busyWall.toFixed(2)} s wall, ${t.busyCpu.toFixed(2)} s CPU of ${auditS.toFixed(1)} s | — |`);
    log(`| page's peak memory | ${run.peakPagePrivateMb} MB private, ${run.peakPageRssMb} MB resident (its renderer process); ${run.peakRendererMb} MB every renderer's resident set summed | < 1 GB |`);
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
