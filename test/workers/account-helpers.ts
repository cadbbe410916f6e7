// Signed account requests (SPEC §8.2) for the workers tests, built from the message functions
// the server checks against, so a change of format shows in both.
import { exports } from "cloudflare:workers";
import {
  accountCreateMessage,
  accountInviteMessage,
  accountJoinMessage,
  accountNameMessage,
  accountUnlinkMessage,
  encodeInvitation,
} from "../../src/identity/account-messages";
import { toBase64Url } from "../../src/text/encoding";
import { HOST, nowS, type Machine } from "./identity-helpers";

export interface AccountAnswer {
  status: number;
  body: { account?: { id: string; name: string }; machine_id?: string; error?: { code: string; message: string } };
}

const sig = async (m: Machine, message: string): Promise<string> => toBase64Url(await m.sign(message));

export async function send(path: string, body: unknown): Promise<AccountAnswer> {
  const res = await exports.default.fetch(`http://${HOST}${path}`, {
    method: "POST",
    headers: { host: HOST, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as AccountAnswer["body"] };
}

export async function getJson<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await exports.default.fetch(`http://${HOST}${path}`, { headers: { host: HOST } });
  return { status: res.status, body: (await res.json()) as T };
}

export async function createBody(m: Machine, name: string, ts = nowS()): Promise<Record<string, unknown>> {
  return { publicKey: m.publicKey, ts, name, sig: await sig(m, accountCreateMessage(HOST, ts, name)) };
}

export async function invitation(member: Machine, account: string, forMachine = "*", ts = nowS()): Promise<string> {
  return encodeInvitation({ account, publicKey: member.publicKey, ts, for: forMachine, sig: await sig(member, accountInviteMessage(HOST, ts, account, forMachine)) });
}

/** The joiner's acceptance of `invite` (which names the account and the invitation's sig). */
export async function joinBody(joiner: Machine, invite: string, account: string, inviteSig: string, ts = nowS()): Promise<Record<string, unknown>> {
  return { publicKey: joiner.publicKey, ts, invitation: invite, sig: await sig(joiner, accountJoinMessage(HOST, ts, account, inviteSig)) };
}

export async function unlinkBody(signer: Machine, account: string, machine: string, ts = nowS()): Promise<Record<string, unknown>> {
  return { publicKey: signer.publicKey, ts, account, machine, sig: await sig(signer, accountUnlinkMessage(HOST, ts, account, machine)) };
}

export async function nameBody(signer: Machine, account: string, name: string, ts = nowS()): Promise<Record<string, unknown>> {
  return { publicKey: signer.publicKey, ts, account, name, sig: await sig(signer, accountNameMessage(HOST, ts, account, name)) };
}

/** The sig inside an invitation word. */
export function inviteSig(invite: string): string {
  return (JSON.parse(Buffer.from(invite.slice("mosaic-invite.".length), "base64url").toString("utf8")) as { sig: string }).sig;
}

/** Creates an account and links `others` to it by invitations from `creator`; returns the account id. */
export async function linked(creator: Machine, name: string, ...others: Machine[]): Promise<string> {
  const created = await send("/api/accounts", await createBody(creator, name));
  if (created.status !== 200 || !created.body.account) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const id = created.body.account.id;
  for (const [i, o] of others.entries()) {
    // Two invitations signed in the same second for any machine are the same invitation: date each its own.
    const inv = await invitation(creator, id, "*", nowS() - i);
    const joined = await send("/api/accounts/join", await joinBody(o, inv, id, inviteSig(inv)));
    if (joined.status !== 200) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
  }
  return id;
}
