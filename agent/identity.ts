/**
 * The agent's machine identity (SPEC §8), in the identity CLI's own key file and format:
 * `{machine_id, publicKey (raw base64), privateKey (PKCS#8 PEM), tokens: {origin: token}}`.
 * A stored token is reused while the server still accepts it, because minting again replaces
 * the previous token and would cut off any other program playing as the same machine.
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface StoredIdentity {
  machine_id: string;
  publicKey: string;
  privateKey: string;
  tokens?: Record<string, string>;
}

export interface MachineIdentity {
  file: string;
  machineId: string;
  publicKey: string;
  key: KeyObject;
  /** True when this call created the key file. */
  created: boolean;
}

/** The key file: an explicit path, else $MOSAIC_IDENTITY, else $MOSAIC_CONFIG_HOME/identity.json, else ~/.config/mosaic/identity.json (as the CLI). */
export function identityPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return explicit;
  if (env.MOSAIC_IDENTITY) return env.MOSAIC_IDENTITY;
  return join(env.MOSAIC_CONFIG_HOME || join(homedir(), ".config", "mosaic"), "identity.json");
}

export function machineIdOf(rawPublicKey: Buffer): string {
  return "m-" + createHash("sha256").update(rawPublicKey).digest("hex").slice(0, 16);
}

function readStored(file: string): StoredIdentity {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file} is not a readable JSON key file (${err instanceof Error ? err.message : String(err)})`);
  }
  const id = parsed as Partial<StoredIdentity> | null;
  if (!id || typeof id.publicKey !== "string" || typeof id.privateKey !== "string") throw new Error(`${file} lacks publicKey/privateKey`);
  if (Buffer.from(id.publicKey, "base64").length !== 32) throw new Error(`${file}: publicKey is not a raw 32-byte key in base64`);
  return id as StoredIdentity;
}

/** Atomic write, readable by the owner only (same as the CLI). */
function writeStored(file: string, id: StoredIdentity): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, JSON.stringify(id, null, 2) + "\n", { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Loads the key file, creating a fresh ed25519 key there when it does not exist. */
export function loadOrCreateIdentity(file: string): MachineIdentity {
  let created = false;
  if (!existsSync(file)) {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
    writeStored(file, { machine_id: machineIdOf(raw), publicKey: raw.toString("base64"), privateKey: privateKey.export({ format: "pem", type: "pkcs8" }).toString() });
    created = true;
  }
  const stored = readStored(file);
  return { file, machineId: machineIdOf(Buffer.from(stored.publicKey, "base64")), publicKey: stored.publicKey, key: createPrivateKey(stored.privateKey), created };
}

export function storedToken(identity: MachineIdentity, origin: string): string | undefined {
  return readStored(identity.file).tokens?.[origin];
}

/** Remembers a token for an origin, re-reading the file so that other fields of it survive. */
function storeToken(identity: MachineIdentity, origin: string, token: string): void {
  const stored = readStored(identity.file);
  stored.tokens = { ...(stored.tokens ?? {}), [origin]: token };
  writeStored(identity.file, stored);
}

async function postJson(url: URL, body: unknown, timeoutMs: number): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, json };
}

/** Signed key requests are single-use per (key, ts): never sign two for one key in the same second. */
const lastTs = new Map<string, number>();

/** POST /api/keys/auth: a new bearer token for the machine (replaces its previous one). */
export async function mintToken(identity: MachineIdentity, server: URL, timeoutMs = 15_000): Promise<string> {
  const ts = Math.max(Math.floor(Date.now() / 1000), (lastTs.get(identity.publicKey) ?? 0) + 1);
  lastTs.set(identity.publicKey, ts);
  const sig = sign(null, Buffer.from(`mosaic-key-auth:${server.host}:${ts}`, "utf8"), identity.key).toString("base64url");
  const { status, json } = await postJson(new URL("/api/keys/auth", server), { publicKey: identity.publicKey, ts, sig }, timeoutMs);
  const token = json.token;
  if (status !== 200 || typeof token !== "string") {
    const error = json.error as { message?: string } | undefined;
    throw new Error(`minting a token at ${server.origin} failed (HTTP ${status}): ${error?.message ?? JSON.stringify(json)}`);
  }
  storeToken(identity, server.origin, token);
  return token;
}

/** Does the server still accept this token for this machine? (GET /api/keys/whoami) */
async function tokenWorks(token: string, identity: MachineIdentity, server: URL, timeoutMs: number): Promise<boolean> {
  const res = await fetch(new URL("/api/keys/whoami", server), { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) return false;
  const json = (await res.json().catch(() => ({}))) as { machine_id?: unknown };
  return json.machine_id === identity.machineId;
}

/** The stored token when the server still accepts it, else a freshly minted one. */
export async function bearerToken(identity: MachineIdentity, server: URL, timeoutMs = 15_000): Promise<{ token: string; minted: boolean }> {
  const stored = storedToken(identity, server.origin);
  if (stored && (await tokenWorks(stored, identity, server, timeoutMs))) return { token: stored, minted: false };
  return { token: await mintToken(identity, server, timeoutMs), minted: true };
}
