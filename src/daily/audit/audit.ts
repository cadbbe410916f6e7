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
 * says which checks hold. `only` runs a subset (the chain alone on a page, say).
 *
 * One auditor, two hosts: nothing here needs Node. A host passes how it regenerates
 * (`regeneration`: worker threads on the command line, Web Workers in a browser; see
 * regeneration-pool.ts), how it hashes, progress callbacks and an AbortSignal to cancel. The checks
 * run here meanwhile, and results are announced (`onCheck`) and reported in check order.
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
import { regenerateInPool, type PieceRunner } from "./regeneration-pool";
import { isAbort } from "./abort";

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
  /** Regenerates the field with the host's workers while the other checks run here (default: here, after the commitments). */
  regeneration?: PieceRunner;
  /** Cancels the audit: it rejects with the signal's reason, workers stopped. */
  signal?: AbortSignal;
}

export interface AuditReport {
  ok: boolean;
  game_id: string;
  checks: CheckResult[];
  /** The first mismatch in check order. */
  first?: { check: CheckName } & Mismatch;
}

/** Runs one check, turning its first mismatch (or an unexpected error) into a result. */
export async function runCheck(
  check: CheckName,
  archive: AuditedArchive,
  saved: SavedInputs,
  progress?: Progress,
  hashing: Hashing = webCryptoHashing,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const t0 = Date.now();
  try {
    signal?.throwIfAborted();
    const summary = await CHECK_RUNNERS[check](archive, saved, { progress, hashing, signal });
    return { check, ok: true, summary, ms: Date.now() - t0 };
  } catch (err) {
    if (isAbort(err, signal)) throw err;
    const m: Mismatch =
      err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
    return { check, ok: false, summary: m.message, mismatch: m, ms: Date.now() - t0 };
  }
}

interface RunContext {
  progress?: Progress;
  hashing: Hashing;
  signal?: AbortSignal;
}

const CHECK_RUNNERS: Record<CheckName, (a: AuditedArchive, s: SavedInputs, c: RunContext) => Promise<string>> = {
  commitments: (a, s) => checkCommitments(a, s.manifest),
  regeneration: (a, _s, c) => checkRegeneration(a, c.progress, c.signal),
  hashes: (a, s, c) => checkTileHashes(a, s.hashes, c.progress, c.hashing, s.hashesGameId, c.signal),
  chain: (a, s, c) => checkChain(a, s.heads, s.manifest, c.progress, c.hashing, c.signal),
  replay: (a, _s, c) => checkReplay(a, c.progress, c.signal),
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
  const { signal } = options;
  const done: Partial<Record<CheckName, Promise<CheckResult>>> = { ...options.done };
  let localDone = (): void => {};
  const free = new Promise<void>((resolve) => (localDone = resolve));
  if (options.regeneration && wanted.includes("regeneration") && !done.regeneration) {
    done.regeneration = regenerateInPool(archive, options.regeneration, { progress: options.progress, signal, free });
  }
  // Checks run elsewhere (`done`) proceed meanwhile: the ones here do not wait for them.
  const elsewhere = wanted.filter((check) => done[check]);
  const settled = elsewhere.map((check) =>
    done[check]!.then((result) => {
      results.set(check, result);
      announce();
    }),
  );
  // A failure there (workers that cannot run, a cancel) is the audit's: seen once awaited below.
  const failure = Promise.all(settled);
  failure.catch(() => {});
  let stopped = false;
  for (const check of wanted) {
    if (done[check]) continue;
    const result = await runCheck(check, archive, saved, options.progress, options.hashing, signal);
    results.set(check, result);
    announce();
    if (!result.ok && options.failFast) {
      stopped = true;
      break;
    }
  }
  localDone();
  options.onLocalDone?.();
  // With --fail-fast, a mismatch found here ends the audit without waiting for the others.
  if (!stopped) await failure;
  signal?.throwIfAborted();
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
