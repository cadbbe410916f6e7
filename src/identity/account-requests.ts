// Signed account requests (SPEC §8.2), checked at the edge like the key requests (key-requests.ts):
// zod for the bodies, the same host, ts window and signature checks, then one call to the accounts
// object, which spends each signature once and owns membership (account-book.ts).
import { z } from "zod";
import type { Env } from "../env";
import { ACCOUNTS_OBJECT, type AccountRef, type BookResult } from "./account-book";
import {
  ACCOUNT_ID_RE,
  accountCreateMessage,
  accountJoinMessage,
  accountNameMessage,
  accountUnlinkMessage,
  ANY_MACHINE,
  decodeInvitation,
  accountInviteMessage,
  type Invitation,
} from "./account-messages";
import { sha256Hex } from "../text/encoding";
import { expiryOf, keyAuthSchema, NAME_RE, verifySigned, type KeyErrorCode, type RequestFacts } from "./key-requests";
import { machineIdOf, parsePublicKey, parseSignature, verifyEd25519 } from "./keys";
import { MACHINE_ID_RE } from "../referee/agent-id";
import { TS_WINDOW_SECONDS } from "./messages";
import { identityStub } from "./stub";

export type AccountErrorCode = KeyErrorCode | "in_account" | "not_member" | "not_invited" | "missing";
export type AccountError = { ok: false; status: 400 | 401 | 403 | 404 | 409; code: AccountErrorCode; message: string };
export type AccountAnswer = { ok: true; account: AccountRef; machineId: string } | AccountError;

/**
 * How long an invitation may wait to be accepted. Longer than a request's 5 minutes: it is carried
 * by hand from one machine to another. It is still dated and single-use, and the acceptance that
 * carries it is a request like any other (ts within 5 minutes, spent once).
 */
export const INVITATION_TTL_SECONDS = 3600;

const accountName = z
  .string({ error: "name is required" })
  .max(40, "name must be at most 40 characters")
  .regex(NAME_RE, "name must be 1-40 characters: letters, digits, space and . _ - ' ( ), not starting or ending with a space");
const accountId = z.string({ error: "account is required" }).regex(ACCOUNT_ID_RE, "account must be 'a-' followed by 16 lowercase hex digits");
const machineId = z.string().regex(MACHINE_ID_RE, "machine must be 'm-' followed by 16 lowercase hex digits");

export const accountCreateSchema = keyAuthSchema.extend({ name: accountName });
export const accountJoinSchema = keyAuthSchema.extend({ invitation: z.string({ error: "invitation is required: the 'mosaic-invite.…' word a member printed" }).max(2000) });
export const accountUnlinkSchema = keyAuthSchema.extend({ account: accountId, machine: machineId.optional() });
export const accountNameSchema = keyAuthSchema.extend({ account: accountId, name: accountName });

const accounts = (env: Env) => identityStub(env, ACCOUNTS_OBJECT);

const digestOf = (kind: string, publicKey: string, message: string): Promise<string> => sha256Hex(`${kind}|${publicKey}|${message}`);

export async function createAccount(env: Env, body: z.infer<typeof accountCreateSchema>, facts: RequestFacts): Promise<AccountAnswer> {
  const v = await verifySigned(body, facts, (host, ts) => accountCreateMessage(host, ts, body.name));
  if (!v.ok) return v;
  const claimed = await claimKey(env, v.machineId, v.publicKey, facts.nowMs);
  if (claimed) return claimed;
  const digest = await digestOf("account-create", v.publicKey, v.message);
  // The id comes from the create request itself, which is single-use: no two accounts share one.
  const id = `a-${digest.slice(0, 16)}`;
  const r = await accounts(env).accountCreate({ accountId: id, name: body.name, ts: v.ts, machineId: v.machineId, request: { digest, expiresAtMs: expiryOf(v.ts) }, nowMs: facts.nowMs });
  return answer(r, v.machineId);
}

export async function joinAccount(env: Env, body: z.infer<typeof accountJoinSchema>, facts: RequestFacts): Promise<AccountAnswer> {
  const decoded = decodeInvitation(body.invitation);
  if (!decoded.ok) return { ok: false, status: 400, code: "bad_input", message: decoded.message };
  const inv = decoded.invitation;
  const v = await verifySigned(body, facts, (host, ts) => accountJoinMessage(host, ts, inv.account, inv.sig));
  if (!v.ok) return v;
  const invite = await verifyInvitation(inv, facts);
  if (!invite.ok) return invite;
  if (inv.for !== ANY_MACHINE && inv.for !== v.machineId) {
    return { ok: false, status: 403, code: "not_invited", message: `this invitation is for machine ${inv.for}, not for ${v.machineId}` };
  }
  const claimed = (await claimKey(env, invite.machineId, invite.publicKey, facts.nowMs)) ?? (await claimKey(env, v.machineId, v.publicKey, facts.nowMs));
  if (claimed) return claimed;
  const r = await accounts(env).accountJoin({
    accountId: inv.account,
    inviter: invite.machineId,
    joiner: v.machineId,
    invitation: { digest: await digestOf("account-invite", invite.publicKey, invite.message), expiresAtMs: (inv.ts + INVITATION_TTL_SECONDS + 60) * 1000 },
    request: { digest: await digestOf("account-join", v.publicKey, v.message), expiresAtMs: expiryOf(v.ts) },
    nowMs: facts.nowMs,
  });
  return answer(r, v.machineId);
}

export async function unlinkAccount(env: Env, body: z.infer<typeof accountUnlinkSchema>, facts: RequestFacts): Promise<AccountAnswer> {
  const key = parsePublicKey(body.publicKey);
  // The machine defaults to the signer's own: the message names it, so work it out before verifying.
  const target = body.machine ?? (key.ok ? await machineIdOf(key.raw) : "");
  const v = await verifySigned(body, facts, (host, ts) => accountUnlinkMessage(host, ts, body.account, target));
  if (!v.ok) return v;
  const claimed = await claimKey(env, v.machineId, v.publicKey, facts.nowMs);
  if (claimed) return claimed;
  const r = await accounts(env).accountUnlink({
    accountId: body.account,
    signer: v.machineId,
    machineId: target,
    request: { digest: await digestOf("account-unlink", v.publicKey, v.message), expiresAtMs: expiryOf(v.ts) },
    nowMs: facts.nowMs,
  });
  return answer(r, target);
}

export async function renameAccount(env: Env, body: z.infer<typeof accountNameSchema>, facts: RequestFacts): Promise<AccountAnswer> {
  const v = await verifySigned(body, facts, (host, ts) => accountNameMessage(host, ts, body.account, body.name));
  if (!v.ok) return v;
  const r = await accounts(env).accountRename({
    accountId: body.account,
    signer: v.machineId,
    name: body.name,
    ts: v.ts,
    request: { digest: await digestOf("account-name", v.publicKey, v.message), expiresAtMs: expiryOf(v.ts) },
    nowMs: facts.nowMs,
  });
  return answer(r, v.machineId);
}

type InvitationCheck = { ok: true; machineId: string; publicKey: string; message: string } | AccountError;

/** The member's signature over the invitation, for this host, dated within the invitation's life. */
async function verifyInvitation(inv: Invitation, facts: RequestFacts): Promise<InvitationCheck> {
  const key = parsePublicKey(inv.publicKey);
  if (!key.ok) return { ok: false, status: 400, code: "bad_input", message: `malformed invitation: ${key.message}` };
  const sig = parseSignature(inv.sig);
  if (!sig) return { ok: false, status: 400, code: "bad_input", message: "malformed invitation: its sig is not a 64-byte ed25519 signature" };
  const nowS = Math.floor(facts.nowMs / 1000);
  if (inv.ts > nowS + TS_WINDOW_SECONDS || nowS - inv.ts > INVITATION_TTL_SECONDS) {
    return {
      ok: false,
      status: 401,
      code: "stale_timestamp",
      message: `stale invitation: it was signed at ts ${inv.ts}, ${nowS - inv.ts} s before the server's clock (${nowS}); an invitation is accepted within ${INVITATION_TTL_SECONDS} s, so ask for a new one`,
    };
  }
  const message = accountInviteMessage(facts.host, inv.ts, inv.account, inv.for);
  if (!(await verifyEd25519(key.raw, sig, message))) {
    for (const alt of facts.altHosts) {
      if (await verifyEd25519(key.raw, sig, accountInviteMessage(alt, inv.ts, inv.account, inv.for))) {
        return { ok: false, status: 401, code: "wrong_host", message: `wrong host: the invitation was signed for host '${alt}' but this request's Host header is '${facts.host}'; invite for '${facts.host}'` };
      }
    }
    return { ok: false, status: 401, code: "bad_signature", message: `forged invitation: its sig does not verify over '${message}' with its publicKey` };
  }
  return { ok: true, machineId: await machineIdOf(key.raw), publicKey: key.rawBase64, message };
}

/** First key wins (SPEC §8): an account request with another key for a known machine id is refused. */
async function claimKey(env: Env, machine: string, publicKey: string, nowMs: number): Promise<AccountError | null> {
  const r = await identityStub(env, machine).claimKey(machine, publicKey, nowMs);
  return r.ok ? null : { ok: false, status: 409, code: "key_mismatch", message: r.message };
}

const STATUS: Record<Exclude<BookResult, { ok: true }>["code"], { status: AccountError["status"]; code: AccountErrorCode }> = {
  replayed: { status: 409, code: "replayed" },
  in_account: { status: 409, code: "in_account" },
  not_member: { status: 403, code: "not_member" },
  missing: { status: 404, code: "missing" },
  stale: { status: 401, code: "stale_timestamp" },
};

function answer(r: BookResult, machineId: string): AccountAnswer {
  if (r.ok) return { ok: true, account: r.account, machineId };
  return { ok: false, ...STATUS[r.code], message: r.message };
}
