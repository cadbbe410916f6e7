// The complete audit in headless Chromium (SPEC §9): the replay page runs the five checks of
// `npm run audit` in Web Workers. On a small real day (a grown ring, four machines, one death) every
// tampering the auditor knows fails in the browser with the command's own verdict line, word for
// word; a field that is honest in every way but the seed's (only the regeneration can tell) fails
// the regeneration alone; a run can be cancelled and started again, with heads the reader pasted.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Archive } from "../../src/daily/archive/format";
import { canonicalJson } from "../../src/engine/canonical-json";
import { auditArchive } from "../../src/daily/audit/audit";
import type { AuditedArchive } from "../../src/daily/audit/event-log";
import { ArchiveFormatError, readArchive } from "../../src/daily/audit/read-archive";
import { readingFailureLine, verdictLine } from "../../src/daily/audit/report-text";
import { parseHead } from "../../src/daily/audit/saved";
import { browserPerFile, openPage, PHONE, screenshot, type WatchedPage } from "../support/browser";
import { buildTestDay, copy, fieldsOfSeed, rechain, resign } from "../support/test-day";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();
const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mosaic-site-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let text: string;
let archive: Archive;
let otherField: string;

beforeAll(async () => {
  text = (await buildTestDay()).text;
  archive = JSON.parse(text) as Archive;
  // The same day played on a field of another seed, committed, hashed and chained honestly.
  otherField = (await buildTestDay({ fields: fieldsOfSeed("0d".repeat(32)) })).text;
}, 600_000);

interface StepView {
  check: string;
  status: string;
  line?: string;
}
interface AuditView {
  phase: string;
  steps: StepView[];
  verdict?: string;
  workers: number;
}

const auditState = (w: WatchedPage): Promise<AuditView> =>
  w.page.evaluate(() => {
    const s = (window.mosaic!.audit as { state: () => AuditView }).state();
    return { phase: s.phase, steps: s.steps.map((x) => ({ check: x.check, status: x.status, line: x.line })), verdict: s.verdict, workers: s.workers };
  });

/** Opens the replay of the test day with the archive route answering `body`, and waits for the audit's end. */
async function openAudit(body: string, options: { viewport?: { width: number; height: number }; wait?: boolean; watchMessages?: boolean } = {}): Promise<WatchedPage> {
  const w = await openPage(browser(), baseUrl, "/favicon.svg", options.viewport ? { viewport: options.viewport } : {});
  if (options.watchMessages) await w.page.addInitScript(watchWorkerMessages);
  await w.page.route(`**/api/archives/${archive.game_id}`, (r) => r.fulfill({ status: 200, contentType: "application/json", body }));
  await w.page.goto(`${baseUrl}/replay/${archive.game_id}`);
  if (options.wait !== false) await untilEnded(w);
  return w;
}

async function untilEnded(w: WatchedPage): Promise<AuditView> {
  await w.page.waitForFunction(() => {
    const a = window.mosaic?.audit as { state: () => { phase: string } } | undefined;
    return a !== undefined && !["reading", "running"].includes(a.state().phase);
  }, undefined, { timeout: 120_000 });
  return auditState(w);
}

/** What crossed between the page and its workers: each message's size as JSON, and its binary parts. */
interface WorkerMessage {
  way: "to worker" | "from worker";
  kind: string;
  jsonBytes: number;
  binaryBytes: number;
  /** Binary bytes whose buffer went in the transfer list (moved, not copied). */
  transferredBytes: number;
}

/**
 * Installed before the page's script: wraps `Worker` so that every message the page posts to a
 * worker or receives from one is measured. Whatever a worker posts is deserialised on the main
 * thread, in one task: a large payload there is a long task however fast the machine.
 */
function watchWorkerMessages(): void {
  const seen: WorkerMessage[] = [];
  (window as unknown as { workerMessages: WorkerMessage[] }).workerMessages = seen;
  const measure = (way: WorkerMessage["way"], data: unknown, transfer: readonly unknown[]): WorkerMessage => {
    let binaryBytes = 0;
    let transferredBytes = 0;
    const json = JSON.stringify(data, (_key, value: unknown) => {
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
        const buffer = value instanceof ArrayBuffer ? value : value.buffer;
        binaryBytes += value.byteLength;
        if (transfer.includes(buffer)) transferredBytes += value.byteLength;
        return null;
      }
      return value;
    });
    const kind = typeof data === "object" && data !== null && "kind" in data ? String((data as { kind: unknown }).kind) : typeof data;
    return { way, kind, jsonBytes: json?.length ?? 0, binaryBytes, transferredBytes };
  };
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.addEventListener("message", (e) => seen.push(measure("from worker", e.data, [])));
    }
    override postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
      const list = Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []);
      // Measured before posting: a transferred buffer is empty afterwards.
      seen.push(measure("to worker", message, list));
      super.postMessage(message, list);
    }
  };
}

/** `npm run audit` on the same bytes: its last line is the verdict. */
function cliVerdict(body: string, name: string, ...args: string[]): Promise<string> {
  const file = join(dir, `${name.replace(/\W+/g, "-")}.json`);
  writeFileSync(file, body);
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", join(root, "scripts/audit.ts"), file, "--threads", "1", ...args], { cwd: root, maxBuffer: 1 << 24 }, (_err, stdout) => {
      resolve(stdout.trim().split("\n").at(-1) ?? "");
    });
  });
}

/**
 * The verdict the command prints, worked out in this process with the command's own module and
 * wording (the unit tests hold the command to printing exactly this): spawning the command costs
 * seconds per archive, so only a few cases below run it for real as well.
 */
async function verdictOf(body: string, heads: string[] = []): Promise<string> {
  let read: AuditedArchive;
  try {
    read = await readArchive(new TextEncoder().encode(body));
  } catch (err) {
    if (err instanceof ArchiveFormatError) return readingFailureLine(err.message);
    throw err;
  }
  return verdictLine(await auditArchive(read, { heads: heads.map((h) => parseHead(h)) }));
}

const flip = (s: string, i: number): string => s.slice(0, i) + (s[i] === "0" ? "1" : "0") + s.slice(i + 1);

/** Each of the auditor's tamper kinds (test/unit/daily/audit.test.ts), as bytes, and the check it must fail. */
const TAMPERS: Array<[string, () => Promise<string>, string, "command"?]> = [
  ["a flipped solution bit", async () => {
    const a = copy(archive);
    a.tiles[3].solution = flip(a.tiles[3].solution, 0);
    return JSON.stringify(a);
  }, "regeneration"],
  ["a flipped solution bit re-signed with the released key", async () => {
    const a = copy(archive);
    a.tiles[3].solution = flip(a.tiles[3].solution, 5);
    await resign(a, 3);
    return JSON.stringify(a);
  }, "regeneration"],
  ["a changed given of the grown ring, re-signed", async () => {
    const a = copy(archive);
    const t = a.tiles[a.tiles.length - 2];
    t.givens = flip(t.givens, t.givens.indexOf("0"));
    await resign(a, t.id);
    return JSON.stringify(a);
  }, "regeneration"],
  ["a wrong key", async () => JSON.stringify({ ...copy(archive), day_key: `00${archive.day_key.slice(2)}` }), "commitments"],
  ["a wrong seed", async () => JSON.stringify({ ...copy(archive), day_seed: `f${archive.day_seed.slice(1)}` }), "commitments"],
  ["a relabelled day", async () => JSON.stringify({ ...copy(archive), day: "2031-01-09" }), "commitments"],
  ["an edited event", async () => {
    const a = copy(archive);
    const e = a.events.filter((x) => x.type === "commit")[10];
    e.intent = `${String(e.intent)}!`;
    return JSON.stringify(a);
  }, "chain", "command"],
  ["an edited verdict, re-chained", async () => {
    const a = copy(archive);
    const e = a.events.find((x) => x.type === "commit" && (x.accepted as Array<{ class: string }>).some((c) => c.class === "guess"))!;
    const cell = (e.accepted as Array<Record<string, unknown>>).find((c) => c.class === "guess")!;
    cell.class = "forced";
    cell.rule = "run";
    await rechain(a, e.rev - 1);
    return JSON.stringify(a);
  }, "replay", "command"],
  ["a changed reward, re-chained", async () => {
    const a = copy(archive);
    const e = a.events.find((x) => x.type === "commit" && Number(x.reward) > 0)!;
    e.reward = Number(e.reward) + 1;
    await rechain(a, e.rev - 1);
    return JSON.stringify(a);
  }, "replay"],
  ["a changed score", async () => {
    const a = copy(archive);
    a.scores[1].reward += 5;
    return JSON.stringify(a);
  }, "replay"],
  ["a changed health row", async () => {
    const a = copy(archive);
    a.health[0].state = "healthy";
    return JSON.stringify(a);
  }, "replay"],
  ["a changed solver", async () => {
    const a = copy(archive);
    a.tiles.find((t) => t.status === "solved")!.agent = "m-0000000000000000/1";
    return JSON.stringify(a);
  }, "replay"],
  ["a reordered log", async () => {
    const a = copy(archive);
    [a.events[40], a.events[41]] = [a.events[41], a.events[40]];
    return JSON.stringify(a);
  }, "chain"],
  ["a reordered log, renumbered and re-chained", async () => {
    const a = copy(archive);
    [a.events[0], a.events[1]] = [{ ...a.events[1], rev: 1 }, { ...a.events[0], rev: 2 }];
    await rechain(a, 0);
    return JSON.stringify(a);
  }, "replay"],
  ["a dropped event", async () => {
    const a = copy(archive);
    a.events.splice(a.events.filter((x) => x.type === "commit")[20].rev - 1, 1);
    return JSON.stringify(a);
  }, "chain"],
  ["a truncated log", async () => {
    const a = copy(archive);
    a.events.length -= 10;
    const last = a.events.at(-1)!;
    a.log_head = { hash: last.hash, rev: last.rev };
    return JSON.stringify(a);
  }, "chain"],
  ["truncated bytes", async () => text.slice(0, Math.floor(text.length * 0.7)), "reading", "command"],
  ["a member name written twice in one event", async () => {
    const line = canonicalJson(archive.events.find((e) => e.type === "reveal")!);
    return text.replace(line, line.replace('"intent":', '"intent":"FAKE","intent":'));
  }, "reading"],
];

describe("the complete audit in the browser", () => {
  it("passes all five checks on a real day, in Web Workers, on a phone too, fetching nothing else", async () => {
    const w = await openAudit(text, { viewport: PHONE });
    try {
      const s = await auditState(w);
      expect(s.phase).toBe("passed");
      expect(s.steps.map((x) => [x.check, x.status])).toEqual(["commitments", "regeneration", "hashes", "chain", "replay"].map((c) => [c, "passed"]));
      // One regenerating thread per core the browser reports: the audit's worker and one Web Worker per other core
      // (at most one per piece: the initial field and 1 ring).
      const cores = await w.page.evaluate(() => navigator.hardwareConcurrency);
      expect(s.workers).toBe(Math.min(16, cores));
      expect(s.steps[1].line).toMatch(new RegExp(`^\\[2/5\\] regeneration +ok +${archive.tiles.length} tiles identical to the field regenerated from day_seed \\(initial field \\+ 1 ring\\); (in one thread|${Math.min(cores - 1, 2)} Web Workers?( and the audit's own worker \\(1 piece\\))?)`));
      expect(s.verdict).toBe("PASS: 5 checks hold");
      expect(await w.page.locator(".verify").innerText()).toMatch(/^✓ Verified in this browser: all five checks passed/);
      expect(await w.page.locator("#status").innerText()).toMatch(/archive verified/);
      // The Audit tab on a phone: every step's line fits the width, nothing scrolls sideways.
      await w.page.getByRole("tab", { name: "Audit" }).click();
      expect(await w.page.locator(".audit-step .audit-status").allInnerTexts()).toEqual(Array(5).fill(expect.stringMatching(/^✓ passed/)));
      expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(w.page, "audit-phone");
      expect(w.foreignRequests).toEqual([]);
      expect(w.errors).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it("keeps the audit's data in its workers: the archive is moved to them, and only small messages come back", async () => {
    const w = await openAudit(text, { watchMessages: true });
    try {
      expect((await auditState(w)).phase).toBe("passed");
      const messages = await w.page.evaluate(() => (window as unknown as { workerMessages: WorkerMessage[] }).workerMessages);
      // The archive's bytes go to the audit worker once, moved: the page keeps no copy.
      const sent = messages.filter((m) => m.way === "to worker");
      expect(sent.filter((m) => m.binaryBytes > 0)).toEqual([expect.objectContaining({ kind: "open", binaryBytes: text.length, transferredBytes: text.length })]);
      expect(Math.max(...sent.map((m) => m.jsonBytes))).toBeLessThan(4096);
      // What comes back is progress, each check's result and the verdict: no bytes, nothing near
      // the size of the day's tiles or log (which would be parsed on the main thread).
      const received = messages.filter((m) => m.way === "from worker");
      expect(new Set(received.map((m) => m.kind))).toEqual(new Set(["read", "progress", "check", "done"]));
      expect(received.filter((m) => m.binaryBytes > 0)).toEqual([]);
      expect(Math.max(...received.map((m) => m.jsonBytes))).toBeLessThan(16_384);
      expect(text.length).toBeGreaterThan(20 * 16_384);
    } finally {
      await w.context.close();
    }
  });

  it("fails a field that is honest in every way but the seed's: only the regeneration catches it", async () => {
    const w = await openAudit(otherField);
    try {
      const s = await auditState(w);
      expect(s.phase).toBe("failed");
      expect(s.steps.map((x) => [x.check, x.status])).toEqual([
        ["commitments", "passed"],
        ["regeneration", "failed"],
        ["hashes", "passed"],
        ["chain", "passed"],
        ["replay", "passed"],
      ]);
      expect(s.verdict).toBe(await cliVerdict(otherField, "other-field"));
      expect(s.verdict).toMatch(/^FAIL: regeneration: tile 0: \w+ differs from the regenerated field/);
      expect(await w.page.locator(".verify").innerText()).not.toMatch(/Verified/);
      await w.page.getByRole("tab", { name: "Audit" }).click();
      await screenshot(w.page, "audit-other-field");
    } finally {
      await w.context.close();
    }
  });

  for (const [name, make, check, command] of TAMPERS) {
    it(`fails ${name} with the command's message (${check})`, async () => {
      const body = await make();
      const [cli, w] = await Promise.all([verdictOf(body), openAudit(body)]);
      if (command) expect(await cliVerdict(body, name)).toBe(cli);
      try {
        const s = await auditState(w);
        expect(s.phase).toBe(check === "reading" ? "unreadable" : "failed");
        expect(cli).toMatch(check === "reading" ? /^FAIL: reading: / : /^FAIL: /);
        expect(s.verdict).toBe(cli);
        if (check !== "reading") expect(s.steps.find((x) => x.status === "failed")?.check).toBe(check);
        // The page shows the verdict as the command prints it, and never "Verified".
        expect(await w.page.locator(".audit-verdict").innerText()).toBe(cli);
        const bar = await w.page.locator(".verify").innerText();
        expect(bar).toMatch(/^✗ Tampered or corrupt archive: FAIL: /);
        expect(bar).not.toMatch(/Verified/);
        expect(await w.page.locator("#status").innerText()).toMatch(/DOES NOT VERIFY|cannot be read/);
      } finally {
        await w.context.close();
      }
    });
  }

  it("checks the heads a reader pastes, as --head does", async () => {
    const w = await openAudit(text);
    try {
      const mid = archive.events[200];
      const other = `${"ab".repeat(32)}@5`;
      await w.page.getByRole("tab", { name: "Audit" }).click();
      const box = w.page.getByLabel(/Log heads you noted/);
      // Not hash@revision: said at once, nothing run.
      await box.fill("not-a-head");
      await w.page.getByRole("button", { name: "Verify again" }).click();
      expect(await w.page.locator(".audit-heads-error").innerText()).toMatch(/expected HASH@REV/);
      expect((await auditState(w)).phase).toBe("passed");
      // A head on the chain passes, and the chain's line counts it.
      await box.fill(`${mid.hash}@${mid.rev}\n${archive.seed_commit}@0`);
      await w.page.getByRole("button", { name: "Verify again" }).click();
      const ok = await untilEnded(w);
      expect(ok.phase).toBe("passed");
      expect(ok.steps[3].line).toContain("2 noted heads on it");
      // A head the archive does not extend fails the chain, in the command's words.
      await box.fill(other);
      await w.page.getByRole("button", { name: "Verify again" }).click();
      const bad = await untilEnded(w);
      expect(bad.phase).toBe("failed");
      expect(bad.verdict).toBe(await cliVerdict(text, "head", "--head", other));
      expect(bad.verdict).toMatch(/^FAIL: hash chain: --head (ab){32}@5 is not on the archived chain/);
    } finally {
      await w.context.close();
    }
  });

  it("can be cancelled, says nothing is verified, and starts again", async () => {
    const w = await openAudit(text, { wait: false });
    try {
      // Cancelled while the regeneration runs.
      await w.page.waitForFunction(() => {
        const a = window.mosaic?.audit as { state: () => { steps: Array<{ check: string; status: string }> } } | undefined;
        return a?.state().steps.some((s) => s.check === "regeneration" && s.status === "running") === true;
      }, undefined, { timeout: 60_000 });
      await w.page.evaluate(() => (window.mosaic!.audit as { cancel: () => void }).cancel());
      const cancelled = await untilEnded(w);
      expect(cancelled.phase).toBe("cancelled");
      expect(cancelled.steps.some((x) => x.status === "not run")).toBe(true);
      expect(await w.page.locator(".verify").innerText()).toMatch(/^Audit cancelled: not verified/);
      expect(await w.page.evaluate(() => (window.mosaic!.replay as { verified: boolean | null }).verified)).toBeNull();
      // Started again from the Audit tab: all five pass.
      await w.page.getByRole("tab", { name: "Audit" }).click();
      await w.page.getByRole("button", { name: "Verify again" }).click();
      const again = await untilEnded(w);
      expect(again.phase).toBe("passed");
      expect(again.steps.every((x) => x.status === "passed")).toBe(true);
      // Cancelled from its button this time, then once more to the end.
      await w.page.getByRole("button", { name: "Verify again" }).click();
      await w.page.getByRole("button", { name: "Cancel" }).click();
      expect((await untilEnded(w)).phase).toBe("cancelled");
      await w.page.getByRole("button", { name: "Verify again" }).click();
      expect((await untilEnded(w)).phase).toBe("passed");
      expect(w.errors).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});
