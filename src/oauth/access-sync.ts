// Keeps the machines' identity objects in step with the access tokens the provider issues and
// revokes at its token endpoint (SPEC §8.1), so that the signed-in URL can check a token the way
// it checks a bearer token (access-tokens.ts). Only hashes cross; the provider stays the authority:
// a token it revoked is dropped here too, and a token unknown here goes to the provider.
import type { Env } from "../env";
import { identityStub } from "../identity/stub";
import { isRecord } from "../referee/validate";
import { sha256Hex } from "../text/encoding";
import { accessTokenHash, accessTokenParts, issuedExpiryMs } from "./access-tokens";
import { SIGNED_IN_PATH } from "./provider";

/**
 * After the provider answered a token request: an issued access token (authorization code or
 * refresh) is recorded in its machine's identity object before the answer leaves, so the first
 * call with it is already served from there; a revocation (RFC 7009), and a reused code (which
 * makes the provider revoke the grant), is mirrored by reading what the provider kept.
 */
export async function afterTokenRequest(env: Env, origin: string, form: URLSearchParams, startedMs: number, response: Response): Promise<Response> {
  const resource = `${origin}${SIGNED_IN_PATH}`;
  if (!form.get("grant_type") && form.get("token")) {
    await mirrorRevocation(env, resource, form.get("token") ?? "");
    return response;
  }
  if (!response.ok) {
    if (form.get("grant_type") === "authorization_code") await mirrorRevocation(env, resource, form.get("code") ?? "");
    return response;
  }
  const body: unknown = await response.clone().json().catch(() => null);
  if (!isRecord(body) || typeof body.access_token !== "string" || typeof body.expires_in !== "number") return response;
  const parts = accessTokenParts(body.access_token);
  // A token bound to another resource (or to none) is left to the provider.
  if (!parts || body.resource !== resource) return response;
  await identityStub(env, parts.machineId).addAccessToken({
    hash: await accessTokenHash(resource, body.access_token),
    grantId: parts.grantId,
    machineId: parts.machineId,
    expiresAtMs: issuedExpiryMs(startedMs, body.expires_in),
    nowMs: Date.now(),
  });
  return response;
}

/**
 * What the provider revoked for a token (or code) of `<machine>:<grant>:…`: the whole grant when
 * its record is gone, else this access token when its record is gone. Reads the provider's KV
 * keys (`grant:<user>:<grant>`, `token:<user>:<grant>:<SHA-256 of the token>`).
 */
async function mirrorRevocation(env: Env, resource: string, token: string): Promise<void> {
  const parts = accessTokenParts(token);
  if (!parts) return;
  const { machineId, grantId } = parts;
  const identity = identityStub(env, machineId);
  if ((await env.OAUTH_KV.get(`grant:${machineId}:${grantId}`)) === null) {
    await identity.revokeAccess(machineId, { grantId });
    return;
  }
  if ((await env.OAUTH_KV.get(`token:${machineId}:${grantId}:${await sha256Hex(token)}`)) === null) {
    await identity.revokeAccess(machineId, { hash: await accessTokenHash(resource, token) });
  }
}
