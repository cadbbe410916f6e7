// Keeps the machines' identity objects in step with the access tokens the provider issues and
// revokes at its token endpoint (SPEC §8.1), so that the signed-in URL can check a token the way
// it checks a bearer token (access-tokens.ts). Only hashes cross; the provider stays the authority:
// a token it revoked is dropped here too, and a token unknown here goes to the provider.
// A request that authenticates nothing writes nothing: a machine's object is told only of what the
// provider really issued or really revoked (SPEC §8.1).
import type { Env } from "../env";
import { identityStub } from "../identity/stub";
import { isRecord } from "../referee/validate";
import { sha256Hex } from "../text/encoding";
import { accessTokenHash, accessTokenParts, issuedExpiryMs } from "./access-tokens";
import { SIGNED_IN_PATH } from "./provider";
import { refreshTokenHash } from "./refresh-reuse";

/** What the provider held, before a revocation or code request, of the grant and token it names. */
export interface HeldBefore {
  machineId: string;
  grantId: string;
  token: string;
  grant: boolean;
  record: boolean;
}

const grantKey = (machineId: string, grantId: string): string => `grant:${machineId}:${grantId}`;
const tokenKey = async (machineId: string, grantId: string, token: string): Promise<string> => `token:${machineId}:${grantId}:${await sha256Hex(token)}`;

function isRevocation(form: URLSearchParams): boolean {
  return !form.get("grant_type") && Boolean(form.get("token"));
}

/**
 * Reads the provider's KV keys (`grant:<user>:<grant>`, `token:<user>:<grant>:<SHA-256 of the
 * token>`) for the token of a revocation (RFC 7009) or the code of an exchange, before the provider
 * answers: what it deletes meanwhile is what it revoked. A made-up token names nothing held.
 */
export async function beforeTokenRequest(env: Env, form: URLSearchParams): Promise<HeldBefore | null> {
  const token = isRevocation(form) ? form.get("token") : form.get("grant_type") === "authorization_code" ? form.get("code") : null;
  const parts = token ? accessTokenParts(token) : null;
  if (!token || !parts) return null;
  const grant = (await env.OAUTH_KV.get(grantKey(parts.machineId, parts.grantId))) !== null;
  const record = grant && isRevocation(form) && (await env.OAUTH_KV.get(await tokenKey(parts.machineId, parts.grantId, token))) !== null;
  return { ...parts, token, grant, record };
}

/**
 * After the provider answered a token request: an issued access token (authorization code or
 * refresh) is recorded in its machine's identity object before the answer leaves, so the first
 * call with it is already served from there, and so is the refresh token (for reuse detection,
 * refresh-reuse.ts); a revocation, and a reused code (which makes the provider revoke the grant),
 * is mirrored when the provider really deleted what it held before the request.
 */
export async function afterTokenRequest(env: Env, origin: string, form: URLSearchParams, startedMs: number, response: Response, before: HeldBefore | null): Promise<Response> {
  const resource = `${origin}${SIGNED_IN_PATH}`;
  if (isRevocation(form) || !response.ok) {
    // A refused revocation (an unknown client) revoked nothing.
    if (before && (response.ok || !isRevocation(form))) await mirrorRevocation(env, resource, before);
    return response;
  }
  const body: unknown = await response.clone().json().catch(() => null);
  if (!isRecord(body)) return response;
  const nowMs = Date.now();
  const refresh = typeof body.refresh_token === "string" ? accessTokenParts(body.refresh_token) : null;
  if (refresh && typeof body.refresh_token === "string") {
    const presented = form.get("grant_type") === "refresh_token" ? form.get("refresh_token") : null;
    await identityStub(env, refresh.machineId).recordRefresh({
      grantId: refresh.grantId,
      hash: await refreshTokenHash(body.refresh_token),
      presentedHash: presented ? await refreshTokenHash(presented) : null,
      nowMs,
    });
  }
  if (typeof body.access_token !== "string" || typeof body.expires_in !== "number") return response;
  const parts = accessTokenParts(body.access_token);
  // A token bound to another resource (or to none) is left to the provider.
  if (!parts || body.resource !== resource) return response;
  await identityStub(env, parts.machineId).addAccessToken({
    hash: await accessTokenHash(resource, body.access_token),
    grantId: parts.grantId,
    machineId: parts.machineId,
    expiresAtMs: issuedExpiryMs(startedMs, body.expires_in),
    nowMs,
  });
  return response;
}

/** The whole grant when the provider deleted its record, else this access token when it deleted that. */
async function mirrorRevocation(env: Env, resource: string, before: HeldBefore): Promise<void> {
  const { machineId, grantId, token } = before;
  if (before.grant && (await env.OAUTH_KV.get(grantKey(machineId, grantId))) === null) {
    await identityStub(env, machineId).revokeAccess(machineId, { grantId });
    return;
  }
  if (before.record && (await env.OAUTH_KV.get(await tokenKey(machineId, grantId, token))) === null) {
    await identityStub(env, machineId).revokeAccess(machineId, { hash: await accessTokenHash(resource, token) });
  }
}
