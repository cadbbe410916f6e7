import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { machineFromBearer } from "../../src/identity/api";
import { identityStub } from "../../src/identity/stub";
import { toBase64Url } from "../../src/text/encoding";
import { authBody, env, HOST, machine, mint, nameBody, nowS, post } from "./identity-helpers";

describe("POST /api/keys/auth", () => {
  it("answers a token and the machine id; the token resolves to the machine", async () => {
    const m = await machine();
    const r = await post("/api/keys/auth", await authBody(m));
    expect(r.status).toBe(200);
    expect(r.body.machine_id).toBe(m.machineId);
    expect(r.body.token).toMatch(/^msc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(await machineFromBearer(env, `Bearer ${r.body.token}`)).toEqual({ ok: true, machineId: m.machineId });
  });

  it("accepts ts as a digit string and sig in base64 as well as base64url", async () => {
    const m = await machine();
    const ts = nowS();
    const sig = Buffer.from(await m.sign(`mosaic-key-auth:${HOST}:${ts}`)).toString("base64");
    const r = await post("/api/keys/auth", { publicKey: m.publicKey, ts: String(ts), sig });
    expect(r.status).toBe(200);
  });

  it("replaces the previous token on a new mint; the old one is refused with 'mint again'", async () => {
    const m = await machine();
    const first = await mint(m, nowS() - 1);
    const second = await mint(m);
    expect(second).not.toBe(first);
    const old = await machineFromBearer(env, `Bearer ${first}`);
    expect(old).toMatchObject({ ok: false, code: "token" });
    expect(old && !old.ok && old.message).toMatch(/replaced by a newer one.*Mint a new one: POST \/api\/keys\/auth/);
    expect(await machineFromBearer(env, `Bearer ${second}`)).toEqual({ ok: true, machineId: m.machineId });
  });

  it("refuses tokens it did not mint, saying to mint again", async () => {
    const m = await machine();
    await mint(m);
    for (const token of [`msc_${m.machineId.slice(2)}_${"A".repeat(43)}`, "msc_nonsense", "hello"]) {
      const r = await machineFromBearer(env, `Bearer ${token}`);
      expect(r).toMatchObject({ ok: false, code: "token" });
      expect(r && !r.ok && r.message).toMatch(/did not mint it.*Mint a new one/);
    }
    const bad = await machineFromBearer(env, "Basic dXNlcjpwYXNz");
    expect(bad && !bad.ok && bad.message).toMatch(/must be 'Bearer msc_…'/);
    expect(await machineFromBearer(env, null)).toBeNull();
    expect(await machineFromBearer(env, "")).toBeNull();
  });

  it("refuses a bad signature", async () => {
    const m = await machine();
    const other = await machine();
    const body = { ...(await authBody(other)), publicKey: m.publicKey };
    const r = await post("/api/keys/auth", body);
    expect(r.status).toBe(401);
    expect(r.body.error).toEqual({ code: "bad_signature", message: expect.stringMatching(/^bad signature: sig does not verify over 'mosaic-key-auth:mosaic\.test:8443:\d+'/) });
  });

  it("refuses a stale timestamp either side of the 5-minute window, and accepts its edge", async () => {
    const m = await machine();
    for (const ts of [nowS() - 360, nowS() + 360]) {
      const r = await post("/api/keys/auth", await authBody(m, { ts }));
      expect(r.status).toBe(401);
      expect(r.body.error?.code).toBe("stale_timestamp");
      expect(r.body.error?.message).toMatch(/^stale timestamp: ts \d+ is 36\d s away from the server's clock/);
    }
    expect((await post("/api/keys/auth", await authBody(m, { ts: nowS() - 290 }))).status).toBe(200);
  });

  it("refuses a signature made for another host, naming both", async () => {
    const m = await machine();
    for (const signedFor of ["mosaic.test", "localhost:8443", "127.0.0.1:8443"]) {
      const r = await post("/api/keys/auth", await authBody(m, { host: signedFor }));
      expect(r.status).toBe(401);
      expect(r.body.error?.code).toBe("wrong_host");
      expect(r.body.error?.message).toContain(`the signature is for host '${signedFor}' but this request's Host header is '${HOST}'`);
    }
    const declared = await post("/api/keys/auth", { ...(await authBody(m, { host: "elsewhere.example" })), host: "elsewhere.example" });
    expect(declared.body.error?.code).toBe("wrong_host");
    expect(declared.body.error?.message).toContain("you signed for 'elsewhere.example'");
  });

  it("refuses a signature made for another server replayed here under that server's name (a loopback client, a foreign Host)", async () => {
    const m = await machine();
    const foreign = "evil.example";
    const body = await authBody(m, { host: foreign });
    const replayed = await exports.default.fetch(`http://${foreign}/api/keys/auth`, {
      method: "POST",
      headers: { host: foreign, "content-type": "application/json", "CF-Connecting-IP": "127.0.0.1" },
      body: JSON.stringify(body),
    });
    expect(replayed.status).toBe(403);
    const refused = (await replayed.json()) as { error: { code: string; message: string } };
    expect(refused.error.code).toBe("wrong_host");
    expect(refused.error.message).toContain(`host ${foreign} is not served here`);
    // Nothing was minted: the machine has no key on record.
    const described = await exports.default.fetch(`http://${HOST}/api/keys/${m.machineId}`);
    expect(described.status).toBe(404);
    // The same request from a loopback client under this server's own name is served.
    expect((await post("/api/keys/auth", await authBody(m))).status).toBe(200);
  });

  it("refuses a signed request used twice", async () => {
    const m = await machine();
    const body = await authBody(m);
    expect((await post("/api/keys/auth", body)).status).toBe(200);
    const again = await post("/api/keys/auth", body);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "replayed", message: expect.stringMatching(/already used; sign a fresh one/) });
  });

  it("refuses a key different from the first one seen for its machine id", async () => {
    const m = await machine();
    // A second key with the same 64-bit machine id cannot be made on purpose: record a foreign key first.
    expect(await identityStub(env, m.machineId).claimKey(m.machineId, "someone-else's-key", Date.now())).toEqual({ ok: true });
    const r = await post("/api/keys/auth", await authBody(m));
    expect(r.status).toBe(409);
    expect(r.body.error).toEqual({ code: "key_mismatch", message: `key mismatch: machine ${m.machineId} is already registered with a different public key` });
  });

  it("refuses malformed input with specific messages and changes nothing", async () => {
    const m = await machine();
    const good = await authBody(m);
    const cases: [unknown, RegExp][] = [
      ["not json", /body must be a JSON object/],
      ["[1,2]", /body must be a JSON object/],
      [{}, /publicKey: publicKey is required/],
      [{ ...good, publicKey: "AAAA" }, /malformed public key: decodes to 3 bytes/],
      [{ ...good, publicKey: 42 }, /publicKey/],
      [{ ...good, ts: 1.5 }, /ts must be unix seconds/],
      [{ ...good, ts: "soon" }, /ts must be unix seconds/],
      [{ ...good, sig: "abc" }, /malformed signature/],
      [{ ...good, sig: "x".repeat(500) }, /sig/],
    ];
    for (const [body, message] of cases) {
      const r = await post("/api/keys/auth", body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error?.code).toBe("bad_input");
      expect(r.body.error?.message).toMatch(message);
    }
    // A body over the API's limit is refused before it is parsed (413, the edge's body guard).
    const big = await post("/api/keys/auth", JSON.stringify({ ...good, pad: "x".repeat(20_000) }));
    expect(big.status).toBe(413);
    expect(big.body.error).toEqual({ code: "too_large", message: expect.stringMatching(/body too large: the limit is 16384 bytes/) });
    // None of those left a trace: the good request still mints, and the machine is new.
    expect((await exports.default.fetch(`http://${HOST}/api/keys/${m.machineId}`)).status).toBe(404);
    expect((await post("/api/keys/auth", good)).status).toBe(200);
  });
});

describe("POST /api/keys/name and displayName", () => {
  it("sets the display name from a signed request and refuses older or replayed ones", async () => {
    const { displayName } = await import("../../src/identity/api");
    const m = await machine();
    const t = nowS();
    const first = await nameBody(m, "Ada (v1)", t - 2);
    expect((await post("/api/keys/name", first)).status).toBe(200);
    expect(await displayName(env, m.machineId)).toBe("Ada (v1)");
    expect((await post("/api/keys/name", await nameBody(m, "Ada v2", t))).body).toEqual({ machine_id: m.machineId, name: "Ada v2" });
    expect(await displayName(env, m.machineId)).toBe("Ada v2");
    const older = await post("/api/keys/name", await nameBody(m, "rollback", t - 1));
    expect(older.status).toBe(401);
    expect(older.body.error?.message).toMatch(/^stale timestamp: a name request signed at ts \d+ was already applied/);
    expect((await post("/api/keys/name", first)).body.error?.code).toBe("stale_timestamp");
    expect(await displayName(env, m.machineId)).toBe("Ada v2");
  });

  it("refuses a name signed over another name, and names outside the charset", async () => {
    const m = await machine();
    const signed = await nameBody(m, "good");
    const swapped = await post("/api/keys/name", { ...signed, name: "evil" });
    expect(swapped.body.error?.code).toBe("bad_signature");
    for (const name of ["", " lead", "<b>x</b>", "x".repeat(41)]) {
      const r = await post("/api/keys/name", await nameBody(m, name));
      expect(r.status).toBe(400);
      expect(r.body.error?.message).toMatch(/name/);
    }
  });

  it("is public through GET /api/keys/<machine_id>", async () => {
    const m = await machine();
    await mint(m);
    await post("/api/keys/name", await nameBody(m, "shown"));
    const res = await exports.default.fetch(`http://${HOST}/api/keys/${m.machineId}`);
    expect(await res.json()).toMatchObject({ machine_id: m.machineId, public_key: m.publicKey, name: "shown" });
    expect((await exports.default.fetch(`http://${HOST}/api/keys/nope`)).status).toBe(400);
  });
});

describe("GET /api/keys/whoami", () => {
  it("names the machine a token proves, and refuses a missing or unknown token", async () => {
    const m = await machine();
    const token = await mint(m);
    const ok = await exports.default.fetch(`http://${HOST}/api/keys/whoami`, { headers: { authorization: `Bearer ${token}` } });
    expect(await ok.json()).toEqual({ machine_id: m.machineId, name: null });
    expect((await exports.default.fetch(`http://${HOST}/api/keys/whoami`)).status).toBe(401);
    const sig = toBase64Url(new Uint8Array(64));
    const unknown = await exports.default.fetch(`http://${HOST}/api/keys/whoami`, { headers: { authorization: `Bearer msc_${m.machineId.slice(2)}_${sig.slice(0, 43)}` } });
    expect(unknown.status).toBe(401);
  });
});
