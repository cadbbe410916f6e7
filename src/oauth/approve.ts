// Approving a sign-in (SPEC §8.1): the machine proves itself by a signature over
// `mosaic-oauth-approve:<host>:<request id>:<ts>` (a browser key or the key file) or by its `msc_`
// token; the pending request is taken once; the grant's secret is recorded with the machine, then
// the provider issues the authorization code bound to that machine.
import { z } from "zod";
import type { AuthRequest } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env";
import { machineFromBearer } from "../identity/api";
import { sha256Hex } from "../text/encoding";
import { verifySigned, type KeyError, type RequestFacts } from "../identity/key-requests";
import { oauthApproveMessage } from "../identity/messages";
import { identityStub } from "../identity/stub";
import { oauthApi, PLAY_SCOPE, type GrantProps } from "./provider";
import { newGrantSecret, normaliseRequestId, signInStub } from "./signin-requests";

const TS_MESSAGE = "ts must be unix seconds (an integer)";
export const approveSchema = z.object({
  request: z.string({ error: "request is required: the sign-in code the page shows" }).max(40),
  publicKey: z.string().max(4096).optional(),
  ts: z.number(TS_MESSAGE).int(TS_MESSAGE).nonnegative(TS_MESSAGE).max(1e12, TS_MESSAGE).optional(),
  sig: z.string().max(200).optional(),
  host: z.string().max(300).optional(),
  token: z.string().max(200).optional(),
});

export type ApproveError = KeyError | { ok: false; status: 401 | 404 | 409 | 410; code: "missing" | "expired" | "replayed" | "key_mismatch" | "token"; message: string };
export type Approved = { ok: true; machineId: string; redirectTo: string };

export async function approveSignIn(env: Env, origin: string, body: z.infer<typeof approveSchema>, facts: RequestFacts): Promise<Approved | ApproveError> {
  const id = normaliseRequestId(body.request);
  if (!id) return { ok: false, status: 400, code: "bad_input", message: "request must be the 10-character sign-in code the page shows" };
  const proven = await proveMachine(env, id, body, facts);
  if (!proven.ok) return proven;
  const { machineId } = proven;
  const claimed = await signInStub(env, id).claimSignIn(id, machineId, facts.nowMs);
  if (!claimed.ok) return { ok: false, status: claimed.code === "missing" ? 404 : claimed.code === "expired" ? 410 : 409, code: claimed.code, message: claimed.message };
  // The secret's hash is recorded before any token can carry it, so the first call already vouches.
  const { ref, secret } = newGrantSecret();
  await identityStub(env, machineId).addGrant({ ref, machineId, hash: await sha256Hex(secret), nowMs: facts.nowMs });
  const props: GrantProps = { machineId, ref, secret };
  const { redirectTo } = await oauthApi(origin, env).completeAuthorization({
    request: JSON.parse(claimed.record.request) as AuthRequest,
    userId: machineId,
    metadata: { ref, client: claimed.record.client },
    scope: [PLAY_SCOPE],
    props,
    // A machine may sign in from several installations of one client (a shared metadata URL);
    // grants are listed and revoked by the machine itself.
    revokeExistingGrants: false,
  });
  await signInStub(env, id).finishSignIn(id, redirectTo);
  return { ok: true, machineId, redirectTo };
}

async function proveMachine(env: Env, id: string, body: z.infer<typeof approveSchema>, facts: RequestFacts): Promise<{ ok: true; machineId: string } | ApproveError> {
  if (body.token !== undefined) {
    const who = await machineFromBearer(env, `Bearer ${body.token.trim()}`);
    if (who === null || !who.ok) return { ok: false, status: 401, code: "token", message: who?.message ?? "a token is required" };
    return who;
  }
  if (body.publicKey === undefined || body.ts === undefined || body.sig === undefined) {
    return { ok: false, status: 400, code: "bad_input", message: "approve with publicKey, ts and sig (a signature over 'mosaic-oauth-approve:<host>:<code>:<ts>'), or with token" };
  }
  const v = await verifySigned({ publicKey: body.publicKey, ts: body.ts, sig: body.sig, host: body.host }, facts, (host, ts) => oauthApproveMessage(host, id, ts));
  if (!v.ok) return v;
  // First key wins for a machine id, as for every signed request (SPEC §8).
  const claim = await identityStub(env, v.machineId).claimKey(v.machineId, v.publicKey, facts.nowMs);
  if (!claim.ok) return { ok: false, status: 409, code: "key_mismatch", message: claim.message };
  return { ok: true, machineId: v.machineId };
}
