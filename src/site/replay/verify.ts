import type { Archive } from "../../daily/archive/format";
import { checkChain } from "../../daily/audit/check-chain";
import { checkCommitments } from "../../daily/audit/check-commitments";
import { checkTileHashes } from "../../daily/audit/check-hashes";
import { AuditMismatch, CHECK_TITLES, type CheckName } from "../../daily/audit/mismatch";

export interface CheckOutcome {
  ok: boolean;
  /** Per check: what it verified, or the first mismatch it found. */
  results: Array<{ check: CheckName; ok: boolean; text: string }>;
}

/**
 * The auditor's own checks (SPEC §9 steps 1, 3 and 4), run in the browser with WebCrypto: both
 * commitments against the released seed and key, every tile's HMAC, and the hash chain from
 * `seed_commit` to `log_head`. (Regenerating the field and re-judging the log are the auditor
 * command's.) Each check runs even when another failed, so the page can say what is wrong.
 */
export async function checkArchive(archive: Archive, progress: (check: string, done: number, total: number) => void): Promise<CheckOutcome> {
  const report = (check: CheckName, done: number, total: number): void => progress(CHECK_TITLES[check], done, total);
  const runs: Array<[CheckName, () => Promise<string>]> = [
    ["commitments", () => checkCommitments(archive)],
    ["chain", () => checkChain(archive, [], undefined, report)],
    ["hashes", () => checkTileHashes(archive, undefined, report)],
  ];
  const results: CheckOutcome["results"] = [];
  for (const [check, run] of runs) {
    progress(CHECK_TITLES[check], 0, 1);
    try {
      results.push({ check, ok: true, text: await run() });
    } catch (err) {
      results.push({ check, ok: false, text: err instanceof AuditMismatch ? err.mismatch.message : `${CHECK_TITLES[check]} could not be checked: ${(err as Error).message}` });
    }
  }
  return { ok: results.every((r) => r.ok), results };
}
