/**
 * The auditor (SPEC §9): five checks of a closed day's archive, pure (engine, referee, WebCrypto),
 * so it runs in Node (`npm run audit`) and in a browser (the replay page).
 *
 * ```ts
 * const archive = await readArchive(bytes);                  // read-archive.ts: gzip or plain JSON
 * const report = await auditArchive(archive, { heads, manifest, hashes }, { progress });
 * report.ok; report.checks;   // one CheckResult per check, in CHECKS order
 * report.first;               // the first mismatch (in check order), when there is one
 * ```
 *
 * Every check stops at its first mismatch; the others still run (unless `failFast`), so a report
 * says which checks hold. `only` runs a subset (the chain alone on a page, say). A check may be
 * run elsewhere and its result passed in `done` (the CLI regenerates the field in a worker thread
 * while the replay runs).
 */
import type { AuditedArchive } from "./event-log";
import { checkChain } from "./check-chain";
import { checkCommitments } from "./check-commitments";
import { checkTileHashes } from "./check-hashes";
import { checkRegeneration } from "./check-regeneration";
import { checkReplay } from "./check-replay";
import { AuditMismatch, CHECKS, type CheckName, type CheckResult, type Mismatch, type Progress } from "./mismatch";
import type { SavedInputs } from "./saved";

export interface AuditOptions {
  progress?: Progress;
  /** Called as each check finishes. */
  onCheck?: (result: CheckResult) => void;
  only?: readonly CheckName[];
  failFast?: boolean;
  /** Results of checks already run elsewhere (awaited when their turn comes). */
  done?: Partial<Record<CheckName, Promise<CheckResult>>>;
}

export interface AuditReport {
  ok: boolean;
  game_id: string;
  checks: CheckResult[];
  /** The first mismatch in check order. */
  first?: { check: CheckName } & Mismatch;
}

/** Runs one check, turning its first mismatch (or an unexpected error) into a result. */
export async function runCheck(check: CheckName, archive: AuditedArchive, saved: SavedInputs, progress?: Progress): Promise<CheckResult> {
  const t0 = Date.now();
  try {
    const summary = await CHECK_RUNNERS[check](archive, saved, progress);
    return { check, ok: true, summary, ms: Date.now() - t0 };
  } catch (err) {
    const m: Mismatch =
      err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
    return { check, ok: false, summary: m.message, mismatch: m, ms: Date.now() - t0 };
  }
}

const CHECK_RUNNERS: Record<CheckName, (a: AuditedArchive, s: SavedInputs, p?: Progress) => Promise<string>> = {
  commitments: (a, s) => checkCommitments(a, s.manifest),
  regeneration: (a, _s, p) => checkRegeneration(a, p),
  hashes: (a, s, p) => checkTileHashes(a, s.hashes, p),
  chain: (a, s, p) => checkChain(a, s.heads, s.manifest, p),
  replay: (a, _s, p) => checkReplay(a, p),
};

export async function auditArchive(archive: AuditedArchive, saved: SavedInputs = {}, options: AuditOptions = {}): Promise<AuditReport> {
  const checks: CheckResult[] = [];
  for (const check of CHECKS) {
    if (options.only && !options.only.includes(check)) continue;
    const result = await (options.done?.[check] ?? runCheck(check, archive, saved, options.progress));
    checks.push(result);
    options.onCheck?.(result);
    if (!result.ok && options.failFast) break;
  }
  const failed = checks.find((c) => !c.ok);
  return {
    ok: !failed,
    game_id: archive.game_id,
    checks,
    ...(failed?.mismatch ? { first: { check: failed.check, ...failed.mismatch } } : {}),
  };
}
