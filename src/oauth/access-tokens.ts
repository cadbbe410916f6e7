// What the signed-in URL's fast path knows of an OAuth access token (SPEC §8.1), without the
// provider's KV record: the library writes tokens as `<userId>:<grantId>:<secret>` and the grant's
// user is the machine id, so a token names the identity object that records it. Pure: no Workers API.
import { sha256Hex } from "../text/encoding";
import { MACHINE_ID_RE } from "../referee/agent-id";
import { isRecord } from "../referee/validate";
import type { BearerClaim } from "../identity/vouched-tokens";

/** The library's grant ids and token secrets: its 64-character alphabet (A–Z, a–z, 0–9, `-`, `_`). */
const PART_RE = /^[A-Za-z0-9_-]{8,128}$/;
/** The library's own reading of the header (a token without whitespace or commas). */
const BEARER_RE = /^Bearer[\t ]+([^\s,]+)$/i;

/** A bearer claim whose token is an OAuth access token of one grant. */
export interface AccessClaim extends BearerClaim {
  grantId: string;
}

/** The token of an `Authorization: Bearer …` header, read as the provider reads it; null otherwise. */
export function bearerTokenOf(authorization: string | null): string | null {
  return authorization ? (BEARER_RE.exec(authorization)?.[1] ?? null) : null;
}

/** The machine and grant an access token names, or null when it cannot be one the provider issued to a machine. */
export function accessTokenParts(token: string): { machineId: string; grantId: string } | null {
  const parts = token.split(":");
  if (parts.length !== 3) return null;
  const [machineId, grantId, secret] = parts as [string, string, string];
  if (!MACHINE_ID_RE.test(machineId) || !PART_RE.test(grantId) || !PART_RE.test(secret)) return null;
  return { machineId, grantId };
}

/**
 * What is stored of an access token: SHA-256 of the resource it was issued for and the token. The
 * resource is in the hash so that a token used at another origin than its audience is unknown here
 * and goes to the provider, which refuses it as it always did.
 */
export function accessTokenHash(resource: string, token: string): Promise<string> {
  return sha256Hex(`${resource}\n${token}`);
}

/** The claim of an access token used at `resource`, or null when the token is not of that form. */
export async function accessClaimOf(resource: string, token: string): Promise<AccessClaim | null> {
  const parts = accessTokenParts(token);
  return parts ? { ...parts, tokenHash: await accessTokenHash(resource, token) } : null;
}

/**
 * When a token issued with `expiresInS` stops being accepted here. The provider stamps its expiry
 * in whole seconds from its own clock during the request; counting from the second the request
 * started makes ours never later than the provider's.
 */
export function issuedExpiryMs(requestStartMs: number, expiresInS: number): number {
  return Math.floor(requestStartMs / 1000) * 1000 + expiresInS * 1000;
}

/**
 * The tools that prove a bearer claim at a field before they change anything: their calls can
 * take the fast path, since a field that refuses the claim has done nothing yet.
 */
const FIELD_PROVEN_TOOLS = new Set(["join", "observe", "reveal", "commit", "retract"]);

/** Whether a JSON-RPC message is a call of one of those tools. */
export function isFieldProvenCall(message: Record<string, unknown>): boolean {
  if (message.method !== "tools/call") return false;
  const name = isRecord(message.params) ? message.params.name : undefined;
  return typeof name === "string" && FIELD_PROVEN_TOOLS.has(name);
}
