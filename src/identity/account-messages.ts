// Accounts (SPEC §8.2): the exact strings machines sign, and the invitation a member hands to a
// machine that joins. Pure: clients build the same strings (docs/identity.md "Accounts").
import { fromBase64Any, toBase64Url, type Bytes } from "../text/encoding";
import { MACHINE_ID_RE } from "../referee/agent-id";

/** `a-` + 16 lowercase hex digits. */
export const ACCOUNT_ID_RE = /^a-[0-9a-f]{16}$/;

/** An invitation for any machine (rather than one named machine). */
export const ANY_MACHINE = "*";

/** Signed to create an account: `mosaic-account-create:<host>:<ts>:<name>`. */
export function accountCreateMessage(host: string, ts: number, name: string): string {
  return `mosaic-account-create:${host}:${ts}:${name}`;
}

/**
 * Signed by a member to invite a machine: `mosaic-account-invite:<host>:<ts>:<account>:<machine or *>`.
 * The invitation is not sent by the member: it travels to the joining machine, which accepts it.
 */
export function accountInviteMessage(host: string, ts: number, accountId: string, forMachine: string): string {
  return `mosaic-account-invite:${host}:${ts}:${accountId}:${forMachine}`;
}

/**
 * Signed by the joining machine to accept one invitation: `mosaic-account-join:<host>:<ts>:<account>:<invitation sig>`.
 * Naming the invitation's signature binds the acceptance to that invitation alone.
 */
export function accountJoinMessage(host: string, ts: number, accountId: string, invitationSig: string): string {
  return `mosaic-account-join:${host}:${ts}:${accountId}:${invitationSig}`;
}

/** Signed by the machine itself or by a member to unlink it: `mosaic-account-unlink:<host>:<ts>:<account>:<machine>`. */
export function accountUnlinkMessage(host: string, ts: number, accountId: string, machineId: string): string {
  return `mosaic-account-unlink:${host}:${ts}:${accountId}:${machineId}`;
}

/** Signed by a member to rename the account: `mosaic-account-name:<host>:<ts>:<account>:<name>`. */
export function accountNameMessage(host: string, ts: number, accountId: string, name: string): string {
  return `mosaic-account-name:${host}:${ts}:${accountId}:${name}`;
}

/** What an invitation carries: the member's key and signature over `accountInviteMessage`. */
export interface Invitation {
  account: string;
  /** The inviting member's raw public key, base64. */
  publicKey: string;
  ts: number;
  /** A machine id, or `*` for whichever machine accepts it first. */
  for: string;
  sig: string;
}

const INVITATION_PREFIX = "mosaic-invite.";

/** The invitation as one pasteable word: `mosaic-invite.` + base64url of its JSON. */
export function encodeInvitation(inv: Invitation): string {
  const json = JSON.stringify({ account: inv.account, publicKey: inv.publicKey, ts: inv.ts, for: inv.for, sig: inv.sig });
  return INVITATION_PREFIX + toBase64Url(new TextEncoder().encode(json) as Bytes);
}

/** The invitation in `text`, or a message saying what is wrong with it (signatures are checked elsewhere). */
export function decodeInvitation(text: string): { ok: true; invitation: Invitation } | { ok: false; message: string } {
  const bad = (why: string) => ({ ok: false as const, message: `malformed invitation: ${why}; paste the whole 'mosaic-invite.…' word that 'account invite' printed` });
  const trimmed = text.trim();
  if (!trimmed.startsWith(INVITATION_PREFIX)) return bad("it does not start with 'mosaic-invite.'");
  if (trimmed.length > 2000) return bad("it is far too long");
  const bytes = fromBase64Any(trimmed.slice(INVITATION_PREFIX.length));
  if (!bytes) return bad("it is not base64url");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return bad("it does not hold JSON");
  }
  if (typeof json !== "object" || json === null) return bad("it does not hold an object");
  const o = json as Record<string, unknown>;
  if (typeof o.account !== "string" || !ACCOUNT_ID_RE.test(o.account)) return bad("its account is not 'a-' and 16 hex digits");
  if (typeof o.publicKey !== "string" || o.publicKey.length > 200) return bad("it lacks the member's publicKey");
  if (typeof o.ts !== "number" || !Number.isSafeInteger(o.ts) || o.ts < 0) return bad("its ts is not unix seconds");
  if (typeof o.for !== "string" || (o.for !== ANY_MACHINE && !MACHINE_ID_RE.test(o.for))) return bad("its 'for' is neither a machine id nor '*'");
  if (typeof o.sig !== "string" || o.sig.length > 200) return bad("it lacks the member's sig");
  return { ok: true, invitation: { account: o.account, publicKey: o.publicKey, ts: o.ts, for: o.for, sig: o.sig } };
}
