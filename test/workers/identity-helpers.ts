// Helpers for the identity tests inside workerd: WebCrypto ed25519 machines and signed requests.
import { env as workerEnv, exports } from "cloudflare:workers";
import type { Env } from "../../src/env";
import { toBase64, toBase64Url } from "../../src/text/encoding";
import { machineIdOf } from "../../src/identity/keys";

// The test pool's `env` is the binding object the Worker receives; typed as the project's Env.
export const env = workerEnv as unknown as Env;
export const HOST = "mosaic.test:8443";

export interface Machine {
  raw: Uint8Array<ArrayBuffer>;
  publicKey: string;
  spkiBase64: string;
  machineId: string;
  sign(message: string): Promise<Uint8Array<ArrayBuffer>>;
}

export async function machine(): Promise<Machine> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer);
  return {
    raw,
    publicKey: toBase64(raw),
    spkiBase64: toBase64(spki),
    machineId: await machineIdOf(raw),
    sign: async (m) => new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, new TextEncoder().encode(m))),
  };
}

export const nowS = (): number => Math.floor(Date.now() / 1000);

export interface ApiAnswer {
  status: number;
  body: { token?: string; machine_id?: string; name?: string | null; error?: { code: string; message: string } };
}

export async function post(path: string, body: unknown, host = HOST): Promise<ApiAnswer> {
  const res = await exports.default.fetch(`http://${host}${path}`, {
    method: "POST",
    headers: { host, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as ApiAnswer["body"] };
}

export async function authBody(m: Machine, opts: { ts?: number; host?: string } = {}): Promise<{ publicKey: string; ts: number; sig: string }> {
  const ts = opts.ts ?? nowS();
  return { publicKey: m.publicKey, ts, sig: toBase64Url(await m.sign(`mosaic-key-auth:${opts.host ?? HOST}:${ts}`)) };
}

/** Mints with a timestamp of its own (signed requests are single-use, so repeated mints need distinct ts). */
export async function mint(m: Machine, ts = nowS()): Promise<string> {
  const r = await post("/api/keys/auth", await authBody(m, { ts }));
  if (r.status !== 200 || !r.body.token) throw new Error(`mint failed: ${JSON.stringify(r.body)}`);
  return r.body.token;
}

export async function nameBody(m: Machine, name: string, ts = nowS()): Promise<{ publicKey: string; ts: number; name: string; sig: string }> {
  return { publicKey: m.publicKey, ts, name, sig: toBase64Url(await m.sign(`mosaic-key-name:${HOST}:${ts}:${name}`)) };
}

export async function proof(m: Machine, gameId: string, session: string, minute = Math.floor(Date.now() / 60_000)): Promise<string> {
  return toBase64(await m.sign(`mosaic-join|${gameId}|${m.publicKey}|${minute}|${session}`));
}
