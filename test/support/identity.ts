// Test helpers for machine identities (SPEC §8): ed25519 keys from node:crypto, tokens, join proofs.
import { createHash, generateKeyPairSync, sign as edSign, type KeyObject } from "node:crypto";

export interface TestMachine {
  /** Raw 32-byte public key, standard base64. */
  publicKeyRaw: string;
  /** SPKI PEM of the same key (proof joins accept it too). */
  publicKeyPem: string;
  machineId: string;
  privateKey: KeyObject;
  /** Ed25519 signature of `message`, base64url without padding (the form key requests use). */
  sign(message: string): string;
  /** Ed25519 signature of `message`, standard base64 (the form join proofs use). */
  signBase64(message: string): string;
}

export function newMachine(): TestMachine {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" });
  const raw = der.subarray(der.length - 32);
  const publicKeyRaw = raw.toString("base64");
  const sig = (message: string): Buffer => edSign(null, Buffer.from(message, "utf8"), privateKey);
  return {
    publicKeyRaw,
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    machineId: "m-" + createHash("sha256").update(raw).digest("hex").slice(0, 16),
    privateKey,
    sign: (message) => sig(message).toString("base64url"),
    signBase64: (message) => sig(message).toString("base64"),
  };
}

// Signed key requests are single-use; two mints in one second would sign the same message.
const lastTs = new WeakMap<TestMachine, number>();
function freshTs(machine: TestMachine): number {
  const ts = Math.max(Math.floor(Date.now() / 1000), (lastTs.get(machine) ?? 0) + 1);
  lastTs.set(machine, ts);
  return ts;
}

/** POST /api/keys/auth; returns the `msc_…` token or throws with the server's message. */
export async function mintToken(baseUrl: string, machine: TestMachine): Promise<string> {
  const host = new URL(baseUrl).host;
  const ts = freshTs(machine);
  const res = await fetch(`${baseUrl}/api/keys/auth`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ publicKey: machine.publicKeyRaw, ts, sig: machine.sign(`mosaic-key-auth:${host}:${ts}`) }),
  });
  const body = (await res.json()) as { token?: string; error?: { message: string } };
  if (!res.ok || !body.token) throw new Error(`mint failed (${res.status}): ${body.error?.message ?? JSON.stringify(body)}`);
  return body.token;
}

/** POST /api/keys/name; throws with the server's message on refusal. */
export async function setDisplayName(baseUrl: string, machine: TestMachine, name: string): Promise<void> {
  const host = new URL(baseUrl).host;
  const ts = freshTs(machine);
  const res = await fetch(`${baseUrl}/api/keys/name`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ publicKey: machine.publicKeyRaw, ts, name, sig: machine.sign(`mosaic-key-name:${host}:${ts}:${name}`) }),
  });
  if (!res.ok) throw new Error(`name failed (${res.status}): ${await res.text()}`);
}

/** The base64 proof for `join` (SPEC §8), for the given (default: current) unix minute. */
export function joinProof(machine: TestMachine, gameId: string, session: string, unixMinute = Math.floor(Date.now() / 60_000)): string {
  return machine.signBase64(`mosaic-join|${gameId}|${machine.publicKeyRaw}|${unixMinute}|${session}`);
}

/** The identity arguments of a proof join, ready to spread into `join`'s arguments. */
export function joinProofArgs(machine: TestMachine, gameId: string, session: string, unixMinute?: number): { machine_id: string; public_key: string; proof: string; session: string } {
  return { machine_id: machine.machineId, public_key: machine.publicKeyRaw, proof: joinProof(machine, gameId, session, unixMinute), session };
}
