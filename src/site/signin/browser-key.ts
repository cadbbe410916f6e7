// This browser's machine key (SPEC §8.1): an ed25519 key made with WebCrypto and kept in
// IndexedDB. Non-extractable unless the person asked, when it was made, to be able to download it
// (a non-extractable key can never be exported later).
import { sha256Hex, toBase64, toBase64Url, type Bytes } from "../../text/encoding";

export interface BrowserKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The raw 32-byte public key in base64: what signed requests carry. */
  raw: string;
  machineId: string;
  extractable: boolean;
}

const DB = "mosaic-identity";
const STORE = "keys";
const SLOT = "machine";

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function run<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  return openDb().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = op(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(req.result as T);
        tx.onerror = () => reject(tx.error);
      }),
  );
}

export async function loadKey(): Promise<BrowserKey | null> {
  const stored = await run<BrowserKey | undefined>("readonly", (s) => s.get(SLOT));
  return stored ?? null;
}

export async function createKey(extractable: boolean): Promise<BrowserKey> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, extractable, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)) as Bytes;
  const key: BrowserKey = { privateKey: pair.privateKey, publicKey: pair.publicKey, raw: toBase64(raw), machineId: "m-" + (await sha256Hex(raw)).slice(0, 16), extractable };
  await run("readwrite", (s) => s.put(key, SLOT));
  return key;
}

export async function sign(key: BrowserKey, message: string): Promise<string> {
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, new TextEncoder().encode(message));
  return toBase64Url(new Uint8Array(sig) as Bytes);
}

/** The key file the CLI and the reference agent read: `{machine_id, publicKey, privateKey (PKCS#8 PEM)}`. */
export async function identityJson(key: BrowserKey): Promise<string> {
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", key.privateKey)) as Bytes;
  const body = toBase64(pkcs8).replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
  return JSON.stringify({ machine_id: key.machineId, publicKey: key.raw, privateKey: pem }, null, 2) + "\n";
}
