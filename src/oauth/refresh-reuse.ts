// Refresh token reuse detection (SPEC §8.1, RFC 9700 §4.14.2). The provider keeps a grant's
// current refresh token and the one before it, and honours the previous one for as long as the
// grant lives, so a stolen old token would work for its 30 days and lock the rightful client out.
// Before the provider sees a refresh request, the machine's identity object (which records every
// refresh token issued, oauth-refresh.ts) judges the token: one replaced longer ago than the retry
// window, or presented again after its one retry, revokes the grant and all its tokens.
import type { Env } from "../env";
import { identityStub } from "../identity/stub";
import { sha256Hex } from "../text/encoding";
import { accessTokenParts } from "./access-tokens";
import { revokeEverywhere } from "./grants";

/** What is stored of a refresh token: a hash apart from the access tokens' (which name their resource). */
export function refreshTokenHash(token: string): Promise<string> {
  return sha256Hex(`refresh\n${token}`);
}

/** The OAuth error of a reused refresh token, after its grant was revoked. */
function reusedAnswer(): Response {
  const description = "this refresh token was already replaced by a newer one: it was used twice, so the sign-in is revoked; sign in again";
  return Response.json({ error: "invalid_grant", error_description: description }, { status: 400, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
}

/**
 * The refusal of a refresh request whose token was reused (its grant now revoked), or null to let
 * the provider answer. Only a grant the provider holds is asked about, so a made-up token naming a
 * machine reaches no machine's object.
 */
export async function refusedRefresh(env: Env, origin: string, form: URLSearchParams): Promise<Response | null> {
  const token = form.get("grant_type") === "refresh_token" ? form.get("refresh_token") : null;
  const parts = token ? accessTokenParts(token) : null;
  if (!token || !parts) return null;
  const grant = await env.OAUTH_KV.get<{ metadata?: { ref?: string } | null }>(`grant:${parts.machineId}:${parts.grantId}`, { type: "json" });
  if (grant === null) return null;
  const verdict = await identityStub(env, parts.machineId).judgeRefresh(await refreshTokenHash(token), Date.now());
  if (verdict !== "reused") return null;
  await revokeEverywhere(env, origin, parts.machineId, parts.grantId, grant.metadata?.ref ?? undefined);
  return reusedAnswer();
}
