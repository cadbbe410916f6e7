// Signed key requests (SPEC §8): minting a bearer token and setting the display name.
// Every input is checked with zod here, at the edge, before any storage is touched.
import { z } from "zod";
import type { Env } from "../env";
import { sha256Hex } from "../text/encoding";
import { machineIdOf, parsePublicKey, parseSignature, verifyEd25519 } from "./keys";
import { keyAuthMessage, keyNameMessage, TS_WINDOW_SECONDS } from "./messages";
import { identityStub } from "./stub";
import { newToken, tokenHash } from "./tokens";

export type KeyErrorCode = "bad_input" | "bad_signature" | "wrong_host" | "stale_timestamp" | "key_mismatch" | "replayed";
export type KeyError = { ok: false; status: 400 | 401 | 409; code: KeyErrorCode; message: string };

const TS_MESSAGE = "ts must be unix seconds (an integer)";
const ts = z.union(
  [z.number(TS_MESSAGE).int(TS_MESSAGE).nonnegative(TS_MESSAGE).max(1e12, TS_MESSAGE), z.string(TS_MESSAGE).regex(/^[0-9]{1,12}$/, TS_MESSAGE).transform(Number)],
  { error: TS_MESSAGE },
);
const base = {
  publicKey: z.string({ error: "publicKey is required: the raw 32-byte ed25519 public key in base64" }).max(4096),
  ts,
  sig: z.string({ error: "sig is required: the base64url ed25519 signature" }).max(200),
  /** Optional: the host the client signed for, so a mismatch can be named instead of reported as a bad signature. */
  host: z.string().max(300).optional(),
};
export const keyAuthSchema = z.object(base);

/** Display names: 1-40 characters, letters (any script), digits, space and . _ - ' ( ); no edge spaces. */
export const NAME_RE = /^[\p{L}\p{N}._'()-](?:[\p{L}\p{N} ._'()-]{0,38}[\p{L}\p{N}._'()-])?$/u;
export const keyNameSchema = z.object({
  ...base,
  name: z
    .string({ error: "name is required" })
    .max(40, "name must be at most 40 characters")
    .regex(NAME_RE, "name must be 1-40 characters: letters, digits, space and . _ - ' ( ), not starting or ending with a space"),
});

/** The identity arguments of a proof join, as `join` takes them (checked further by checkJoinProof). */
export const proofCheckSchema = z.object({
  game_id: z.string({ error: "game_id is required" }).max(80, "game_id must match ^[a-zA-Z0-9_-]{1,80}$"),
  machine_id: z.string({ error: "machine_id is required" }).max(64),
  public_key: z.string({ error: "public_key is required" }).max(4096),
  proof: z.string({ error: "proof is required" }).max(200),
  session: z.string().max(200, "session must be 1..24 printable characters, not /").default("1"),
});

export interface RequestFacts {
  /** The request's Host header exactly as sent. */
  host: string;
  /** Other spellings of the host a confused client may have signed for (used only to explain a failure). */
  altHosts: string[];
  nowMs: number;
}

export type Verified = { ok: true; machineId: string; publicKey: string; ts: number; message: string };

export async function verifySigned(
  body: z.infer<typeof keyAuthSchema>,
  facts: RequestFacts,
  messageFor: (host: string, ts: number) => string,
): Promise<Verified | KeyError> {
  const key = parsePublicKey(body.publicKey);
  if (!key.ok) return { ok: false, status: 400, code: "bad_input", message: key.message };
  const sig = parseSignature(body.sig);
  if (!sig) return { ok: false, status: 400, code: "bad_input", message: "malformed signature: sig must be a 64-byte ed25519 signature in base64url" };
  if (body.host !== undefined && body.host !== facts.host) {
    return { ok: false, status: 401, code: "wrong_host", message: `wrong host: you signed for '${body.host}' but this request's Host header is '${facts.host}'; sign '${messageFor(facts.host, body.ts)}'` };
  }
  const nowS = Math.floor(facts.nowMs / 1000);
  if (Math.abs(nowS - body.ts) > TS_WINDOW_SECONDS) {
    return {
      ok: false,
      status: 401,
      code: "stale_timestamp",
      message: `stale timestamp: ts ${body.ts} is ${Math.abs(nowS - body.ts)} s away from the server's clock (${nowS}); it must be within ${TS_WINDOW_SECONDS} s`,
    };
  }
  const message = messageFor(facts.host, body.ts);
  if (!(await verifyEd25519(key.raw, sig, message))) {
    for (const alt of facts.altHosts) {
      if (alt !== facts.host && (await verifyEd25519(key.raw, sig, messageFor(alt, body.ts)))) {
        return { ok: false, status: 401, code: "wrong_host", message: `wrong host: the signature is for host '${alt}' but this request's Host header is '${facts.host}'; sign '${message}'` };
      }
    }
    return { ok: false, status: 401, code: "bad_signature", message: `bad signature: sig does not verify over '${message}' with this public key` };
  }
  return { ok: true, machineId: await machineIdOf(key.raw), publicKey: key.rawBase64, ts: body.ts, message };
}

/** Signed requests are single-use for as long as their timestamp could be accepted. */
export function expiryOf(ts: number): number {
  return (ts + TS_WINDOW_SECONDS + 60) * 1000;
}

export function storageRefusal(r: { code: string; message: string }): KeyError {
  if (r.code === "identity") return { ok: false, status: 409, code: "key_mismatch", message: r.message };
  if (r.code === "stale") return { ok: false, status: 401, code: "stale_timestamp", message: r.message };
  return { ok: false, status: 409, code: "replayed", message: r.message };
}

export async function mintToken(env: Env, body: z.infer<typeof keyAuthSchema>, facts: RequestFacts): Promise<{ ok: true; token: string; machineId: string } | KeyError> {
  const v = await verifySigned(body, facts, keyAuthMessage);
  if (!v.ok) return v;
  const token = newToken(v.machineId);
  const r = await identityStub(env, v.machineId).mintToken({
    machineId: v.machineId,
    publicKey: v.publicKey,
    tokenHash: await tokenHash(token),
    requestDigest: await sha256Hex(`auth|${v.publicKey}|${v.message}`),
    expiresAtMs: expiryOf(v.ts),
    nowMs: facts.nowMs,
  });
  if (!r.ok) return storageRefusal(r);
  return { ok: true, token, machineId: v.machineId };
}

export async function setName(env: Env, body: z.infer<typeof keyNameSchema>, facts: RequestFacts): Promise<{ ok: true; machineId: string; name: string } | KeyError> {
  const v = await verifySigned(body, facts, (host, t) => keyNameMessage(host, t, body.name));
  if (!v.ok) return v;
  const r = await identityStub(env, v.machineId).setName({
    machineId: v.machineId,
    publicKey: v.publicKey,
    name: body.name,
    ts: v.ts,
    requestDigest: await sha256Hex(`name|${v.publicKey}|${v.message}`),
    expiresAtMs: expiryOf(v.ts),
    nowMs: facts.nowMs,
  });
  if (!r.ok) return storageRefusal(r);
  return { ok: true, machineId: v.machineId, name: body.name };
}
