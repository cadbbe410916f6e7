import type { ToolRegistrar } from "./registrar";
import { bearerClaimOf, displayName, machineFromBearer, verifyJoinProof } from "../../identity/api";
import type { BearerClaim } from "../../identity/vouched-tokens";
import { resolveHarness, type ToolContext } from "../context";
import { toolError } from "../results";
import { RULES_CORE } from "../rules";
import { MACHINE_ID_RE } from "../../referee/agent-id";
import type { ErrorCode } from "../../referee/types";
import { answer, fieldStub, noteCaller } from "./play-common";
import { joinText } from "../answers/write-texts";
import { joinArgs, type JoinArgs } from "./play-schemas";
import { published } from "./published-schema";

/** The machine id a development-mode join without identity plays as (MOSAIC_DEV=1 only). */
const DEV_MACHINE = "m-0000000000000000";

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const JOIN_TOOL = {
  title: "Join a field",
  description:
    "Seat an agent (<machine_id>/<session>) on a playing field and get a hidden seed tile. Identity: send 'Authorization: Bearer msc_…' " +
    "(mint at POST /api/keys/auth, see /identity), or pass machine_id, public_key and proof (then use the returned agent_secret on writes).\n\n" +
    RULES_CORE +
    "More (transport, public log, verifiability): mosaic://rules.",
  inputSchema: published(joinArgs),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** `join` (SPEC §4.1, §8): seats an agent after proving its machine; the description carries the rules. */
export function registerJoin(tools: ToolRegistrar, ctx: ToolContext): void {
  tools.registerTool(
    "join",
    JOIN_TOOL,
    async (args) => {
      const who = await proveMachine(ctx, args);
      if (!who.ok) return toolError(who.code, who.message);
      // A verified join proof proved the machine here; a bearer token is proven by the field,
      // which names the machine in its answer (noteCaller). Either way the call counts for it.
      if (who.verified && !who.bearer) ctx.provenMachine = who.machineId;
      const harness = resolveHarness(ctx, args.harness);
      const name = (who.verified ? await displayName(ctx.env, who.machineId).catch(() => null) : null) ?? args.name ?? who.machineId;
      const outcome = await fieldStub(ctx.env, args.game_id).join({
        machineId: who.machineId,
        session: args.session,
        name,
        model: args.model ?? "unknown",
        harness: harness.version ? `${harness.name}/${harness.version}` : harness.name,
        harnessSource: harness.source,
        tags: args.tags ?? {},
        verified: who.verified,
        issueSecret: who.issueSecret,
        ...(who.bearer ? { bearer: who.bearer } : {}),
      });
      return answer(noteCaller(ctx, sharedMachineHint(outcome, who.machineId)), (a) => {
        const secret = a.agent_secret
          ? " Pass agent_secret on reveal/commit/retract."
          : a.verified === false
            ? " This session was seated before: its agent_secret went to that first join only (join with another session for a seat of your own)."
            : "";
        const task =
          typeof a.seed_tile === "number"
            ? `seed tile ${a.seed_tile}. Reveal it, then commit its cells.`
            : "no seed tile: no hidden tile is free (each is solved, revealed or another agent's seed). Watch list_games for growth or a new field.";
        // The analysis groups by model and harness: say so when the call left either unknown.
        const unknown = [harness.source === "unknown" ? "harness" : "", args.model === undefined ? "model" : ""].filter(Boolean);
        const credit = unknown.length && a.changed !== false ? ` For the analysis, ${unknown.join(" and ")} unknown: pass ${unknown.length > 1 ? "them" : "it"} on join.` : "";
        // Development servers seat an unproven caller (a shared machine unless it names one): say so now, not on the leaderboard.
        const unverified = a.verified === false ? ` Unverified (development server): join with your bearer token to play as your machine (/identity).${who.machineId === DEV_MACHINE ? SHARED_MACHINE : ""}` : "";
        return joinText(`Seated as ${String(a.agent)} at revision ${String(a.revision)}; ${task}${secret}${unverified}${credit}`, a);
      });
    },
  );
}

/** What a development server says to an unproven caller seated on the shared machine. */
const SHARED_MACHINE = ` Without identity every caller shares machine ${DEV_MACHINE} (its 3 sessions, its health): pass machine_id (m- and 16 hex digits) for a machine of your own.`;

/** A refusal on the shared development machine (its sessions used up, or dead) says how to get one's own. */
function sharedMachineHint<T extends { ok: boolean; error?: { message: string } }>(outcome: T, machineId: string): T {
  if (outcome.ok || machineId !== DEV_MACHINE || !outcome.error) return outcome;
  return { ...outcome, error: { ...outcome.error, message: outcome.error.message + SHARED_MACHINE } };
}

type Refusal = { ok: false; code: ErrorCode; message: string };
type Proven = { ok: true; machineId: string; verified: boolean; issueSecret: boolean; bearer?: BearerClaim } | Refusal;

/** The field's refusals that need no identity (missing, generating, failed, closed). */
async function fieldJoinable(ctx: ToolContext, gameId: string): Promise<{ ok: true } | Refusal> {
  try {
    const open = await fieldStub(ctx.env, gameId).joinable();
    return open.ok ? { ok: true } : { ok: false, code: open.error.code, message: open.error.message };
  } catch (err) {
    console.error("field call failed", err);
    return { ok: false, code: "bad_input", message: "the field could not be reached; nothing was changed, try again" };
  }
}

/**
 * A bearer token first (the field proves it, see JoinArgs.bearer); else a proof join; else, only
 * in development mode, an unverified seat.
 */
async function proveMachine(ctx: ToolContext, args: JoinArgs): Promise<Proven> {
  const authorization = ctx.request.headers.get("Authorization");
  // On the signed-in URL the OAuth grant proves the machine, exactly as a bearer token would.
  const claim = ctx.signedIn ? { ok: true as const, claim: ctx.signedIn } : await bearerClaimOf(authorization);
  if (claim) {
    if (!claim.ok) return claim;
    const machineId = claim.claim.machineId;
    if (args.machine_id !== undefined && args.machine_id !== machineId) {
      // A token that is not current is refused as such first, as on every call.
      const token = ctx.signedIn ? null : await machineFromBearer(ctx.env, authorization);
      if (token && !token.ok) return token;
      return { ok: false, code: "identity", message: `machine_id ${args.machine_id} does not match your bearer token's machine ${machineId}` };
    }
    return { ok: true, machineId, verified: true, issueSecret: false, bearer: claim.claim };
  }
  if (args.proof !== undefined || args.public_key !== undefined) {
    if (args.machine_id === undefined || args.public_key === undefined || args.proof === undefined) {
      return { ok: false, code: "bad_input", message: "a proof join needs machine_id, public_key and proof together (see /identity)" };
    }
    // Verifying spends the proof (single use): refuse first whatever needs no identity, so that
    // the same proof still works once, say, a generating field is playing.
    const open = await fieldJoinable(ctx, args.game_id);
    if (!open.ok) return open;
    const proven = await verifyJoinProof(ctx.env, {
      gameId: args.game_id,
      machineId: args.machine_id,
      publicKey: args.public_key,
      proof: args.proof,
      session: args.session,
    });
    if (!proven.ok) return proven;
    return { ok: true, machineId: proven.machineId, verified: true, issueSecret: true };
  }
  if (ctx.env.MOSAIC_DEV === "1") {
    const machineId = args.machine_id !== undefined && MACHINE_ID_RE.test(args.machine_id) ? args.machine_id : DEV_MACHINE;
    return { ok: true, machineId, verified: false, issueSecret: true };
  }
  return {
    ok: false,
    code: "identity",
    message:
      "join needs a verified identity: send 'Authorization: Bearer msc_…' (mint one with POST /api/keys/auth) or pass machine_id, public_key and proof. How-to with copy-paste commands: /identity (or /identity.md).",
  };
}
