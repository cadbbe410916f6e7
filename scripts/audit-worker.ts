/**
 * A worker thread of `npm run audit`: regenerates pieces of the field (the initial field or one
 * ring) and compares them with the archive, with the pure check of src/daily/audit. The main
 * thread sends the generation's inputs and the archive's field once (as two flat arrays, see
 * field-transfer.ts), then one piece at a time with its archive rows.
 */
import { parentPort } from "node:worker_threads";
import type { ArchiveParams, ArchiveTile } from "../src/daily/archive/format";
import { regeneratePiece, type PieceInput, type RegenerationPart } from "../src/daily/audit/check-regeneration";
import { decodeField, type FieldTransfer } from "../src/daily/audit/field-transfer";
import { AuditMismatch, type Mismatch } from "../src/daily/audit/mismatch";

export type ToWorker =
  | { kind: "setup"; G: number; params: ArchiveParams; day_seed: string; field: FieldTransfer }
  | { kind: "part"; part: RegenerationPart; rows: ArchiveTile[] };
export type FromWorker =
  | { kind: "progress"; ring: number; done: number; total: number }
  | { kind: "result"; ring: number; mismatch?: Mismatch; ms: number };

let setup: Omit<PieceInput, "rows"> | null = null;
const port = parentPort!;

port.on("message", (message: ToWorker) => {
  if (message.kind === "setup") {
    setup = { G: message.G, params: message.params, day_seed: message.day_seed, field: decodeField(message.field) };
    return;
  }
  const { part, rows } = message;
  const t0 = Date.now();
  let last = 0;
  regeneratePiece({ ...setup!, rows }, part, {
    progress: (done, total) => {
      if (Date.now() - last < 250) return;
      last = Date.now();
      port.postMessage({ kind: "progress", ring: part.ring, done, total } satisfies FromWorker);
    },
  }).then(
    () => port.postMessage({ kind: "result", ring: part.ring, ms: Date.now() - t0 } satisfies FromWorker),
    (err: unknown) => {
      const mismatch: Mismatch = err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
      port.postMessage({ kind: "result", ring: part.ring, mismatch, ms: Date.now() - t0 } satisfies FromWorker);
    },
  );
});
