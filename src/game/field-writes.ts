import { sha256Hex } from "../engine/commitments";
import { agentId } from "../referee/agent-id";
import type { WriteInput } from "../referee/types";
import type { FieldContext } from "./field-context";
import { proveBearer } from "./field-callers";
import { agentMachine, fail, malformedAgent, type CallerOutcome, type FieldStatus, type JoinArgs, type Outcome, type Refusal, type WriteArgs } from "./field-types";
import { commitCellsFromXy, retractCellsFromXy } from "../referee/coordinates";
import { randomSecret } from "./secrets";
import { closeGate, currentStatus, writeGate } from "./status-gate";
import { applyWrite, commitEvent, recover } from "./write-path";

/**
 * The field's writes as the outside calls them: join, reveal/commit/retract (with the proof of
 * the agent's machine) and the close. Each passes the write gate, does its asynchronous checks,
 * passes the gate again, then enters the synchronous write path.
 */

/**
 * The refusals a join can get without knowing who joins (missing, generating, failed, closed).
 * The edge asks this before verifying a join proof, because verifying spends the proof.
 */
export function joinable(f: FieldContext): Outcome<{ status: FieldStatus }> {
  const gate = writeGate(f);
  return gate.ok ? { ok: true, answer: { status: currentStatus(f) } } : gate;
}

/**
 * A join. With a bearer token, the answer names the machine the token proved (`caller`), refusals
 * included, as a write's does: the usage meter counts the call for it.
 */
export async function join(f: FieldContext, args: JoinArgs): Promise<CallerOutcome> {
  // A token is proven first (a bad one is refused as such whatever the field's state), and its
  // vouch is kept: the agent's first write then needs no word from the identity object.
  if (args.bearer === undefined) return seat(f, args);
  const proof = await proveBearer(f, args.bearer);
  if (!proof.ok) return proof;
  if (proof.machineId !== args.machineId) return { ...fail("identity", `your bearer token proves machine ${proof.machineId}, not ${args.machineId}`), caller: proof.machineId };
  return { ...(await seat(f, args)), caller: proof.machineId };
}

async function seat(f: FieldContext, args: JoinArgs): Promise<Outcome> {
  const gate = writeGate(f);
  if (!gate.ok) return gate;
  // A development seat's secret is handed out once, at the seat's first join: an unproven rejoin
  // would otherwise give anyone who names the same session the seat of whoever chose it first.
  const taken = !args.verified && f.store.secretHash(agentId(args.machineId, args.session)) !== undefined;
  const secret = args.issueSecret && !taken ? randomSecret() : null;
  const secretHash = secret ? await sha256Hex(secret) : null;
  // From here to the answer: synchronous, so judge and store form one transaction.
  const again = writeGate(f);
  if (!again.ok) return again;
  const { issueSecret: _issue, bearer: _bearer, ...rest } = args;
  const input: WriteInput = { type: "join", ...rest };
  const result = applyWrite(f, input, secretHash);
  if (!result.ok || !secret) return result;
  return { ok: true, answer: { ...result.answer, agent_secret: secret } };
}

/**
 * A reveal, commit or retract. A bearer token is checked first (as the edge did before the field
 * could check it itself), so a bad token is refused as such whatever the field's state; the
 * answer names the machine the token proved.
 */
export async function write(f: FieldContext, args: WriteArgs): Promise<CallerOutcome> {
  let proven = args.machineId;
  if (args.bearer !== undefined) {
    const proof = await proveBearer(f, args.bearer);
    if (!proof.ok) return proof;
    proven = proof.machineId;
  }
  const result = await writeAs(f, args, proven);
  return proven === undefined ? result : { ...result, caller: proven };
}

async function writeAs(f: FieldContext, args: WriteArgs, proven: string | undefined): Promise<Outcome> {
  const gate = writeGate(f);
  if (!gate.ok) return gate;
  const agent = args.input.agent;
  const machine = agentMachine(agent);
  if (machine === null) return malformedAgent(agent);
  if (proven !== undefined) {
    if (machine !== proven) {
      return fail("not_your_agent", `agent ${agent} belongs to machine ${machine}; your token proves ${proven}. Write only as your own agents.`);
    }
  } else if (args.agentSecret !== undefined) {
    const stored = f.store.secretHash(agent);
    const given = await sha256Hex(args.agentSecret);
    if (stored === undefined) return fail("not_seated", `agent ${agent} is not seated on this field: join first.`);
    if (stored === null) {
      return fail("not_your_agent", `agent ${agent} was seated with a bearer token: its writes need that machine's 'Authorization: Bearer msc_…' header.`);
    }
    if (given !== stored) return fail("not_your_agent", `agent_secret does not match agent ${agent}: use the secret your join answered.`);
  } else {
    return fail("identity", "a write must prove its machine: send 'Authorization: Bearer msc_…' (see /identity) or the agent_secret your join answered.");
  }
  const again = writeGate(f);
  if (!again.ok) return again;
  const input = byIds(args.input, f.referee!.G);
  if (!input.ok) return input;
  return applyWrite(f, { ...input.input, machineId: machine } as WriteInput, null);
}

/**
 * A write whose cells are named by coordinates, as the same write by ids: converted once, here,
 * so that judging, the log and the archive never see the difference.
 */
function byIds(input: WriteArgs["input"], G: number): { ok: true; input: WriteArgs["input"] } | Refusal {
  if (!("xy" in input)) return { ok: true, input };
  const converted = input.type === "commit" ? commitCellsFromXy(G, input.xy) : retractCellsFromXy(G, input.xy);
  if (!converted.ok) return { ok: false, error: converted.error };
  // The fields in the order the edge sends a write by ids, so the stored input is the same text.
  const { type, agent, expectedRevision, intent } = input;
  return { ok: true, input: { type, cells: converted.cells, agent, expectedRevision, intent } as WriteArgs["input"] };
}

/**
 * Ends play (the daily field at the end of its day): recorded as a `close` event through the same
 * serialised write path, so a write is either before it in the log or refused with `closed`.
 */
export function close(f: FieldContext): Outcome<{ revision: number; status: string }> {
  const gate = closeGate(f);
  if (!gate.ok) return gate;
  const referee = f.referee!;
  if (referee.status === "closed") return { ok: true, answer: { revision: referee.revision, status: "closed" } };
  const at = Date.now();
  try {
    const event = referee.close(at);
    if (event) commitEvent(f, { input: { type: "close" }, event, at, alsoStore: () => f.store.setMeta("closed_at", at) });
  } catch (err) {
    return recover(f, err);
  }
  f.registry.soon();
  return { ok: true, answer: { revision: referee.revision, status: referee.status } };
}
