// `mosaic-identity account …` (SPEC §8.2): link this machine's key into an account with others.
// Every request is signed with the key file; the exact messages are in docs/identity.md ("Accounts").
// Plain Node 20 or later, no dependencies; the shared helpers come from mosaic-identity.mjs.

export const ACCOUNT_USAGE = `  account create <server-url> <name>       create an account holding this machine
  account invite <server-url> [machine]    print an invitation to this machine's account (valid
                                           for an hour, used once; name a machine id to restrict it)
  account join   <server-url> <invitation> accept an invitation printed by a member
  account unlink <server-url> [machine]    unlink this machine (or, as a member, another one)
  account name   <server-url> <name>       rename this machine's account
  account show   <server-url> [account-id] show this machine's account (or the one named)`;

/** Runs `account <sub> <server-url> …` with the main script's helpers. */
export async function accountCommand(file, args, h) {
  const [sub, server, arg] = args;
  if (!sub) h.fail(`account needs a subcommand\n\n${ACCOUNT_USAGE}`);
  const url = h.serverUrl(server);
  const id = h.readIdentity(file);
  const ts = Math.floor(Date.now() / 1000);
  const signed = (message, extra) => ({ publicKey: id.publicKey, ts, sig: h.sign(id, message), ...extra });
  const post = (path, body) => h.postJson(new URL(path, url), body);
  const say = (answer, verb) => process.stdout.write(`${answer.machine_id} ${verb} account ${answer.account.id} "${answer.account.name}"\n`);
  const ownAccount = async () => {
    const got = await h.getJson(new URL(`/api/accounts?machine=${id.machine_id}`, url));
    return got.accounts?.[id.machine_id] ?? null;
  };
  const mustHaveAccount = async () => (await ownAccount()) ?? h.fail(`machine ${id.machine_id} is in no account at ${url.origin}; 'account create' or 'account join' first`);

  switch (sub) {
    case "create": {
      if (!arg) h.fail("a name is required: account create <server-url> <name>");
      say(await post("/api/accounts", signed(`mosaic-account-create:${url.host}:${ts}:${arg}`, { name: arg })), "created");
      return;
    }
    case "invite": {
      const forMachine = arg ?? "*";
      if (forMachine !== "*" && !/^m-[0-9a-f]{16}$/.test(forMachine)) h.fail(`not a machine id: ${forMachine}`);
      const account = await mustHaveAccount();
      const inv = { account: account.id, publicKey: id.publicKey, ts, for: forMachine, sig: h.sign(id, `mosaic-account-invite:${url.host}:${ts}:${account.id}:${forMachine}`) };
      process.stderr.write(`invitation to "${account.name}" (${account.id})${forMachine === "*" ? "" : ` for ${forMachine}`}; on the joining machine run:\n  npm run identity -- account join ${url.origin} <the line below>\nor open ${url.origin}/account/${account.id} in a browser there and give it the line and that machine's key file\n`);
      process.stdout.write(`mosaic-invite.${Buffer.from(JSON.stringify(inv)).toString("base64url")}\n`);
      return;
    }
    case "join": {
      if (!arg) h.fail("an invitation is required: account join <server-url> mosaic-invite.…");
      let inv;
      try {
        inv = JSON.parse(Buffer.from(arg.trim().replace(/^mosaic-invite\./, ""), "base64url").toString("utf8"));
      } catch {
        h.fail("that is not an invitation: paste the whole 'mosaic-invite.…' line that 'account invite' printed");
      }
      if (typeof inv?.account !== "string" || typeof inv?.sig !== "string") h.fail("that is not an invitation: it lacks its account or signature");
      say(await post("/api/accounts/join", signed(`mosaic-account-join:${url.host}:${ts}:${inv.account}:${inv.sig}`, { invitation: arg.trim() })), "joined");
      return;
    }
    case "unlink": {
      const machine = arg ?? id.machine_id;
      const account = await mustHaveAccount();
      say(await post("/api/accounts/unlink", signed(`mosaic-account-unlink:${url.host}:${ts}:${account.id}:${machine}`, { account: account.id, machine })), "unlinked from");
      return;
    }
    case "name": {
      if (!arg) h.fail("a name is required: account name <server-url> <name>");
      const account = await mustHaveAccount();
      say(await post("/api/accounts/name", signed(`mosaic-account-name:${url.host}:${ts}:${account.id}:${arg}`, { account: account.id, name: arg })), "renamed");
      return;
    }
    case "show": {
      const accountId = arg ?? (await ownAccount())?.id;
      if (!accountId) {
        process.stdout.write(`machine ${id.machine_id} is in no account at ${url.origin}\n`);
        return;
      }
      process.stdout.write(JSON.stringify(await h.getJson(new URL(`/api/accounts/${accountId}`, url)), null, 2) + "\n");
      return;
    }
    default:
      h.fail(`unknown account subcommand '${sub}'\n\n${ACCOUNT_USAGE}`);
  }
}
