// A machine's sign-in grants (SPEC §8.1): listed and revoked by signed requests of its key.
// Revoking deletes the grant and its tokens from the provider and the secret's hash from the
// machine's identity object (with its access tokens' hashes, forgotten by every field that held
// them): the next call with any of its tokens is refused. Minting a new
// `msc_` token touches neither.
import { z } from "zod";
import type { GrantSummary } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env";
import { sha256Hex } from "../text/encoding";
import { expiryOf, keyAuthSchema, storageRefusal, verifySigned, type KeyError, type RequestFacts } from "../identity/key-requests";
import { oauthGrantsMessage, oauthRevokeMessage } from "../identity/messages";
import type { SignInRecord } from "../identity/oauth-store";
import { identityStub } from "../identity/stub";
import { shownClient } from "./client-view";
import { oauthApi } from "./provider";

export const grantsSchema = keyAuthSchema;
export const revokeSchema = keyAuthSchema.extend({ grant: z.string({ error: "grant is required: a grant id from the list" }).max(200) });

export interface GrantView {
  grant: string;
  client_id: string;
  client: SignInRecord["client"] | null;
  created_at: string;
  expires_at: string | null;
}

function view(g: GrantSummary): GrantView {
  const meta = g.metadata as { client?: SignInRecord["client"] } | null;
  return {
    grant: g.id,
    client_id: g.clientId,
    // Names are cleaned at display too: grants made before names were cleaned at registration.
    client: meta?.client ? shownClient(meta.client) : null,
    created_at: new Date(g.createdAt * 1000).toISOString(),
    expires_at: g.expiresAt ? new Date(g.expiresAt * 1000).toISOString() : null,
  };
}

async function grantsOf(env: Env, origin: string, machineId: string): Promise<GrantSummary[]> {
  const api = oauthApi(origin, env);
  const all: GrantSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listUserGrants(machineId, cursor ? { cursor } : {});
    all.push(...page.items);
    cursor = page.cursor;
  } while (cursor && all.length < 1000);
  return all;
}

async function spend(env: Env, kind: string, v: { machineId: string; publicKey: string; ts: number; message: string }, nowMs: number): Promise<KeyError | null> {
  const r = await identityStub(env, v.machineId).spendRequest({
    machineId: v.machineId,
    publicKey: v.publicKey,
    kind,
    requestDigest: await sha256Hex(`${kind}|${v.publicKey}|${v.message}`),
    expiresAtMs: expiryOf(v.ts),
    nowMs,
  });
  return r.ok ? null : storageRefusal(r);
}

export async function listGrants(env: Env, origin: string, body: z.infer<typeof grantsSchema>, facts: RequestFacts): Promise<{ ok: true; machineId: string; grants: GrantView[] } | KeyError> {
  const v = await verifySigned(body, facts, oauthGrantsMessage);
  if (!v.ok) return v;
  const refused = await spend(env, "grants", v, facts.nowMs);
  if (refused) return refused;
  return { ok: true, machineId: v.machineId, grants: (await grantsOf(env, origin, v.machineId)).map(view) };
}

export async function revokeGrant(
  env: Env,
  origin: string,
  body: z.infer<typeof revokeSchema>,
  facts: RequestFacts,
): Promise<{ ok: true; machineId: string; revoked: string } | KeyError | { ok: false; status: 404; code: "missing"; message: string }> {
  const v = await verifySigned(body, facts, (host, ts) => oauthRevokeMessage(host, ts, body.grant));
  if (!v.ok) return v;
  const refused = await spend(env, "revoke", v, facts.nowMs);
  if (refused) return refused;
  const grant = (await grantsOf(env, origin, v.machineId)).find((g) => g.id === body.grant);
  if (!grant) return { ok: false, status: 404, code: "missing", message: `${v.machineId} has no grant ${body.grant} (list them with a signed POST /api/keys/grants)` };
  await revokeEverywhere(env, origin, v.machineId, grant.id, (grant.metadata as { ref?: string } | null)?.ref);
  return { ok: true, machineId: v.machineId, revoked: grant.id };
}

/**
 * Ends a grant: the provider's tokens first (it refuses them from the next call), then their
 * hashes in the machine's identity object, which tells every field holding a vouch for one of them
 * before it answers, then the secret's hash: no field asking again is told they are the machine's.
 */
export async function revokeEverywhere(env: Env, origin: string, machineId: string, grantId: string, ref: string | undefined): Promise<void> {
  await oauthApi(origin, env).revokeGrant(grantId, machineId);
  const identity = identityStub(env, machineId);
  await identity.revokeAccess(machineId, { grantId });
  if (ref) await identity.dropGrant(ref);
}
