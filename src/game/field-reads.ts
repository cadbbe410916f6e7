import type { FieldRules, ObserveQuery, RefereeError } from "../referee/types";
import type { FieldContext } from "./field-context";
import { proveBearer } from "./field-callers";
import { isRecord } from "../referee/validate";
import { agentMachine, fail, malformedAgent, type CallerOutcome, type FieldShape, type FieldStatus, type LogHead, type Manifest, type ObserveArgs, type Outcome } from "./field-types";
import type { GrowPolicy } from "./growth";
import { statusObservation } from "./observation-status";
import { LISTED_AGENTS } from "./registry";
import type { RegistryEntry } from "./registry-object";
import { currentStatus, readGate, storedStatus } from "./status-gate";

/** The field's reads: observe, status, manifest, the event log, and its registry row. None changes state. */

const MAX_EVENTS_PAGE = 1_000;

/**
 * `observe` from the caller's perspective: the machine its bearer token proves, else the machine
 * given, else a spectator (no token). A token that is not current is refused as on a write
 * (SPEC §8): an agent whose token was replaced learns it at its next call, not at its next write.
 */
export async function observeAsCaller(f: FieldContext, args: ObserveArgs): Promise<CallerOutcome> {
  const { bearer, ...query } = args;
  if (typeof query.agent === "string" && agentMachine(query.agent) === null) return malformedAgent(query.agent);
  if (bearer === undefined) return observe(f, query);
  const proof = await proveBearer(f, bearer);
  if (!proof.ok) return proof;
  return { ...observe(f, { ...query, callerMachineId: proof.machineId }), caller: proof.machineId };
}

export function observe(f: FieldContext, query: ObserveQuery & { callerMachineId?: string }): Outcome {
  // Generating and failed fields answer their status as an observation, not an error (SPEC §6).
  const stored = storedStatus(f);
  if (stored === "generating" || stored === "failed" || (stored === "playing" && !f.referee)) {
    return {
      ok: true,
      answer: statusObservation({
        gameId: f.store.getMeta<string>("game_id") ?? "",
        status: stored === "generating" ? "generating" : "failed",
        createdMs: f.store.getMeta<number>("created") ?? Date.now(),
        nowMs: Date.now(),
        revision: f.head.rev,
        ...(stored === "generating" ? { progress: f.progress } : { error: failureReason(f) }),
      }),
    };
  }
  const gate = readGate(f);
  if (!gate.ok) return gate;
  try {
    const observed = f.referee!.observe(query) as unknown;
    if (isRecord(observed) && observed.ok === false && isRecord(observed.error)) return { ok: false, error: observed.error as unknown as RefereeError };
    const observation = isRecord(observed) && isRecord(observed.observation) ? observed.observation : observed;
    return { ok: true, answer: { observation } };
  } catch (err) {
    console.error("observe failed", err);
    return fail("bad_input", "the observation could not be built");
  }
}

/** Why the field failed: its generation, or a log that could not be restored. */
export function failureReason(f: FieldContext): string {
  const stored = f.store.getMeta<string>("failure");
  if (stored !== undefined) return stored;
  return f.loadError !== null ? `the field could not be loaded: ${f.loadError}` : "generation failed";
}

export function status(f: FieldContext): { status: FieldStatus; revision: number; failure?: string } {
  const current = currentStatus(f);
  const failure = f.store.getMeta<string>("failure");
  return failure ? { status: current, revision: f.head.rev, failure } : { status: current, revision: f.head.rev };
}

export function manifest(f: FieldContext): Outcome<Manifest> {
  const current = currentStatus(f);
  if (current === "missing") return fail("missing", "no such game");
  const params = f.store.getMeta<FieldShape>("params")!;
  const created = f.store.getMeta<number>("created")!;
  const day = f.store.getMeta<string>("day");
  const hashKeyCommit = f.store.getMeta<string>("hash_key_commit");
  const closedAt = f.store.getMeta<number>("closed_at");
  const archive = f.store.getMeta<{ url: string; bytes: number }>("archive");
  const rings = f.referee?.grown ?? 0;
  return {
    ok: true,
    answer: {
      game_id: f.store.getMeta<string>("game_id")!,
      status: current,
      kind: params.kind,
      params,
      rules: f.store.getMeta<FieldRules>("rules")!,
      G: f.store.getMeta<number>("G") ?? 0,
      tiles_total: f.store.getMeta<number>("tiles_total") ?? 0,
      created,
      opened_at: created,
      closes_at: f.store.getMeta<number>("closes_at") ?? null,
      ...(closedAt !== undefined ? { closed_at: closedAt } : {}),
      ...(day !== undefined ? { day } : {}),
      seed_commit: f.store.getMeta<string>("seed_commit")!,
      ...(hashKeyCommit !== undefined ? { hash_key_commit: hashKeyCommit } : {}),
      log_head: { ...f.head },
      rings,
      grown: rings,
      ...growthInfo(f),
      // The secrets are released only once play has ended for good (SPEC §9).
      ...(current === "closed" ? { day_seed: f.store.getMeta<string>("seed"), day_key: f.store.getMeta<string>("day_key") } : {}),
      ...(archive !== undefined ? { archive } : {}),
    },
  };
}

function growthInfo(f: FieldContext): { growth?: Manifest["growth"] } {
  const policy = f.store.getMeta<GrowPolicy>("grow_policy");
  if (!policy) return {};
  const next = f.store.getMeta<number>("next_grow_at");
  const ended = f.store.getMeta<string>("growth_ended");
  return { growth: { policy, ...(next !== undefined ? { next_at: next } : {}), ...(ended !== undefined ? { ended } : {}) } };
}

/** The public event log after revision `afterRev` (oldest first, at most 1,000). */
export function events(f: FieldContext, afterRev = 0, limit = MAX_EVENTS_PAGE): Outcome<{ events: Array<Record<string, unknown>>; log_head: LogHead }> {
  if (currentStatus(f) === "missing") return fail("missing", "no such game");
  const page = Math.max(1, Math.min(MAX_EVENTS_PAGE, Math.floor(limit)));
  return { ok: true, answer: { events: f.store.events(Math.max(0, Math.floor(afterRev)), page), log_head: { ...f.head } } };
}

/** The field's row in the registry (null once it is gone). */
export function summary(f: FieldContext): RegistryEntry | null {
  const gameId = f.store.getMeta<string>("game_id");
  const current = currentStatus(f);
  if (!gameId || current === "missing") return null;
  const stored = f.store.getMeta<FieldRules>("rules");
  const rules: FieldRules = { guess: stored?.guess ?? "accept", depth: stored?.depth ?? 0, fog: stored?.fog ?? false };
  return {
    game_id: gameId,
    created: f.store.getMeta<number>("created") ?? 0,
    status: current,
    revision: f.head.rev,
    G: f.store.getMeta<number>("G") ?? 0,
    tiles: f.store.getMeta<number>("tiles_total") ?? 0,
    grown: f.referee?.grown ?? 0,
    fog: rules.fog,
    rules,
    agents: f.store.agentIds(LISTED_AGENTS),
    agents_total: f.store.agentCount(),
    ...(current === "failed" ? { error: failureReason(f) } : {}),
  };
}
