import type { RefereeEvent, WriteInput } from "../referee/types";
import { chainEvent } from "./chain";
import type { FieldContext } from "./field-context";
import type { StoredInput } from "./field-store";
import { fail, type Outcome } from "./field-types";
import { safeRestore } from "./field-restore";

/**
 * The write path: judge → chain → store, synchronously (SPEC §4.9, §13). Nothing awaits between
 * the referee's verdict and the SQLite transaction, so no other request interleaves, the write is
 * atomic, and the output gate releases the answer only once it is durable. If anything throws
 * after the referee changed its memory, the referee is rebuilt from storage, so memory never runs
 * ahead of what is durable.
 */

/** A seat to record with a join (and the hash of the secret a proof join handed out). */
export interface Seat {
  agent: string;
  machine: string;
  secretHash: string | null;
}

/** Judges a join/reveal/commit/retract and stores it with its chained event. */
export function applyWrite(f: FieldContext, input: WriteInput, secretHash: string | null): Outcome {
  const referee = f.referee!;
  const statusBefore = referee.status;
  const at = Date.now();
  try {
    const result = referee.apply(input, at);
    if (!result.ok) return { ok: false, error: result.error };
    const agent = input.type === "join" ? String(result.answer.agent) : input.agent;
    if (result.event) {
      commitEvent(f, {
        input,
        event: result.event,
        at,
        seat: input.type === "join" ? { agent, machine: input.machineId, secretHash } : null,
        remember: input.type === "reveal" ? () => f.revealed++ : undefined,
      });
    } else if (input.type === "join" && secretHash) f.store.upsertAgent(agent, input.machineId, secretHash, at);
    // Status changes and new seats are reported at once; revisions are batched.
    if (referee.status !== statusBefore || (input.type === "join" && result.event)) f.registry.soon();
    else f.registry.batched();
    return { ok: true, answer: result.answer };
  } catch (err) {
    return recover(f, err);
  }
}

/** One event to store, with what else belongs to the same transaction and memory update. */
export interface EventCommit {
  input: StoredInput;
  event: RefereeEvent;
  at: number;
  seat?: Seat | null;
  /** More rows in the same transaction (a ring's tiles and solution, growth meta). */
  alsoStore?: () => void;
  /** Memory that follows the stored state, updated after the transaction and before listeners run. */
  remember?: () => void;
}

/**
 * Chains `event` onto the log and stores it (with its input, the seat and `alsoStore`) in one
 * transaction; then moves the head and tells the commit listeners (among them the snapshots,
 * which are taken after the answer: field-snapshots.ts). The referee has already applied the event.
 */
export function commitEvent(f: FieldContext, c: EventCommit): void {
  const chained = chainEvent(f.head.hash, c.event);
  f.ctx.storage.transactionSync(() => {
    f.store.appendEvent({ rev: c.event.rev, at: c.at, input: c.input, event: chained.event, hash: chained.hash });
    if (c.seat) f.store.upsertAgent(c.seat.agent, c.seat.machine, c.seat.secretHash, c.at);
    c.alsoStore?.();
  });
  f.head = { hash: chained.hash, rev: c.event.rev };
  c.remember?.();
  f.emitCommitted(chained.event);
}

/** After a failure mid-write: memory is rebuilt from storage and the caller told nothing changed. */
export function recover(f: FieldContext, err: unknown): Outcome<never> {
  console.error("field write failed; rebuilding from storage", err);
  safeRestore(f);
  return fail("bad_input", "the write could not be applied; nothing was changed");
}
