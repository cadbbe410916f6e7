import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifyJoinProof } from "../../src/identity/api";
import { identityStub } from "../../src/identity/stub";
import { env, machine, post, proof } from "./identity-helpers";

const minuteNow = (): number => Math.floor(Date.now() / 60_000);

describe("verifyJoinProof", () => {
  it("accepts a proof once; the replay is refused", async () => {
    const m = await machine();
    const args = { gameId: "g-1", machineId: m.machineId, publicKey: m.publicKey, proof: await proof(m, "g-1", "1"), session: "1" };
    expect(await verifyJoinProof(env, args)).toEqual({ ok: true, machineId: m.machineId });
    const replay = await verifyJoinProof(env, args);
    expect(replay).toMatchObject({ ok: false, code: "proof", message: expect.stringMatching(/^replayed proof: this join proof was already used; sign a new one/) });
  });

  it("accepts the previous minute, refuses older and future minutes as stale", async () => {
    const m = await machine();
    const now = minuteNow();
    const base = { gameId: "g-2", machineId: m.machineId, publicKey: m.publicKey, session: "s" };
    expect(await verifyJoinProof(env, { ...base, proof: await proof(m, "g-2", "s", now - 1) })).toMatchObject({ ok: true });
    for (const minute of [now - 2, now + 1]) {
      const r = await verifyJoinProof(env, { ...base, proof: await proof(m, "g-2", "s", minute) });
      expect(r).toMatchObject({ ok: false, code: "proof" });
      expect(!r.ok && r.message).toMatch(new RegExp(`^stale proof: it was signed for unix minute ${minute}`));
    }
  });

  it("binds the proof to the game, the session and the key", async () => {
    const m = await machine();
    const p = await proof(m, "g-3", "1");
    const base = { machineId: m.machineId, publicKey: m.publicKey, proof: p };
    for (const r of [await verifyJoinProof(env, { ...base, gameId: "g-4", session: "1" }), await verifyJoinProof(env, { ...base, gameId: "g-3", session: "2" })]) {
      expect(r).toMatchObject({ ok: false, code: "proof" });
      expect(!r.ok && r.message).toMatch(/^bad signature: proof must sign 'mosaic-join\|/);
    }
  });

  it("accepts the key as SPKI PEM or DER and the proof in base64url, signing the raw base64 form", async () => {
    const m = await machine();
    const pem = `-----BEGIN PUBLIC KEY-----\n${m.spkiBase64}\n-----END PUBLIC KEY-----\n`;
    const p1 = await proof(m, "g-5", "pem");
    expect(await verifyJoinProof(env, { gameId: "g-5", machineId: m.machineId, publicKey: pem, proof: p1, session: "pem" })).toMatchObject({ ok: true });
    const p2 = (await proof(m, "g-5", "der")).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(await verifyJoinProof(env, { gameId: "g-5", machineId: m.machineId, publicKey: m.spkiBase64, proof: p2, session: "der" })).toMatchObject({ ok: true });
  });

  it("refuses a machine id that is not the key's", async () => {
    const m = await machine();
    const other = await machine();
    const r = await verifyJoinProof(env, { gameId: "g", machineId: other.machineId, publicKey: m.publicKey, proof: await proof(m, "g", "1"), session: "1" });
    expect(r).toEqual({ ok: false, code: "identity", message: `machine_id ${other.machineId} does not match public_key, whose machine id is ${m.machineId}` });
  });

  it("refuses a key different from the one first recorded for the machine id", async () => {
    const m = await machine();
    await identityStub(env, m.machineId).claimKey(m.machineId, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", Date.now());
    const r = await verifyJoinProof(env, { gameId: "g", machineId: m.machineId, publicKey: m.publicKey, proof: await proof(m, "g", "1"), session: "1" });
    expect(r).toMatchObject({ ok: false, code: "identity", message: expect.stringMatching(/^key mismatch/) });
  });

  it("refuses malformed input as bad_input without touching storage", async () => {
    const m = await machine();
    const good = { gameId: "g", machineId: m.machineId, publicKey: m.publicKey, proof: await proof(m, "g", "1"), session: "1" };
    const cases: [Partial<typeof good>, RegExp][] = [
      [{ gameId: "bad id!" }, /game_id/],
      [{ session: "" }, /session/],
      [{ session: "a/b" }, /session/],
      [{ session: "x".repeat(25) }, /session/],
      [{ session: "a\nb" }, /session/],
      [{ machineId: "m-XYZ" }, /machine_id must be/],
      [{ publicKey: "AAAA" }, /malformed public key/],
    ];
    for (const [patch, message] of cases) {
      const r = await verifyJoinProof(env, { ...good, ...patch });
      expect(r).toMatchObject({ ok: false, code: "bad_input" });
      expect(!r.ok && r.message).toMatch(message);
    }
    expect(await verifyJoinProof(env, { ...good, proof: "short" })).toMatchObject({ ok: false, code: "proof", message: expect.stringMatching(/^bad signature/) });
    expect(await identityStub(env, m.machineId).describe(m.machineId)).toBeNull();
    expect(await verifyJoinProof(env, good)).toMatchObject({ ok: true });
  });

  it("forgets spent proofs once they can no longer verify", async () => {
    const m = await machine();
    const minute = minuteNow();
    await verifyJoinProof(env, { gameId: "g-6", machineId: m.machineId, publicKey: m.publicKey, proof: await proof(m, "g-6", "1", minute), session: "1", nowMs: minute * 60_000 });
    const stub = identityStub(env, m.machineId);
    const count = () => runInDurableObject(stub, (_o, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM used_signatures").one().n);
    expect(await count()).toBe(1);
    // A later proof, three minutes on, sweeps the expired record.
    const later = (minute + 3) * 60_000;
    await verifyJoinProof(env, { gameId: "g-6", machineId: m.machineId, publicKey: m.publicKey, proof: await proof(m, "g-6", "1", minute + 3), session: "1", nowMs: later });
    expect(await count()).toBe(1);
  });
});

describe("POST /api/keys/proof-check", () => {
  it("verifies without spending", async () => {
    const m = await machine();
    const body = { game_id: "g-7", machine_id: m.machineId, public_key: m.publicKey, proof: await proof(m, "g-7", "1") };
    for (let i = 0; i < 2; i++) {
      const r = await post("/api/keys/proof-check", body);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, machine_id: m.machineId });
    }
    expect(await verifyJoinProof(env, { gameId: "g-7", machineId: m.machineId, publicKey: m.publicKey, proof: body.proof, session: "1" })).toMatchObject({ ok: true });
  });

  it("says a spent proof is spent, as the join would, and that a game which does not exist would be missing", async () => {
    const m = await machine();
    const body = { game_id: "g-8", machine_id: m.machineId, public_key: m.publicKey, proof: await proof(m, "g-8", "1") };
    const fresh = await post("/api/keys/proof-check", body);
    expect(fresh.status).toBe(200);
    // No field g-8 exists: the proof verifies, and the note says the join would still answer missing.
    expect((fresh.body as { note?: string }).note).toMatch(/^verified, not spent: join with it during minute \d+ or the next \(no game g-8 exists on this server yet/);
    expect(await verifyJoinProof(env, { gameId: "g-8", machineId: m.machineId, publicKey: m.publicKey, proof: body.proof, session: "1" })).toMatchObject({ ok: true });
    const spent = await post("/api/keys/proof-check", body);
    expect(spent.status).toBe(409);
    expect(spent.body.error).toMatchObject({ code: "proof" });
    expect(spent.body.error?.message).toMatch(/^replayed proof: this join proof was already used/);
  });
});
