import { deadError } from "./access";
import { chooseSeed } from "./seed-choice";
import { picturesOf } from "./pictures";
import { agentId, sessionProblem } from "./agent-id";
import { MAX_SESSIONS, type Agent } from "./seats";
import type { HandlerResult, RefereeState } from "./state";
import { tileGeometry } from "./tile-view";
import type { Tags, WriteInput } from "./types";
import { normaliseTags } from "./tags";
import { bad, checkLabel, isRecord, wellFormed } from "./validate";

type JoinInput = Extract<WriteInput, { type: "join" }>;

/**
 * Seat an agent (SPEC §4.1). A rejoin with the same machine and session answers the same agent
 * and seed and changes nothing; a machine may seat at most 3 distinct sessions per field over
 * the day.
 */
export function join(state: RefereeState, input: JoinInput, atMs: number): HandlerResult {
  const invalid = checkJoin(input);
  if (invalid) return { ok: false, error: bad(invalid) };
  const tags = (normaliseTags(input.tags) as { ok: true; tags: Tags }).tags;
  const { seats, board, groups } = state;
  const existing = seats.agent(agentId(input.machineId, input.session));
  const machine = seats.machine(input.machineId);
  // Development servers seat unproven callers under any machine id they name: never one that
  // proved itself here, whose seats (and their secrets) are its owner's alone.
  if (!input.verified && machine?.agents.some((i) => seats.agents[i].verified)) {
    return {
      ok: false,
      error: {
        code: "identity",
        message: `machine ${input.machineId} has verified seats on this field: join with its bearer token or a join proof (see /identity)`,
      },
    };
  }
  if (machine?.health.dead) return { ok: false, error: deadError(machine) };
  if (existing) return { ok: true, answer: joinAnswer(state, existing, state.revision), changed: false };
  if (machine && machine.sessions.length >= MAX_SESSIONS) {
    return {
      ok: false,
      error: bad(
        `machine ${input.machineId} has already seated ${MAX_SESSIONS} sessions on this field today (${machine.sessions.join(", ")}); ` +
          `rejoin with one of them`,
      ),
    };
  }

  const otherSeeds: number[] = [];
  for (const a of seats.agents) if (a.seed !== null) otherSeeds.push(a.seed);
  const seed = chooseSeed(board, state.seed, seats.agents.length, otherSeeds);
  const rev = state.revision + 1;
  const name = optionalText(input.name);
  const model = optionalText(input.model);
  const harness = optionalText(input.harness);
  const agent = seats.seat(seats.machineOrCreate(input.machineId), {
    session: input.session,
    name,
    model,
    harness,
    harnessSource: input.harnessSource,
    tags,
    verified: input.verified,
    seed,
    joinedAt: atMs,
    joinedRev: rev,
  });
  groups.add(agent.index, seed);
  return {
    ok: true,
    answer: joinAnswer(state, agent, rev),
    changed: true,
    event: {
      agent: agent.id,
      machine: input.machineId,
      session: input.session,
      name,
      model,
      harness,
      harness_source: input.harnessSource,
      tags: { ...tags },
      verified: input.verified,
      seed_tile: seed,
    },
  };
}

/** A label as stored: well-formed text (checkJoin has checked it is a string when given). */
function optionalText<T>(label: T): T {
  return (typeof label === "string" ? wellFormed(label) : label) as T;
}

function joinAnswer(state: RefereeState, agent: Agent, revision: number): Record<string, unknown> {
  const t = agent.seed === null ? null : state.board.tiles[agent.seed];
  return {
    agent: agent.id,
    // The id, as the reference answers, so `reveal {tile: seed_tile}` works as written; the shape
    // (public before reveal) rides beside it.
    seed_tile: t ? t.id : null,
    seed: t && { id: t.id, ...tileGeometry(t) },
    revision,
    verified: agent.verified,
    harness: agent.harness,
    harness_source: agent.harnessSource,
    // The seed's shape drawn for a model without code (SPEC §6); under fog its neighbours are unseen, so unmarked.
    pictures: t ? picturesOf(state.board, [t.id], false, () => !state.rules.fog) : {},
    rules: { ...state.rules },
  };
}

function checkJoin(input: JoinInput): string | null {
  if (!isRecord(input)) return "join input must be an object";
  for (const [name, required] of [
    ["machineId", true],
    ["name", false],
    ["model", false],
    ["harness", false],
  ] as const) {
    const e = checkLabel(name, input[name], required);
    if (e) return e.message;
  }
  if ((input.machineId as string).includes("/")) return "machineId must not contain '/' (agent ids are <machine_id>/<session>)";
  const session = sessionProblem(input.session);
  if (session) return session;
  if (input.harnessSource !== "transport" && input.harnessSource !== "argument" && input.harnessSource !== "unknown") {
    return "harnessSource must be transport, argument or unknown";
  }
  const tags = normaliseTags(input.tags);
  if (!tags.ok) return tags.message;
  if (typeof input.verified !== "boolean") return "verified must be a boolean";
  return null;
}
