// Every identity refusal of SPEC §8 and §12 over real HTTP against `wrangler dev`, with its message.
import { describe, expect, inject, it } from "vitest";
import { joinProof, mintToken, newMachine, setDisplayName, type TestMachine } from "../support/identity";

const base = inject("baseUrl");
const host = new URL(base).host;
const nowS = (): number => Math.floor(Date.now() / 1000);

async function post(path: string, body: unknown): Promise<{ status: number; error?: { code: string; message: string }; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } };
  return { status: res.status, error: json.error, json };
}

function auth(m: TestMachine, ts = nowS(), signedHost = host) {
  return { publicKey: m.publicKeyRaw, ts, sig: m.sign(`mosaic-key-auth:${signedHost}:${ts}`) };
}

async function whoami(token: string): Promise<{ status: number; body: { machine_id?: string; error?: { code: string; message: string } } }> {
  const res = await fetch(`${base}/api/keys/whoami`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

describe("identity refusals over HTTP", () => {
  it("mints for the Host header as sent, port included", async () => {
    const m = newMachine();
    const r = await post("/api/keys/auth", auth(m));
    expect(r.status).toBe(200);
    expect(r.json.machine_id).toBe(m.machineId);
    expect((await whoami(String(r.json.token))).body.machine_id).toBe(m.machineId);
  });

  it("bad signature", async () => {
    const m = newMachine();
    const r = await post("/api/keys/auth", { ...auth(m), sig: newMachine().sign(`mosaic-key-auth:${host}:${nowS()}`) });
    expect(r.status).toBe(401);
    expect(r.error?.code).toBe("bad_signature");
    expect(r.error?.message).toMatch(new RegExp(`^bad signature: sig does not verify over 'mosaic-key-auth:${host.replace(/\./g, "\\.")}:\\d+' with this public key$`));
  });

  it("stale timestamp", async () => {
    const m = newMachine();
    const r = await post("/api/keys/auth", auth(m, nowS() - 600));
    expect(r.status).toBe(401);
    expect(r.error?.code).toBe("stale_timestamp");
    expect(r.error?.message).toMatch(/^stale timestamp: ts \d+ is 60\d s away from the server's clock \(\d+\); it must be within 300 s$/);
  });

  it("wrong host: a signature for the port-less host, or for localhost", async () => {
    const m = newMachine();
    const portless = host.replace(/:\d+$/, "");
    for (const signed of [portless, host.replace("127.0.0.1", "localhost")]) {
      const r = await post("/api/keys/auth", auth(m, nowS(), signed));
      expect(r.status).toBe(401);
      expect(r.error?.code).toBe("wrong_host");
      expect(r.error?.message).toBe(`wrong host: the signature is for host '${signed}' but this request's Host header is '${host}'; sign 'mosaic-key-auth:${host}:${r.error?.message.match(/:(\d+)'$/)?.[1]}'`);
    }
  });

  it("replayed key request", async () => {
    const m = newMachine();
    const body = auth(m);
    expect((await post("/api/keys/auth", body)).status).toBe(200);
    const r = await post("/api/keys/auth", body);
    expect(r.status).toBe(409);
    expect(r.error).toEqual({ code: "replayed", message: "replayed request: this signed request was already used; sign a fresh one (a new ts)" });
  });

  it("old token after a re-mint, and a token the server never minted", async () => {
    const m = newMachine();
    const old = await mintToken(base, m);
    const current = await mintToken(base, m);
    const replaced = await whoami(old);
    expect(replaced.status).toBe(401);
    expect(replaced.body.error).toEqual({
      code: "token",
      message: `This bearer token was replaced by a newer one for ${m.machineId}; use the newest token. Mint a new one: POST /api/keys/auth (see /identity).`,
    });
    expect((await whoami(current)).body.machine_id).toBe(m.machineId);
    const forged = `msc_${m.machineId.slice(2)}_${"x".repeat(43)}`;
    for (const token of [forged, "msc_123", "not-a-token"]) {
      const unknown = await whoami(token);
      expect(unknown.status).toBe(401);
      expect(unknown.body.error?.code).toBe("token");
      expect(unknown.body.error?.message).toMatch(/^Unknown bearer token: this server did not mint it.*Mint a new one: POST \/api\/keys\/auth \(see \/identity\)\.$/);
    }
  });

  it("key mismatch: a machine id that is not the key's", async () => {
    const m = newMachine();
    const other = newMachine();
    const r = await post("/api/keys/proof-check", { game_id: "g-e2e", machine_id: other.machineId, public_key: m.publicKeyRaw, proof: joinProof(m, "g-e2e", "1"), session: "1" });
    expect(r.status).toBe(401);
    expect(r.error).toEqual({ code: "identity", message: `machine_id ${other.machineId} does not match public_key, whose machine id is ${m.machineId}` });
  });

  it("proof checks: good now, good as PEM, stale, and bound to its game", async () => {
    const m = newMachine();
    const ok = await post("/api/keys/proof-check", { game_id: "g-e2e", machine_id: m.machineId, public_key: m.publicKeyPem, proof: joinProof(m, "g-e2e", "7"), session: "7" });
    expect(ok.status).toBe(200);
    const minute = Math.floor(Date.now() / 60_000);
    const stale = await post("/api/keys/proof-check", { game_id: "g-e2e", machine_id: m.machineId, public_key: m.publicKeyRaw, proof: joinProof(m, "g-e2e", "1", minute - 5) });
    expect(stale.error?.message).toMatch(new RegExp(`^stale proof: it was signed for unix minute ${minute - 5}`));
    const other = await post("/api/keys/proof-check", { game_id: "g-other", machine_id: m.machineId, public_key: m.publicKeyRaw, proof: joinProof(m, "g-e2e", "1") });
    expect(other.error?.message).toMatch(/^bad signature: proof must sign 'mosaic-join\|g-other\|/);
  });

  it("malformed inputs get specific messages", async () => {
    const m = newMachine();
    const good = auth(m);
    const cases: [string, unknown, string][] = [
      ["/api/keys/auth", "{not json", "malformed request: the body must be a JSON object"],
      ["/api/keys/auth", { ...good, publicKey: undefined }, "malformed request: publicKey: publicKey is required: the raw 32-byte ed25519 public key in base64"],
      ["/api/keys/auth", { ...good, publicKey: Buffer.alloc(16).toString("base64") }, "malformed public key: decodes to 16 bytes; expected the raw 32-byte ed25519 key in base64 (or SPKI PEM/DER for proof joins)"],
      ["/api/keys/auth", { ...good, publicKey: "%%%" }, "malformed public key: it is neither base64 nor a PEM block"],
      ["/api/keys/auth", { ...good, sig: "AAAA" }, "malformed signature: sig must be a 64-byte ed25519 signature in base64url"],
      ["/api/keys/auth", { ...good, ts: -5 }, "malformed request: ts: ts must be unix seconds (an integer)"],
      ["/api/keys/name", { ...good, name: "<script>" }, "malformed request: name: name must be 1-40 characters: letters, digits, space and . _ - ' ( ), not starting or ending with a space"],
      ["/api/keys/proof-check", { game_id: "g" }, "malformed request: machine_id: machine_id is required"],
      ["/api/keys/proof-check", { game_id: "bad id", machine_id: m.machineId, public_key: m.publicKeyRaw, proof: "x" }, "game_id must match ^[a-zA-Z0-9_-]{1,80}$"],
    ];
    for (const [path, body, message] of cases) {
      const r = await post(path, body);
      expect(r.status, message).toBe(400);
      expect(r.error).toEqual({ code: "bad_input", message });
    }
  });

  it("the display name follows the key holder's signed request", async () => {
    const m = newMachine();
    await setDisplayName(base, m, "e2e agent");
    const res = await fetch(`${base}/api/keys/${m.machineId}`);
    expect(await res.json()).toMatchObject({ machine_id: m.machineId, public_key: m.publicKeyRaw, name: "e2e agent" });
  });
});
