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
 * run elsewhere and its result passed in `done` (the CLI regenerates the field in worker threads):
 * the checks here run meanwhile, and results are announced (`onCheck`) and reported in check order.
 */
import type { AuditedArchive } from "./event-log";
import { checkChain } from "./check-chain";
import { checkCommitments } from "./check-commitments";
import { checkTileHashes } from "./check-hashes";
import { checkRegeneration } from "./check-regeneration";
import { checkReplay } from "./check-replay";
import { AuditMismatch, CHECKS, type CheckName, type CheckResult, type Mismatch, type Progress } from "./mismatch";
import type { SavedInputs } from "./saved";
import { webCryptoHashing, type Hashing } from "./hashing";

export interface AuditOptions {
  progress?: Progress;
  /** Called as each check finishes. */
  onCheck?: (result: CheckResult) => void;
  only?: readonly CheckName[];
  failFast?: boolean;
  /** Results of checks run elsewhere meanwhile (awaited once the checks here are done). */
  done?: Partial<Record<CheckName, Promise<CheckResult>>>;
  /** Called when the checks run here are done (and only those in `done` remain). */
  onLocalDone?: () => void;
  /** The digests to compute with (default WebCrypto). */
  hashing?: Hashing;
}

export interface AuditReport {
  ok: boolean;
  game_id: string;
  checks: CheckResult[];
  /** The first mismatch in check order. */
  first?: { check: CheckName } & Mismatch;
}

/** Runs one check, turning its first mismatch (or an unexpected error) into a result. */
export async function runCheck(check: CheckName, archive: AuditedArchive, saved: SavedInputs, progress?: Progress, hashing: Hashing = webCryptoHashing): Promise<CheckResult> {
  const t0 = Date.now();
  try {
    const summary = await CHECK_RUNNERS[check](archive, saved, progress, hashing);
    return { check, ok: true, summary, ms: Date.now() - t0 };
  } catch (err) {
    const m: Mismatch =
      err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
    return { check, ok: false, summary: m.message, mismatch: m, ms: Date.now() - t0 };
  }
}

const CHECK_RUNNERS: Record<CheckName, (a: AuditedArchive, s: SavedInputs, p: Progress | undefined, h: Hashing) => Promise<string>> = {
  commitments: (a, s) => checkCommitments(a, s.manifest),
  regeneration: (a, _s, p) => checkRegeneration(a, p),
  hashes: (a, s, p, h) => checkTileHashes(a, s.hashes, p, h, s.hashesGameId),
  chain: (a, s, p, h) => checkChain(a, s.heads, s.manifest, p, h),
  replay: (a, _s, p) => checkReplay(a, p),
};

export async function auditArchive(archive: AuditedArchive, saved: SavedInputs = {}, options: AuditOptions = {}): Promise<AuditReport> {
  const wanted = CHECKS.filter((check) => !options.only || options.only.includes(check));
  const results = new Map<CheckName, CheckResult>();
  // Results are announced in check order, each as soon as it and every check before it are in.
  let announced = 0;
  const announce = (): void => {
    while (announced < wanted.length && results.has(wanted[announced])) {
      const result = results.get(wanted[announced++])!;
      options.onCheck?.(result);
    }
  };
  // Checks run elsewhere (`done`) proceed meanwhile: the ones here do not wait for them.
  const elsewhere = wanted.filter((check) => options.done?.[check]);
  const settled = elsewhere.map((check) =>
    options.done![check]!.then((result) => {
      results.set(check, result);
      announce();
    }),
  );
  let stopped = false;
  for (const check of wanted) {
    if (options.done?.[check]) continue;
    const result = await runCheck(check, archive, saved, options.progress, options.hashing);
    results.set(check, result);
    announce();
    if (!result.ok && options.failFast) {
      stopped = true;
      break;
    }
  }
  options.onLocalDone?.();
  // With --fail-fast, a mismatch found here ends the audit without waiting for the others.
  if (!stopped) await Promise.all(settled);
  const checks = wanted.filter((check) => results.has(check)).map((check) => results.get(check)!);
  const failed = checks.find((c) => !c.ok);
  return {
    ok: !failed && checks.length === wanted.length,
    game_id: archive.game_id,
    checks: failFastCut(checks, options.failFast === true),
    ...(failed?.mismatch ? { first: { check: failed.check, ...failed.mismatch } } : {}),
  };
}

/** With fail-fast, the report ends at the first failed check. */
function failFastCut(checks: CheckResult[], failFast: boolean): CheckResult[] {
  if (!failFast) return checks;
  const i = checks.findIndex((c) => !c.ok);
  return i < 0 ? checks : checks.slice(0, i + 1);
}
