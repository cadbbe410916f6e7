import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/engine/canonical-json";
import {
  bytesToHex,
  chainEventHash,
  hashKeyCommit,
  hexToBytes,
  hmacSha256Hex,
  seedCommit,
  sha256Hex,
  tileEncoding,
  tileGivensString,
  tileHash,
  tileSolutionString,
} from "../../../src/engine/commitments";
import type { Tile } from "../../../src/engine/types";

/** Independent computations with node:crypto, to check the WebCrypto implementation against. */
const nodeSha = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");
const nodeHmac = (key: Uint8Array, data: string): string => createHmac("sha256", key).update(data, "utf8").digest("hex");

describe("published vectors", () => {
  it("SHA-256('abc') (FIPS 180-2)", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("SHA-256('') (FIPS 180-2)", async () => {
    expect(await sha256Hex(new Uint8Array())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("HMAC-SHA256, RFC 4231 test case 2", async () => {
    const key = new TextEncoder().encode("Jefe");
    expect(await hmacSha256Hex(key, "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("HMAC-SHA256, RFC 4231 test case 1 (binary key)", async () => {
    const key = new Uint8Array(20).fill(0x0b);
    expect(await hmacSha256Hex(key, "Hi There")).toBe("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  });
});

describe("hex", () => {
  it("round-trips bytes, lower-case out, either case in", () => {
    const bytes = Uint8Array.from([0, 1, 15, 16, 127, 128, 254, 255]);
    expect(bytesToHex(bytes)).toBe("00010f107f80feff");
    expect(hexToBytes("00010F107f80FEff")).toEqual(bytes);
    expect(bytesToHex(bytes.buffer)).toBe("00010f107f80feff");
  });

  it("refuses odd length and non-hex digits", () => {
    expect(() => hexToBytes("abc")).toThrow(/hex/);
    expect(() => hexToBytes("zz")).toThrow(/hex/);
    expect(() => hexToBytes("0x00")).toThrow(/hex/);
  });
});

describe("commitments (SPEC §9) agree with node:crypto", () => {
  const daySeed = "3f".repeat(32);
  const dayKey = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 255);

  it("seed_commit", async () => {
    expect(await seedCommit(daySeed)).toBe(nodeSha(`mosaic-day-seed-v1|${daySeed}`));
    expect(await seedCommit(daySeed)).not.toBe(await seedCommit("40".repeat(32)));
  });

  it("hash_key_commit hashes the raw key bytes, not their hex", async () => {
    expect(await hashKeyCommit(dayKey)).toBe(nodeSha(dayKey));
    expect(await hashKeyCommit(dayKey)).not.toBe(nodeSha(bytesToHex(dayKey)));
  });

  it("tile hash is the HMAC of the encoding's UTF-8 under the day key", async () => {
    const encoding = "mosaic-tile-v1|day-2026-11-29|7|1,2,4,4|0,0,4,2;0,2,2,2|010110100110|100000010001";
    expect(await tileHash(dayKey, encoding)).toBe(nodeHmac(dayKey, encoding));
    const other = Uint8Array.from(dayKey);
    other[0] ^= 1;
    expect(await tileHash(other, encoding)).not.toBe(await tileHash(dayKey, encoding));
  });

  it("event chain hash = SHA-256(prev | canonical JSON)", async () => {
    const prev = await seedCommit(daySeed);
    const event = { type: "commit", rev: 3, intent: "héllo ✓ — fill row 2", agent: "m1/s1", cells: [[12, 1], [13, 0]], ok: true, note: null };
    // Written out by hand: keys sorted, no whitespace, non-ASCII kept as UTF-8.
    const canonical = '{"agent":"m1/s1","cells":[[12,1],[13,0]],"intent":"héllo ✓ — fill row 2","note":null,"ok":true,"rev":3,"type":"commit"}';
    expect(canonicalJson(event)).toBe(canonical);
    expect(await chainEventHash(prev, event)).toBe(nodeSha(Buffer.from(`${prev}|${canonical}`, "utf8")));
    // Key order of the input does not matter; any edit does.
    const reordered = { ok: true, cells: [[12, 1], [13, 0]], note: null, agent: "m1/s1", rev: 3, intent: event.intent, type: "commit" };
    expect(await chainEventHash(prev, reordered)).toBe(await chainEventHash(prev, event));
    expect(await chainEventHash(prev, { ...event, rev: 4 })).not.toBe(await chainEventHash(prev, event));
  });

  it("refuses an event that still carries its hash", async () => {
    expect(() => chainEventHash("00", { rev: 1, hash: "ab" })).toThrow(/hash/);
  });
});

describe("canonicalJson", () => {
  it("sorts keys by UTF-16 code units at every depth, without whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" }, B: true, é: false, "10": 0, "9": 0 })).toBe(
      '{"10":0,"9":0,"B":true,"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1,"é":false}',
    );
  });

  it("writes strings as JSON does (escapes, lone surrogates)", () => {
    expect(canonicalJson(['a"b\\c\n\t', "\u0001", "\ud800", "😀"])).toBe('["a\\"b\\\\c\\n\\t","\\u0001","\\ud800","😀"]');
  });

  it("integers only; -0 is 0", () => {
    expect(canonicalJson([0, -0, -7, 2 ** 53 - 1])).toBe("[0,0,-7,9007199254740991]");
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53)]) {
      expect(() => canonicalJson({ x: [bad] })).toThrow(/safe integer/);
    }
  });

  it("omits undefined properties, refuses what is not JSON", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(() => canonicalJson([undefined])).toThrow(/undefined/);
    expect(() => canonicalJson({ d: new Date(0) })).toThrow(/plain object/);
    expect(() => canonicalJson({ m: new Map() })).toThrow(/plain object/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
    expect(canonicalJson(Object.assign(Object.create(null) as object, { k: "v" }))).toBe('{"k":"v"}');
  });

  it("names where a refused value sits", () => {
    expect(() => canonicalJson({ a: [{ b: 1 }, { c: 0.5 }] })).toThrow("canonical JSON: $.a[1].c is 0.5, not a safe integer");
    expect(() => canonicalJson([1, [undefined]])).toThrow("canonical JSON: $[1][0] is undefined");
  });

  it("equals a plain sort-and-stringify writer on random nested values", () => {
    // The reference: JSON.stringify of a copy whose keys were inserted in sorted order (no
    // integer-like keys here, which JavaScript would enumerate first whatever the insertion order).
    const sortedCopy = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sortedCopy)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedCopy((v as Record<string, unknown>)[k])]))
          : v;
    let state = 12345;
    const next = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    const keys = ["id", "v", "class", "rule", "agent", "Zeta", "é", "a_b", "aa", "a", "ß", "k1", "k10", "k9", "type", "rev", "x", "y", "z", "w"];
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? next(4) : next(6);
      if (kind === 0) return next(2) === 0;
      if (kind === 1) return next(1_000_000) - 500_000;
      if (kind === 2) return ["", "x", 'q"\\n', "\u2028é😀"][next(4)];
      if (kind === 3) return null;
      if (kind === 4) return Array.from({ length: next(5) }, () => value(depth + 1));
      const record: Record<string, unknown> = {};
      for (let i = next(16); i > 0; i--) record[keys[next(keys.length)]] = value(depth + 1);
      return record;
    };
    for (let i = 0; i < 500; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(JSON.stringify(sortedCopy(v)));
    }
  });
});

describe("tile encoding mosaic-tile-v1", () => {
  // G = 6; an L at (1, 2): two full rows of 4, then two rows of 2 on the left.
  //   box rows:  y=2: x1..4   y=3: x1..4   y=4: x1..2   y=5: x1..2
  const G = 6;
  const tile: Tile = {
    id: 7,
    x0: 1,
    y0: 2,
    w: 4,
    h: 4,
    rects: [[0, 2, 2, 2], [0, 0, 4, 2]], // deliberately not in row order: the tile's own order is kept
    cellIds: [13, 14, 15, 16, 19, 20, 21, 22, 25, 26, 31, 32],
    m: 2,
    givens: [32, 13, 22],
  };
  const solution = new Uint8Array(G * G);
  const values: Record<number, number> = { 13: 0, 14: 1, 15: 0, 16: 1, 19: 1, 20: 0, 21: 1, 22: 0, 25: 1, 26: 0, 31: 0, 32: 1 };
  for (const [c, v] of Object.entries(values)) solution[Number(c)] = v;
  solution[17] = 1; // outside the tile: must not appear

  it("solution and givens strings are box row-major, outside cells skipped", () => {
    expect(tileSolutionString(tile, solution, G)).toBe("010110101001");
    expect(tileGivensString(tile, G)).toBe("100000010001");
  });

  it("the whole encoding", () => {
    expect(tileEncoding("day-2026-11-29", tile, solution, G)).toBe(
      "mosaic-tile-v1|day-2026-11-29|7|1,2,4,4|0,2,2,2;0,0,4,2|010110101001|100000010001",
    );
  });

  it("refuses givens outside the tile and a game id with the separator", () => {
    expect(() => tileGivensString({ ...tile, givens: [0] }, G)).toThrow(/not a cell/);
    expect(() => tileEncoding("a|b", tile, solution, G)).toThrow(/contains/);
  });

  it("hash of the encoding changes with any flipped solution bit", async () => {
    const key = new Uint8Array(32).fill(9);
    const base = await tileHash(key, tileEncoding("g", tile, solution, G));
    for (const c of tile.cellIds) {
      const flipped = Uint8Array.from(solution);
      flipped[c] ^= 1;
      expect(await tileHash(key, tileEncoding("g", tile, flipped, G))).not.toBe(base);
    }
  });
});
