import { tokenRefusal } from "../identity/api";
import { identityStub } from "../identity/stub";
import type { BearerClaim } from "../identity/vouched-tokens";
import type { FieldContext } from "./field-context";
import type { Outcome } from "./field-types";

/** Who a call to the field is: the machine its bearer token proves, or the refusal of that token. */
export type BearerProof = { ok: true; machineId: string } | Extract<Outcome, { ok: false }>;

/**
 * The machine a bearer token proves to this field. A vouch the field holds answers at once (the
 * common case: an agent's every call after its first); otherwise the machine's identity object is
 * asked, and its answer is held for the next calls, the field being noted there so that a new
 * token minted later revokes it (src/identity/vouched-tokens.ts). A field that was never created
 * asks without being noted: it holds nothing and must leave nothing behind.
 */
export async function proveBearer(f: FieldContext, claim: BearerClaim): Promise<BearerProof> {
  const held = f.vouched.lookup(claim, Date.now());
  if (held !== undefined) return { ok: true, machineId: held };
  const gameId = f.store.getMeta<string>("game_id");
  const identity = identityStub(f.env, claim.machineId);
  if (gameId === undefined) {
    const status = await identity.resolveToken(claim.tokenHash);
    return status.status === "current" ? { ok: true, machineId: status.machineId } : refused(status.status, claim.machineId);
  }
  const vouch = await identity.vouch(claim.tokenHash, gameId);
  if (vouch.status !== "current") return refused(vouch.status, claim.machineId);
  // A revocation heard while the vouch was on its way: the token was replaced meanwhile.
  if (!f.vouched.remember(claim, vouch, Date.now())) return refused("replaced", claim.machineId);
  return { ok: true, machineId: vouch.machineId };
}

/** The edge's refusal of such a token, as the field's answer. */
function refused(status: "replaced" | "unknown", machineId: string): BearerProof {
  const { code, message } = tokenRefusal(status, machineId);
  return { ok: false, error: { code, message } };
}
