/**
 * A worker thread of `npm run audit`: regenerates pieces of the field (the initial field or one
 * ring) and compares them with the archive, with the pure check of src/daily/audit. The main
 * thread sends the archive's header, tiles and grow events once, then one piece at a time.
 */
import { parentPort } from "node:worker_threads";
import { checkRegenerationPart, type RegenerationPart } from "../src/daily/audit/check-regeneration";
import type { AuditedArchive } from "../src/daily/audit/event-log";
import { AuditMismatch, type Mismatch } from "../src/daily/audit/mismatch";

export type ToWorker = { kind: "archive"; archive: AuditedArchive } | { kind: "part"; part: RegenerationPart };
export type FromWorker =
  | { kind: "progress"; ring: number; done: number; total: number }
  | { kind: "result"; ring: number; mismatch?: Mismatch; ms: number };

let archive: AuditedArchive | null = null;
const port = parentPort!;

port.on("message", (message: ToWorker) => {
  if (message.kind === "archive") {
    archive = message.archive;
    return;
  }
  const { part } = message;
  const t0 = Date.now();
  let last = 0;
  checkRegenerationPart(archive!, part, (done, total) => {
    if (Date.now() - last < 250) return;
    last = Date.now();
    port.postMessage({ kind: "progress", ring: part.ring, done, total } satisfies FromWorker);
  }).then(
    () => port.postMessage({ kind: "result", ring: part.ring, ms: Date.now() - t0 } satisfies FromWorker),
    (err: unknown) => {
      const mismatch: Mismatch = err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
      port.postMessage({ kind: "result", ring: part.ring, mismatch, ms: Date.now() - t0 } satisfies FromWorker);
    },
  );
});
