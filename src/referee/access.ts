import type { Machine, Agent } from "./seats";
import type { RefereeState } from "./state";
import type { RefereeError } from "./types";
import { checkExpectedRevision } from "./validate";

/**
 * Checks shared by reveal, commit and retract, in this order: the field is open, the agent is
 * seated, it belongs to the proven machine, the machine is alive.
 */
export function seatedCaller(
  state: RefereeState,
  machineId: unknown,
  agentId: unknown,
): { ok: true; agent: Agent; machine: Machine } | { ok: false; error: RefereeError } {
  if (typeof agentId !== "string" || agentId.length === 0) {
    return { ok: false, error: { code: "bad_input", message: "agent must be the agent id returned by join (<machine_id>/<session>)" } };
  }
  const agent = state.seats.agent(agentId);
  if (!agent) {
    return { ok: false, error: { code: "not_seated", message: `agent ${agentId} is not seated on this field; call join first` } };
  }
  const machine = state.seats.machines[agent.machine];
  if (machine.id !== machineId) {
    return { ok: false, error: { code: "not_your_agent", message: `agent ${agentId} belongs to another machine; act only as your own agents` } };
  }
  if (machine.health.dead) return { ok: false, error: deadError(machine) };
  return { ok: true, agent, machine };
}

export function deadError(machine: Machine): RefereeError {
  const h = machine.health.report();
  return {
    code: "dead",
    message: `machine ${machine.id} died on this field (wrong ${h.wrong} of ${h.window} counted cells) and may not write again today; its territory stays`,
  };
}

export function closedError(state: RefereeState): RefereeError {
  return { code: "closed", message: "this field is closed (its day has ended); no more writes are accepted", revision: state.revision };
}

/**
 * Scoped optimistic concurrency (SPEC §4.9): refuse when any touched tile changed after
 * `expected`. A revision from the future is refused the same way, with the current one.
 */
export function conflictCheck(state: RefereeState, expected: unknown, touchedTiles: Iterable<number>): RefereeError | null {
  const bad = checkExpectedRevision(expected);
  if (bad) return bad;
  const exp = expected as number;
  if (exp > state.revision) {
    return { code: "conflict", message: `expected_revision ${exp} is ahead of the field (revision ${state.revision}); observe and retry`, revision: state.revision };
  }
  for (const t of touchedTiles) {
    const at = state.board.changedAt[t];
    if (at > exp) {
      return {
        code: "conflict",
        message: `tile ${t} changed at revision ${at}, after your expected_revision ${exp}; observe it and retry with revision ${state.revision}`,
        revision: state.revision,
      };
    }
  }
  return null;
}
