// Approving a sign-in (SPEC §8.1): the machine proves itself by a signature over
// `mosaic-oauth-approve:<host>:<request id>:<ts>` (a browser key or the key file) or by its `msc_`
// token. Everything that can refuse runs before anything is changed, and the pending request is
// taken only once the provider has issued the code: an approval that cannot complete leaves the
// sign-in pending and usable. The redirect (with the code) goes only to the consent page that
// holds the page's secret: in this answer when the page approved, else on its next look, once.
import { z } from "zod";
import type { AuthRequest } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env";
import { machineFromBearer } from "../identity/api";
import type { SignInClaim, SignInRecord } from "../identity/oauth-store";
import { notPending } from "../identity/oauth-store";
import { sha256Hex } from "../text/encoding";
import { verifySigned, type KeyError, type RequestFacts } from "../identity/key-requests";
import { oauthApproveMessage } from "../identity/messages";
import { identityStub } from "../identity/stub";
import { restoreMetadataClient } from "./cimd";
import { oauthApi, PLAY_SCOPE, type GrantProps } from "./provider";
import { newGrantSecret, normaliseRequestId, showRequestId, signInStub } from "./signin-requests";

const TS_MESSAGE = "ts must be unix seconds (an integer)";
export const approveSchema = z.object({
  request: z.string({ error: "request is required: the sign-in code the page shows" }).max(40),
  publicKey: z.string().max(4096).optional(),
  ts: z.number(TS_MESSAGE).int(TS_MESSAGE).nonnegative(TS_MESSAGE).max(1e12, TS_MESSAGE).optional(),
  sig: z.string().max(200).optional(),
  host: z.string().max(300).optional(),
  token: z.string().max(200).optional(),
  /** The consent page's secret: sent by the page only, which then gets the redirect in the answer. */
  secret: z.string().max(100).optional(),
});

export type ApproveError =
  | KeyError
  | { ok: false; status: 401 | 403 | 404 | 409 | 410; code: "missing" | "expired" | "replayed" | "key_mismatch" | "token" | "wrong_host" | "page_secret"; message: string };
/** `redirectTo` is null unless the consent page itself approved (it waits for it otherwise). */
export type Approved = { ok: true; machineId: string; redirectTo: string | null };

function refusal(claim: Extract<SignInClaim, { ok: false }>): ApproveError {
  return { ok: false, status: claim.code === "missing" ? 404 : claim.code === "expired" ? 410 : 409, code: claim.code, message: claim.message };
}

export async function approveSignIn(env: Env, origin: string, body: z.infer<typeof approveSchema>, facts: RequestFacts): Promise<Approved | ApproveError> {
  const id = normaliseRequestId(body.request);
  if (!id) return { ok: false, status: 400, code: "bad_input", message: "request must be the 10-character sign-in code the page shows" };
  const stub = signInStub(env, id);
  const state = await stub.signInState(id, facts.nowMs);
  const closed = notPending(state, id);
  if (closed || state?.status !== "pending") return refusal(closed ?? { ok: false, code: "missing", message: `no sign-in request ${id} is waiting here` });
  const record = state.record;
  const refused = await checkPlace(record, origin, body.secret);
  if (refused) return refused;
  const proven = await proveMachine(env, id, body, facts);
  if (!proven.ok) return proven;
  const { machineId } = proven;
  // The client as checked at the start stays valid for the whole sign-in, whatever its cache says.
  if (record.metadataClient) await restoreMetadataClient(env.OAUTH_KV, record.client.id, record.metadataClient);
  const { ref, secret } = newGrantSecret();
  const api = oauthApi(origin, env);
  const props: GrantProps = { machineId, ref, secret };
  const { redirectTo } = await api.completeAuthorization({
    request: JSON.parse(record.request) as AuthRequest,
    userId: machineId,
    metadata: { ref, client: record.client },
    scope: [PLAY_SCOPE],
    props,
    // A machine may sign in from several installations of one client (a shared metadata URL);
    // grants are listed and revoked by the machine itself.
    revokeExistingGrants: false,
  });
  // The code is `<machine>:<grant>:<secret>` (test/workers/oauth-fast-path.test.ts pins the form).
  const grantId = new URL(redirectTo).searchParams.get("code")?.split(":")[1] ?? "";
  const undo = async () => {
    await Promise.allSettled([api.revokeGrant(grantId, machineId), identityStub(env, machineId).dropGrant(ref)]);
  };
  const page = body.secret !== undefined;
  try {
    // The secret's hash is recorded before the code leaves, so the first call already vouches.
    await identityStub(env, machineId).addGrant({ ref, machineId, hash: await sha256Hex(secret), nowMs: facts.nowMs });
    const taken = await stub.completeSignIn(id, machineId, redirectTo, page, facts.nowMs);
    if (!taken.ok) {
      await undo(); // another approval won the race: this grant never existed for anyone
      return refusal(taken);
    }
  } catch (err) {
    await undo();
    throw err;
  }
  return { ok: true, machineId, redirectTo: page ? redirectTo : null };
}

/**
 * Refusals that need no proof, before anything is written: the provider binds the code to the
 * issuer and resource of the origin the sign-in was opened at, so it completes there only; and a
 * page secret, when sent, must be this sign-in's.
 */
async function checkPlace(record: SignInRecord, origin: string, pageSecret: string | undefined): Promise<ApproveError | null> {
  const code = showRequestId(record.id);
  if (record.origin !== undefined && record.origin !== origin) {
    return { ok: false, status: 403, code: "wrong_host", message: `sign-in ${code} was opened at ${record.origin}: approve it there (this request came to ${origin}); it is still waiting` };
  }
  if (pageSecret !== undefined && (await sha256Hex(pageSecret)) !== record.secretHash) {
    return { ok: false, status: 403, code: "page_secret", message: `this page's secret is not sign-in ${code}'s: reload the consent page` };
  }
  return null;
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
