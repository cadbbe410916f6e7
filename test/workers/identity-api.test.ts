import { env as workerEnv, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { displayName, machineFromBearer, verifyJoinProof } from "../../src/identity/api";
import { toBase64, toBase64Url } from "../../src/identity/encoding";
import { machineIdOf } from "../../src/identity/keys";
import type { Env } from "../../src/env";

// The test pool's `env` is the same binding object the Worker receives; typed as the project's Env.
const env = workerEnv as unknown as Env;

/** A WebCrypto ed25519 key pair with the helpers the tests need (node:crypto is not used inside workerd). */
async function machine() {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const sign = async (m: string) => new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, new TextEncoder().encode(m)));
  return { raw, publicKey: toBase64(raw), machineId: await machineIdOf(raw), sign };
}
type M = Awaited<ReturnType<typeof machine>>;

const HOST = "mosaic.test:8443";
async function mint(m: M, ts = Math.floor(Date.now() / 1000)) {
  const sig = toBase64Url(await m.sign(`mosaic-key-auth:${HOST}:${ts}`));
  const res = await exports.default.fetch(`http://${HOST}/api/keys/auth`, {
    method: "POST",
    headers: { host: HOST, "content-type": "application/json" },
    body: JSON.stringify({ publicKey: m.publicKey, ts, sig }),
  });
  return { status: res.status, body: (await res.json()) as { token?: string; machine_id?: string; error?: { code: string; message: string } } };
}

describe("identity api", () => {
  it("mints a token that resolves to the machine", async () => {
    const m = await machine();
    const r = await mint(m);
    expect(r.status).toBe(200);
    expect(r.body.machine_id).toBe(m.machineId);
    expect(r.body.token).toMatch(/^msc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(await machineFromBearer(env, `Bearer ${r.body.token}`)).toEqual({ ok: true, machineId: m.machineId });
    expect(await machineFromBearer(env, null)).toBeNull();
  });

  it("verifies a proof join once", async () => {
    const m = await machine();
    const minute = Math.floor(Date.now() / 60_000);
    const proof = toBase64(await m.sign(`mosaic-join|g1|${m.publicKey}|${minute}|1`));
    const args = { gameId: "g1", machineId: m.machineId, publicKey: m.publicKey, proof, session: "1" };
    expect(await verifyJoinProof(env, args)).toEqual({ ok: true, machineId: m.machineId });
    const again = await verifyJoinProof(env, args);
    expect(again).toMatchObject({ ok: false, code: "proof" });
    expect(await displayName(env, m.machineId)).toBeNull();
  });
});
