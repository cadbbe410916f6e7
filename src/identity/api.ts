// Worker-side identity helpers for the rest of the service (the MCP tools call these).
import type { Env } from "../env";
import { sha256Hex } from "../text/encoding";
import { MACHINE_ID_RE } from "../referee/agent-id";
import { machineIdOf, parsePublicKey, parseSignature, verifyEd25519 } from "./keys";
import { sessionProblem } from "../referee/agent-id";
import { joinMessage } from "./messages";
import { identityStub } from "./stub";
import { tokenHash, tokenMachineId } from "./tokens";
import type { BearerClaim } from "./vouched-tokens";

export type IdentityFailure = { ok: false; code: "token" | "identity" | "proof" | "bad_input"; message: string };

const MINT_AGAIN = "Mint a new one: POST /api/keys/auth (see /identity).";
const GAME_ID_RE = /^[a-zA-Z0-9_-]{1,80}$/;

/** Resolve `Authorization: Bearer msc_…`; null when the header is absent. */
export async function machineFromBearer(
  env: Env,
  authorization: string | null,
): Promise<{ ok: true; machineId: string } | IdentityFailure | null> {
  const claim = await bearerClaimOf(authorization);
  if (claim === null || !claim.ok) return claim;
  const { machineId, tokenHash } = claim.claim;
  const status = await identityStub(env, machineId).resolveToken(tokenHash);
  return status.status === "current" ? { ok: true, machineId: status.machineId } : tokenRefusal(status.status, machineId);
}

/**
 * What an `Authorization` header claims, ready for the field that will check it (a token of our
 * form, hashed: the token itself goes no further); a refusal when the header cannot be a token of
 * ours; null when there is none.
 */
export async function bearerClaimOf(authorization: string | null): Promise<{ ok: true; claim: BearerClaim } | IdentityFailure | null> {
  if (authorization === null || authorization.trim() === "") return null;
  const token = bearerToken(authorization);
  if (token === undefined) return { ok: false, code: "token", message: "The Authorization header must be 'Bearer msc_…' (see /identity)." };
  const machineId = tokenMachineId(token);
  if (!machineId) return { ok: false, code: "token", message: `Unknown bearer token: this server did not mint it. ${MINT_AGAIN}` };
  return { ok: true, claim: { machineId, tokenHash: await tokenHash(token) } };
}

/** The refusal of a token the identity object does not hold as current. */
export function tokenRefusal(status: "replaced" | "unknown", machineId: string): IdentityFailure {
  if (status === "replaced") {
    return { ok: false, code: "token", message: `This bearer token was replaced by a newer one for ${machineId}; use the newest token. ${MINT_AGAIN}` };
  }
  return { ok: false, code: "token", message: `Unknown bearer token: this server did not mint it (or its record is gone). ${MINT_AGAIN}` };
}

/** The token of an `Authorization: Bearer …` header, when the header has that form. */
function bearerToken(authorization: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim())?.[1];
}

/** Verify a proof join (SPEC §8) and consume the proof (single-use). */
export async function verifyJoinProof(
  env: Env,
  args: { gameId: string; machineId: string; publicKey: string; proof: string; session: string; nowMs?: number },
): Promise<{ ok: true; machineId: string } | IdentityFailure> {
  const checked = await checkJoinProof(args);
  if (!checked.ok) return checked;
  const nowMs = args.nowMs ?? Date.now();
  const spent = await identityStub(env, checked.machineId).consumeProof({
    machineId: checked.machineId,
    publicKey: checked.publicKey,
    proofDigest: await sha256Hex(checked.message),
    // A proof is valid for its minute and the next one; after that it can never verify again.
    expiresAtMs: (checked.minute + 2) * 60_000,
    nowMs,
  });
  if (!spent.ok) return { ok: false, code: spent.code === "replayed" ? "proof" : "identity", message: spent.message };
  return { ok: true, machineId: checked.machineId };
}

/** Whether a verified proof was already spent (for `POST /api/keys/proof-check`; spends nothing). */
export async function proofSpent(env: Env, machineId: string, signed: string, nowMs = Date.now()): Promise<boolean> {
  return identityStub(env, machineId).proofSpent(await sha256Hex(signed), nowMs);
}

/**
 * The pure half of a proof join: validates the inputs and the signature without touching storage.
 * Exposed for `POST /api/keys/proof-check`, which lets a client test its proof without spending it.
 */
export async function checkJoinProof(args: {
  gameId: string;
  machineId: string;
  publicKey: string;
  proof: string;
  session: string;
  nowMs?: number;
}): Promise<{ ok: true; machineId: string; publicKey: string; minute: number; message: string } | IdentityFailure> {
  if (typeof args.gameId !== "string" || !GAME_ID_RE.test(args.gameId)) {
    return { ok: false, code: "bad_input", message: "game_id must match ^[a-zA-Z0-9_-]{1,80}$" };
  }
  // Sessions are chosen by the agent: 1..24 printable characters, not '/' (the referee's rule).
  const session = sessionProblem(args.session);
  if (session) return { ok: false, code: "bad_input", message: session };
  if (typeof args.machineId !== "string" || !MACHINE_ID_RE.test(args.machineId)) {
    return { ok: false, code: "bad_input", message: "machine_id must be 'm-' followed by 16 lowercase hex digits" };
  }
  if (typeof args.publicKey !== "string" || typeof args.proof !== "string") {
    return { ok: false, code: "bad_input", message: "a proof join needs public_key and proof (strings)" };
  }
  const key = parsePublicKey(args.publicKey);
  if (!key.ok) return { ok: false, code: "bad_input", message: key.message };
  const derived = await machineIdOf(key.raw);
  if (derived !== args.machineId) {
    return { ok: false, code: "identity", message: `machine_id ${args.machineId} does not match public_key, whose machine id is ${derived}` };
  }
  const sig = parseSignature(args.proof);
  if (!sig) return { ok: false, code: "proof", message: "bad signature: proof must be a 64-byte ed25519 signature in base64" };
  const minute = Math.floor((args.nowMs ?? Date.now()) / 60_000);
  for (const m of [minute, minute - 1]) {
    const message = joinMessage(args.gameId, key.rawBase64, m, args.session);
    if (await verifyEd25519(key.raw, sig, message)) return { ok: true, machineId: derived, publicKey: key.rawBase64, minute: m, message };
  }
  // Tell stale apart from wrong: try a few minutes further back and forward.
  for (let d = 2; d <= 10; d++) {
    for (const m of [minute - d, minute + d - 1]) {
      if (await verifyEd25519(key.raw, sig, joinMessage(args.gameId, key.rawBase64, m, args.session))) {
        return { ok: false, code: "proof", message: `stale proof: it was signed for unix minute ${m}; the server's minute is ${minute} (sign for the current minute)` };
      }
    }
  }
  return {
    ok: false,
    code: "proof",
    message: `bad signature: proof must sign 'mosaic-join|${args.gameId}|${key.rawBase64}|<unix minute>|${args.session}' for the current or previous minute (now ${minute})`,
  };
}

/** The display name the key holder set, if any. */
export async function displayName(env: Env, machineId: string): Promise<string | null> {
  if (!MACHINE_ID_RE.test(machineId)) return null;
  return identityStub(env, machineId).getName(machineId);
}

/**
 * The display names of several machines, looked up at once: a machine whose lookup failed is
 * missing from the map (the failure logged), one without a name maps to null.
 */
export async function displayNames(env: Env, machineIds: readonly string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  await Promise.all(
    machineIds.map(async (id) => {
      try {
        found.set(id, await displayName(env, id));
      } catch (err) {
        console.error("display name lookup failed", id, err);
      }
    }),
  );
  return found;
}
