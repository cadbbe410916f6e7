import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fromBase64Any, toBase64, toBase64Url } from "../../../src/text/encoding";
import { machineIdOf, parsePublicKey, parseSignature, verifyEd25519 } from "../../../src/identity/keys";
import { MACHINE_ID_RE } from "../../../src/referee/agent-id";

function nodeKey() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" });
  const raw = der.subarray(12);
  return {
    der,
    raw,
    pem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    machineId: "m-" + createHash("sha256").update(raw).digest("hex").slice(0, 16),
    sign: (m: string) => sign(null, Buffer.from(m), privateKey),
  };
}

describe("machine ids", () => {
  it("are m- and the first 16 hex digits of SHA-256 of the raw key", async () => {
    // SHA-256 of 32 zero bytes starts 66687aadf862bd77.
    expect(await machineIdOf(new Uint8Array(32))).toBe("m-66687aadf862bd77");
    for (let i = 0; i < 5; i++) {
      const k = nodeKey();
      const id = await machineIdOf(new Uint8Array(k.raw));
      expect(id).toBe(k.machineId);
      expect(id).toMatch(MACHINE_ID_RE);
    }
  });
});

describe("public key parsing", () => {
  const k = nodeKey();
  const rawB64 = k.raw.toString("base64");

  it("accepts raw base64, raw base64url and unpadded forms, all to the same canonical base64", () => {
    for (const form of [rawB64, k.raw.toString("base64url"), rawB64.replace(/=+$/, ""), `  ${rawB64}\n`]) {
      const r = parsePublicKey(form);
      expect(r.ok && r.rawBase64).toBe(rawB64);
    }
  });

  it("accepts SPKI PEM (also with literal \\n escapes) and SPKI DER in base64", () => {
    for (const form of [k.pem, k.pem.replace(/\n/g, "\\n"), k.der.toString("base64")]) {
      const r = parsePublicKey(form);
      expect(r.ok && r.rawBase64).toBe(rawB64);
    }
  });

  it("refuses malformed keys with a message saying what is wrong", () => {
    const cases: [string, RegExp][] = [
      ["", /empty/],
      ["not base64 at all!", /neither base64 nor a PEM/],
      [Buffer.alloc(31).toString("base64"), /decodes to 31 bytes/],
      [Buffer.alloc(33).toString("base64"), /decodes to 33 bytes/],
      ["-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", /BEGIN PUBLIC KEY/],
      ["x".repeat(5000), /too long/],
    ];
    for (const [input, message] of cases) {
      const r = parsePublicKey(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
    // An X25519 SPKI key has the same length but another algorithm OID.
    const x = generateKeyPairSync("x25519").publicKey.export({ format: "der", type: "spki" });
    const r = parsePublicKey(x.toString("base64"));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/not an ed25519 public key/);
  });
});

describe("signatures", () => {
  const k = nodeKey();
  const raw = new Uint8Array(k.raw);

  it("verify over the exact message only", async () => {
    const sig = new Uint8Array(k.sign("mosaic-key-auth:127.0.0.1:8787:1700000000"));
    expect(await verifyEd25519(raw, sig, "mosaic-key-auth:127.0.0.1:8787:1700000000")).toBe(true);
    expect(await verifyEd25519(raw, sig, "mosaic-key-auth:127.0.0.1:8788:1700000000")).toBe(false);
    expect(await verifyEd25519(new Uint8Array(nodeKey().raw), sig, "mosaic-key-auth:127.0.0.1:8787:1700000000")).toBe(false);
  });

  it("parse from base64 and base64url, 64 bytes only", () => {
    const sig = k.sign("x");
    expect(parseSignature(sig.toString("base64"))).toEqual(new Uint8Array(sig));
    expect(parseSignature(sig.toString("base64url"))).toEqual(new Uint8Array(sig));
    expect(parseSignature(sig.subarray(1).toString("base64"))).toBeNull();
    expect(parseSignature("!!!")).toBeNull();
    expect(parseSignature("A".repeat(300))).toBeNull();
  });

  it("never throw for keys that are not curve points", async () => {
    // y = 2 is not on the curve; importKey or verify fails inside, and the answer is just false.
    const bad = new Uint8Array(32);
    bad[0] = 2;
    expect(await verifyEd25519(bad, new Uint8Array(64), "m")).toBe(false);
  });
});

describe("base64 helpers", () => {
  it("round-trip every byte value in both alphabets", () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    expect(fromBase64Any(toBase64(bytes))).toEqual(bytes);
    expect(fromBase64Any(toBase64Url(bytes))).toEqual(bytes);
    expect(toBase64Url(bytes)).not.toMatch(/[+/=]/);
  });

  it("refuse text that is not base64", () => {
    expect(fromBase64Any("a+b_c")).toBeNull(); // mixed alphabets
    expect(fromBase64Any("abcde")).toBeNull(); // impossible length
    expect(fromBase64Any("é")).toBeNull();
  });
});
