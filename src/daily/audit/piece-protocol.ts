/**
 * How the regeneration talks to its workers, whatever they are (Node's worker threads, a browser's
 * Web Workers): the field once, then one piece at a time with its archive rows; progress and one
 * result per piece back. Both ends are here; a host only wires them to its message channel.
 */
import type { ArchiveTile } from "../archive/format";
import { regeneratePiece, type PieceInput, type RegenerationPart } from "./check-regeneration";
import { decodeField } from "./field-transfer";
import { AuditMismatch, type Mismatch } from "./mismatch";
import type { PieceSetup, PieceWorker } from "./regeneration-pool";

export type ToPieceWorker = ({ kind: "setup" } & PieceSetup) | { kind: "part"; part: RegenerationPart; rows: ArchiveTile[] };
export type FromPieceWorker =
  | { kind: "progress"; ring: number; done: number; total: number }
  | { kind: "result"; ring: number; mismatch?: Mismatch; ms: number }
  | { kind: "failed"; message: string };

/** A worker's side: feed it every message received; it posts progress (at most 4 a second) and results. */
export function pieceWorkerEndpoint(post: (message: FromPieceWorker) => void): (message: ToPieceWorker) => void {
  let setup: Omit<PieceInput, "rows"> | null = null;
  return (message) => {
    if (message.kind === "setup") {
      try {
        setup = { G: message.G, params: message.params, day_seed: message.day_seed, field: decodeField(message.field) };
      } catch (err) {
        post({ kind: "failed", message: err instanceof Error ? err.message : String(err) });
      }
      return;
    }
    const { part, rows } = message;
    if (!setup) return post({ kind: "failed", message: "a piece arrived before the field" });
    const t0 = Date.now();
    let last = 0;
    regeneratePiece({ ...setup, rows }, part, {
      progress: (done, total) => {
        if (Date.now() - last < 250) return;
        last = Date.now();
        post({ kind: "progress", ring: part.ring, done, total });
      },
    }).then(
      () => post({ kind: "result", ring: part.ring, ms: Date.now() - t0 }),
      (err: unknown) => {
        const mismatch: Mismatch = err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
        post({ kind: "result", ring: part.ring, mismatch, ms: Date.now() - t0 });
      },
    );
  };
}

/** A host's worker, as the pool needs it: send a message, hear its messages and its errors, stop it. */
export interface WorkerChannel {
  send(message: ToPieceWorker): void;
  /** Registers the handler of every message and of the worker's failure (an uncaught error, a failed start). */
  listen(onMessage: (message: FromPieceWorker) => void, onError: (message: string) => void): void;
  terminate(): void | Promise<unknown>;
}

/** The pool's side: a `PieceWorker` over a channel, sent the field at once. */
export function channelPieceWorker(channel: WorkerChannel, setup: PieceSetup): PieceWorker {
  let current: { resolve: (m: Mismatch | undefined) => void; reject: (err: Error) => void; progress: (done: number, total: number) => void } | null = null;
  let broken: Error | null = null;
  channel.listen(
    (m) => {
      if (m.kind === "progress") return current?.progress(m.done, m.total);
      if (m.kind === "failed") return fail(new Error(m.message));
      const c = current;
      current = null;
      c?.resolve(m.mismatch);
    },
    (message) => fail(new Error(message)),
  );
  function fail(err: Error): void {
    broken = err;
    const c = current;
    current = null;
    c?.reject(err);
  }
  channel.send({ kind: "setup", ...setup });
  return {
    run(part, rows, progress) {
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        current = { resolve, reject, progress };
        channel.send({ kind: "part", part, rows });
      });
    },
    close: async () => {
      await channel.terminate();
    },
  };
}
