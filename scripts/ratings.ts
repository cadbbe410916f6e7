/**
 * Recomputes every published history table from day archives alone (SPEC §11.1, docs/history.md
 * "Verifying").
 *
 *   npm run ratings -- <archive file | URL>… [--against URL] [--accounts FILE|URL] [--checks c,…]
 *   npm run ratings -- --against URL            (the server's own archives, from its listing)
 *
 * Each archive is read by the auditor's reader and checked (by default its commitments and its
 * hash chain from `seed_commit` to `log_head`; `--checks` names others, `all` all five) before
 * it counts: a tampered archive is refused, and nothing is printed. Then the day records, the
 * ratings, the leaderboards, every series and the downloads are computed by the same code as the
 * history's routes. Without `--against`, the tables are printed as one JSON object, path → the
 * route's JSON exactly as the server answers it. With `--against URL`, each table is fetched from
 * that server and compared byte for byte; the first difference is named.
 *
 * Accounts (SPEC §8.2) are not in the archives: with `--accounts` they are taken from a history
 * download (`/api/history/download.json`); without, every machine has none.
 *
 * Exit status: 0 all equal (or printed), 1 a refused archive or a difference, 2 bad arguments or
 * an unreadable source.
 */
import { readFileSync } from "node:fs";
import { auditArchive } from "../src/daily/audit/audit";
import { CHECK_TITLES, CHECKS, type CheckName } from "../src/daily/audit/mismatch";
import { ArchiveFormatError } from "../src/daily/audit/read-archive";
import { dayFromArchive } from "../src/history/from-archive";
import { HistoryTables } from "../src/history/tables";
import type { HistoryDay } from "../src/history/types";
import { fetchBytes, nodeHashing, readBytes, UnreadableSource } from "./archive-input";

const USAGE = `usage: npm run ratings -- <archive file | URL>… [--against URL] [--accounts FILE|URL] [--checks ${CHECKS.join(",")}|all]`;

const DEFAULT_CHECKS: CheckName[] = ["commitments", "chain"];

interface Args {
  sources: string[];
  against?: string;
  accounts?: string;
  checks: CheckName[];
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { sources: [], checks: DEFAULT_CHECKS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--against") args.against = value().replace(/\/+$/, "");
    else if (a === "--accounts") args.accounts = value();
    else if (a === "--checks") {
      const v = value();
      args.checks = v === "all" ? [...CHECKS] : (v.split(",") as CheckName[]);
      for (const c of args.checks) if (!CHECKS.includes(c)) throw new UsageError(`--checks: unknown check ${c} (checks: ${CHECKS.join(", ")}, or all)`);
    } else if (a === "--help" || a === "-h") throw new UsageError("");
    else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else args.sources.push(a);
  }
  if (args.sources.length === 0 && !args.against) throw new UsageError("");
  return args;
}

/** Thrown when an archive fails its checks: it must not count. */
class RefusedArchive extends Error {}

/** day → machine → account, from a history download. */
async function readAccounts(source: string): Promise<Map<string, Map<string, string | null>>> {
  const text = /^https?:\/\//i.test(source) ? await (await fetch(source)).text() : readFileSync(source, "utf8");
  const doc = JSON.parse(text) as { days?: Array<{ day: string; machines: Array<{ machine: string; account: string | null }> }> };
  if (!Array.isArray(doc.days)) throw new UsageError(`--accounts ${source}: not a history download (no days)`);
  return new Map(doc.days.map((d) => [d.day, new Map(d.machines.map((m) => [m.machine, typeof m.account === "string" ? m.account : null]))]));
}

/** One archive read, checked and turned into its day's record. */
async function dayOfSource(source: string, checks: readonly CheckName[], accounts?: Map<string, Map<string, string | null>>): Promise<HistoryDay> {
  let archive;
  try {
    archive = await readBytes(await fetchBytes(source));
  } catch (err) {
    if (err instanceof ArchiveFormatError) throw new RefusedArchive(`${source}: ${err.message}`);
    throw err;
  }
  const report = await auditArchive(archive, {}, { only: checks, failFast: true, hashing: nodeHashing });
  if (!report.ok) {
    const f = report.first;
    throw new RefusedArchive(`${source}: ${f ? `${CHECK_TITLES[f.check]}: ${f.message}` : "the checks did not all run"}`);
  }
  return dayFromArchive(archive, accounts?.get(archive.day));
}

/** Where two texts first differ, with a few characters of each around it. */
function firstDifference(ours: string, theirs: string): string {
  let i = 0;
  while (i < ours.length && i < theirs.length && ours.charCodeAt(i) === theirs.charCodeAt(i)) i++;
  const around = (s: string): string => JSON.stringify(s.slice(Math.max(0, i - 30), i + 50));
  return `at character ${i}: recomputed …${around(ours)}…, server …${around(theirs)}…`;
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error && err.message ? `${err.message}\n` : ""}${USAGE}\n`);
    return 2;
  }
  const t0 = Date.now();
  let sources = args.sources;
  if (sources.length === 0 && args.against) {
    const listing = (await (await fetch(`${args.against}/api/archives`)).json()) as { archives: Array<{ url: string }> };
    sources = listing.archives.map((a) => `${args.against}${a.url}`);
  }
  const accounts = args.accounts ? await readAccounts(args.accounts) : undefined;
  const days: HistoryDay[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
    const day = await dayOfSource(source, args.checks, accounts);
    const twice = seen.get(day.day);
    if (twice) throw new UsageError(`${source} and ${twice} are both archives of ${day.day}`);
    seen.set(day.day, source);
    days.push(day);
    process.stderr.write(`  ${day.game_id}: ${args.checks.join(", ")} hold; ${day.machines.length} machines\n`);
  }
  const tables = new HistoryTables(days);
  const paths = tables.publishedPaths();
  if (!args.against) {
    const members: string[] = [];
    for (const p of paths) {
      const a = await tables.answerUrl(p);
      if (a.contentType === "json") members.push(`${JSON.stringify(p)}:${a.body}`);
    }
    process.stdout.write(`{${members.join(",")}}\n`);
    process.stderr.write(`${paths.length} tables from ${days.length} archives in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    return 0;
  }
  for (const p of paths) {
    const ours = (await tables.answerUrl(p)).body;
    const res = await fetch(`${args.against}${p}`);
    const theirs = await res.text();
    if (res.status !== 200) {
      process.stdout.write(`DIFFERENT: ${p}: the server answers ${res.status} (${theirs.slice(0, 200)})\n`);
      return 1;
    }
    if (ours !== theirs) {
      process.stdout.write(`DIFFERENT: ${p}: ${firstDifference(ours, theirs)}\n`);
      return 1;
    }
  }
  process.stdout.write(`SAME: ${paths.length} tables recomputed from ${days.length} archives equal ${args.against}'s, byte for byte (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof RefusedArchive) {
      process.stdout.write(`REFUSED: ${err.message}\n`);
      process.exit(1);
    }
    const usage = err instanceof UsageError || err instanceof UnreadableSource;
    process.stderr.write(`ratings: ${usage ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
