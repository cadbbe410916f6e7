import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ACCOUNTS_OBJECT } from "../../src/identity/account-book";
import { accountsOf } from "../../src/identity/accounts-api";
import { identityStub } from "../../src/identity/stub";
import { createBody, getJson, invitation, inviteSig, joinBody, linked, nameBody, send, unlinkBody } from "./account-helpers";
import { env, HOST, machine, mint, nameBody as machineNameBody, nowS, post } from "./identity-helpers";

type Doc = { id: string; name: string; machines: Array<{ machine_id: string; name: string | null }>; error?: { code: string; message: string } };

describe("accounts: create, invite, join, unlink (SPEC §8.2)", () => {
  it("a machine creates an account; another joins by an invitation; GET shows both with display names", async () => {
    const laptop = await machine();
    const server = await machine();
    await mint(laptop);
    expect((await post("/api/keys/name", await machineNameBody(laptop, "Laptop"))).status).toBe(200);
    const created = await send("/api/accounts", await createBody(laptop, "Ada's machines"));
    expect(created.status).toBe(200);
    const id = created.body.account!.id;
    expect(id).toMatch(/^a-[0-9a-f]{16}$/);
    expect(created.body).toEqual({ account: { id, name: "Ada's machines" }, machine_id: laptop.machineId });

    const inv = await invitation(laptop, id, server.machineId);
    const joined = await send("/api/accounts/join", await joinBody(server, inv, id, inviteSig(inv)));
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({ account: { id, name: "Ada's machines" }, machine_id: server.machineId });

    const doc = await getJson<Doc>(`/api/accounts/${id}`);
    expect(doc.status).toBe(200);
    expect(doc.body.name).toBe("Ada's machines");
    expect(doc.body.machines.map((m) => [m.machine_id, m.name])).toEqual([
      [laptop.machineId, "Laptop"],
      [server.machineId, null],
    ]);
    const other = await machine();
    expect(await accountsOf(env, [laptop.machineId, server.machineId, other.machineId, "nonsense"])).toEqual({
      [laptop.machineId]: { id, name: "Ada's machines" },
      [server.machineId]: { id, name: "Ada's machines" },
      [other.machineId]: null,
      nonsense: null,
    });
    // The same seam as an RPC of the accounts object (what history reads at a day's close).
    expect(await identityStub(env, ACCOUNTS_OBJECT).accountsOf([server.machineId, other.machineId])).toEqual({ [server.machineId]: { id, name: "Ada's machines" }, [other.machineId]: null });
    const q = await getJson<{ accounts: Record<string, unknown> }>(`/api/accounts?machine=${server.machineId}&machine=${other.machineId}`);
    expect(q.body.accounts).toEqual({ [server.machineId]: { id, name: "Ada's machines" }, [other.machineId]: null });
  });

  it("either side unlinks: the machine itself, or a member naming another machine", async () => {
    const [a, b, c] = [await machine(), await machine(), await machine()];
    const id = await linked(a, "Three", b, c);
    expect((await send("/api/accounts/unlink", await unlinkBody(b, id, b.machineId))).status).toBe(200);
    const byMember = await send("/api/accounts/unlink", await unlinkBody(a, id, c.machineId));
    expect(byMember.status).toBe(200);
    expect(byMember.body.machine_id).toBe(c.machineId);
    expect((await getJson<Doc>(`/api/accounts/${id}`)).body.machines.map((m) => m.machine_id)).toEqual([a.machineId]);
    expect(await accountsOf(env, [b.machineId, c.machineId])).toEqual({ [b.machineId]: null, [c.machineId]: null });
    // Unlinked, a machine may create or join another account.
    expect((await send("/api/accounts", await createBody(b, "B alone"))).status).toBe(200);
  });

  it("unlink without `machine` unlinks the signer", async () => {
    const [a, b] = [await machine(), await machine()];
    const id = await linked(a, "Pair", b);
    const body = await unlinkBody(b, id, b.machineId);
    delete body.machine;
    expect((await send("/api/accounts/unlink", body)).status).toBe(200);
    expect((await accountsOf(env, [b.machineId]))[b.machineId]).toBeNull();
  });

  it("a member renames the account; a non-member cannot; an older rename is refused", async () => {
    const [a, stranger] = [await machine(), await machine()];
    const id = await linked(a, "Old");
    expect((await send("/api/accounts/name", await nameBody(a, id, "New", nowS() + 1))).status).toBe(200);
    expect((await getJson<Doc>(`/api/accounts/${id}`)).body.name).toBe("New");
    const older = await send("/api/accounts/name", await nameBody(a, id, "Older", nowS() - 10));
    expect(older.body.error?.code).toBe("stale_timestamp");
    const foreign = await send("/api/accounts/name", await nameBody(stranger, id, "Mine"));
    expect(foreign.status).toBe(403);
    expect(foreign.body.error?.code).toBe("not_member");
  });
});

describe("accounts: forged and replayed links are refused", () => {
  it("an invitation signed by a machine that is not a member", async () => {
    const [owner, outsider, joiner] = [await machine(), await machine(), await machine()];
    const id = await linked(owner, "Owner's");
    const inv = await invitation(outsider, id);
    const r = await send("/api/accounts/join", await joinBody(joiner, inv, id, inviteSig(inv)));
    expect(r.status).toBe(403);
    expect(r.body.error).toEqual({ code: "not_member", message: expect.stringContaining(`invitation refused: its signer ${outsider.machineId} is not a member of ${id} (a forged invitation, or its signer left)`) });
    expect((await accountsOf(env, [joiner.machineId]))[joiner.machineId]).toBeNull();
  });

  it("an invitation whose signer has left the account since", async () => {
    const [owner, leaver, joiner] = [await machine(), await machine(), await machine()];
    const id = await linked(owner, "Owner's", leaver);
    const inv = await invitation(leaver, id);
    expect((await send("/api/accounts/unlink", await unlinkBody(leaver, id, leaver.machineId))).status).toBe(200);
    const r = await send("/api/accounts/join", await joinBody(joiner, inv, id, inviteSig(inv)));
    expect(r.status).toBe(403);
    expect(r.body.error?.code).toBe("not_member");
    expect((await accountsOf(env, [joiner.machineId]))[joiner.machineId]).toBeNull();
  });

  it("an invitation whose signature is not its key's (a member's key with another's signature)", async () => {
    const [owner, outsider, joiner] = [await machine(), await machine(), await machine()];
    const id = await linked(owner, "Owner's");
    const forged = await invitation(outsider, id);
    const json = JSON.parse(Buffer.from(forged.slice(14), "base64url").toString()) as Record<string, unknown>;
    const swapped = "mosaic-invite." + Buffer.from(JSON.stringify({ ...json, publicKey: owner.publicKey })).toString("base64url");
    const r = await send("/api/accounts/join", await joinBody(joiner, swapped, id, inviteSig(swapped)));
    expect(r.status).toBe(401);
    expect(r.body.error?.code).toBe("bad_signature");
    expect(r.body.error?.message).toMatch(/^forged invitation/);
  });

  it("an acceptance not signed by the joining machine", async () => {
    const [owner, joiner, thief] = [await machine(), await machine(), await machine()];
    const id = await linked(owner, "Owner's");
    const inv = await invitation(owner, id);
    // The thief signs the acceptance but claims the joiner's key.
    const body = { ...(await joinBody(thief, inv, id, inviteSig(inv))), publicKey: joiner.publicKey };
    const r = await send("/api/accounts/join", body);
    expect(r.status).toBe(401);
    expect(r.body.error?.code).toBe("bad_signature");
    expect(await accountsOf(env, [joiner.machineId, thief.machineId])).toEqual({ [joiner.machineId]: null, [thief.machineId]: null });
  });

  it("an invitation for another machine", async () => {
    const [owner, invited, other] = [await machine(), await machine(), await machine()];
    const id = await linked(owner, "Owner's");
    const inv = await invitation(owner, id, invited.machineId);
    const r = await send("/api/accounts/join", await joinBody(other, inv, id, inviteSig(inv)));
    expect(r.status).toBe(403);
    expect(r.body.error).toEqual({ code: "not_invited", message: `this invitation is for machine ${invited.machineId}, not for ${other.machineId}` });
  });

  it("a replayed signature: the same create, join or unlink request sent again", async () => {
    const [a, b] = [await machine(), await machine()];
    const create = await createBody(a, "Once");
    const first = await send("/api/accounts", create);
    const id = first.body.account!.id;
    const inv = await invitation(a, id);
    const join = await joinBody(b, inv, id, inviteSig(inv));
    expect((await send("/api/accounts/join", join)).status).toBe(200);
    const unlinkB = await unlinkBody(b, id, b.machineId);
    expect((await send("/api/accounts/unlink", unlinkB)).status).toBe(200);
    // b is out again: replaying its join must not bring it back, nor a second unlink pass.
    const replayedJoin = await send("/api/accounts/join", join);
    expect(replayedJoin.status).toBe(409);
    expect(replayedJoin.body.error).toEqual({ code: "replayed", message: expect.stringMatching(/already used; sign a fresh one/) });
    expect((await accountsOf(env, [b.machineId]))[b.machineId]).toBeNull();
    expect((await send("/api/accounts/unlink", await unlinkBody(a, id, a.machineId))).status).toBe(200);
    const replayedCreate = await send("/api/accounts", create);
    expect(replayedCreate.status).toBe(409);
    expect(replayedCreate.body.error?.code).toBe("replayed");
    expect((await accountsOf(env, [a.machineId]))[a.machineId]).toBeNull();
  });

  it("an invitation is accepted once: a fresh acceptance of a used invitation is refused", async () => {
    const [a, b] = [await machine(), await machine()];
    const id = await linked(a, "Once");
    const inv = await invitation(a, id);
    expect((await send("/api/accounts/join", await joinBody(b, inv, id, inviteSig(inv), nowS() - 1))).status).toBe(200);
    expect((await send("/api/accounts/unlink", await unlinkBody(b, id, b.machineId))).status).toBe(200);
    const again = await send("/api/accounts/join", await joinBody(b, inv, id, inviteSig(inv)));
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toMatch(/^replayed invitation/);
  });

  it("stale timestamps: a request outside 5 minutes, an invitation older than an hour", async () => {
    const [a, b] = [await machine(), await machine()];
    for (const ts of [nowS() - 360, nowS() + 360]) {
      const r = await send("/api/accounts", await createBody(a, "Late", ts));
      expect(r.status).toBe(401);
      expect(r.body.error?.code).toBe("stale_timestamp");
    }
    const id = await linked(a, "Now");
    const old = await invitation(a, id, "*", nowS() - 3700);
    const r = await send("/api/accounts/join", await joinBody(b, old, id, inviteSig(old)));
    expect(r.status).toBe(401);
    expect(r.body.error?.message).toMatch(/^stale invitation/);
    const fresh = await invitation(a, id, "*", nowS() - 3000);
    expect((await send("/api/accounts/join", await joinBody(b, fresh, id, inviteSig(fresh)))).status).toBe(200);
  });

  it("a machine already in another account can neither join nor create", async () => {
    const [a, b, c] = [await machine(), await machine(), await machine()];
    const first = await linked(a, "First", c);
    const second = await linked(b, "Second");
    const inv = await invitation(b, second);
    const r = await send("/api/accounts/join", await joinBody(c, inv, second, inviteSig(inv)));
    expect(r.status).toBe(409);
    expect(r.body.error).toEqual({ code: "in_account", message: expect.stringContaining(`machine ${c.machineId} is already in account ${first}`) });
    expect((await send("/api/accounts", await createBody(c, "Third"))).body.error?.code).toBe("in_account");
    expect((await accountsOf(env, [c.machineId]))[c.machineId]).toEqual({ id: first, name: "First" });
  });

  it("a non-member cannot unlink a member", async () => {
    const [a, b, stranger] = [await machine(), await machine(), await machine()];
    const id = await linked(a, "Pair", b);
    const r = await send("/api/accounts/unlink", await unlinkBody(stranger, id, b.machineId));
    expect(r.status).toBe(403);
    expect(r.body.error?.code).toBe("not_member");
    expect((await accountsOf(env, [b.machineId]))[b.machineId]?.id).toBe(id);
  });
});

describe("GET /api/accounts/:id and bad input", () => {
  it("names the parameter of a bad id (400) and answers 404 JSON for an unknown one", async () => {
    for (const bad of ["nope", "a-123", "A-0123456789ABCDEF", "m-0123456789abcdef"]) {
      const r = await getJson<Doc>(`/api/accounts/${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toEqual({ code: "bad_input", message: expect.stringContaining("account id (the :id of /api/accounts/:id)") });
    }
    const r = await getJson<Doc>("/api/accounts/a-0123456789abcdef");
    expect(r.status).toBe(404);
    expect(r.body.error?.code).toBe("missing");
    expect(r.body.error?.message).toContain("a-0123456789abcdef");
    expect((await getJson<Doc>("/api/accounts?machine=m-xyz")).body.error?.message).toMatch(/^machine must be/);
    // Public reads: any origin may read them.
    const a = await machine();
    const id = await linked(a, "Public");
    const cross = await exports.default.fetch(`http://${HOST}/api/accounts/${id}`, { headers: { host: HOST, origin: "https://elsewhere.example" } });
    expect(cross.status).toBe(200);
    expect(cross.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect((await getJson<Doc>("/api/accounts")).status).toBe(400);
  });

  it("refuses malformed bodies, naming the field", async () => {
    const a = await machine();
    const cases: Array<[string, unknown, RegExp]> = [
      ["/api/accounts", { ...(await createBody(a, "x")), name: " padded " }, /name: name must be 1-40 characters/],
      ["/api/accounts", { ...(await createBody(a, "x")), name: undefined }, /name: name is required/],
      ["/api/accounts/join", { publicKey: a.publicKey, ts: nowS(), sig: "x" }, /invitation: invitation is required/],
      ["/api/accounts/join", { publicKey: a.publicKey, ts: nowS(), sig: "x", invitation: "hello" }, /malformed invitation: it does not start with 'mosaic-invite.'/],
      ["/api/accounts/join", { publicKey: a.publicKey, ts: nowS(), sig: "x", invitation: "mosaic-invite.e30" }, /malformed invitation: its account/],
      ["/api/accounts/unlink", { publicKey: a.publicKey, ts: nowS(), sig: "x", account: "a-1" }, /account: account must be 'a-'/],
      ["/api/accounts/unlink", { publicKey: a.publicKey, ts: nowS(), sig: "x", account: "a-0123456789abcdef", machine: "me" }, /machine: machine must be 'm-'/],
    ];
    for (const [path, body, message] of cases) {
      const r = await send(path, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error?.code).toBe("bad_input");
      expect(r.body.error?.message).toMatch(message);
    }
  });
});
