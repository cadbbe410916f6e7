// Accounts (SPEC §8.2) for scripted tests over HTTP: signed with node:crypto keys (test/support/identity.ts).
import { accountCreateMessage, accountInviteMessage, accountJoinMessage, encodeInvitation } from "../../src/identity/account-messages";
import type { TestMachine } from "./identity";

type Ref = { id: string; name: string };

async function post(baseUrl: string, path: string, body: unknown): Promise<Ref> {
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as { account?: Ref; error?: { message: string } };
  if (!res.ok || !json.account) throw new Error(`${path} failed (${res.status}): ${json.error?.message ?? JSON.stringify(json)}`);
  return json.account;
}

/** Creates an account holding `machine`; returns it. */
export function createAccount(baseUrl: string, machine: TestMachine, name: string): Promise<Ref> {
  const ts = Math.floor(Date.now() / 1000);
  return post(baseUrl, "/api/accounts", { publicKey: machine.publicKeyRaw, ts, name, sig: machine.sign(accountCreateMessage(new URL(baseUrl).host, ts, name)) });
}

/** An invitation word from `member` to its account, for any machine. */
export function invite(baseUrl: string, member: TestMachine, accountId: string, ts = Math.floor(Date.now() / 1000)): { word: string; sig: string } {
  const sig = member.sign(accountInviteMessage(new URL(baseUrl).host, ts, accountId, "*"));
  return { word: encodeInvitation({ account: accountId, publicKey: member.publicKeyRaw, ts, for: "*", sig }), sig };
}

/** `joiner` accepts an invitation of `member`'s. */
export function joinAccount(baseUrl: string, member: TestMachine, joiner: TestMachine, accountId: string): Promise<Ref> {
  const inv = invite(baseUrl, member, accountId);
  const ts = Math.floor(Date.now() / 1000);
  return post(baseUrl, "/api/accounts/join", { publicKey: joiner.publicKeyRaw, ts, invitation: inv.word, sig: joiner.sign(accountJoinMessage(new URL(baseUrl).host, ts, accountId, inv.sig)) });
}
