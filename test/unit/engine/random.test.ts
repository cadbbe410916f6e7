import { describe, expect, it } from "vitest";
import { Rng, rngFor, rngFromSeed, seedWords, sha256 } from "../../../src/engine/random";

/** sfc32 written independently with BigInt arithmetic (the PractRand definition). */
function referenceSfc32(a: bigint, b: bigint, c: bigint, d: bigint, n: number, discard: number): number[] {
  const M = 0xffffffffn;
  const out: number[] = [];
  for (let i = 0; i < discard + n; i++) {
    const t = (a + b + d) & M;
    d = (d + 1n) & M;
    a = b ^ (b >> 9n);
    b = (c + (c << 3n)) & M;
    c = (((c << 21n) | (c >> 11n)) & M) + t;
    c &= M;
    if (i >= discard) out.push(Number(t));
  }
  return out;
}

describe("sfc32", () => {
  it("matches an independent BigInt implementation", () => {
    const states: [number, number, number, number][] = [
      [0, 0, 0, 0],
      [1, 2, 3, 4],
      [0xdeadbeef, 0xcafebabe, 0x8badf00d, 0xffffffff],
    ];
    for (const s of states) {
      const rng = new Rng(...s, 0);
      const got = Array.from({ length: 40 }, () => rng.nextU32());
      expect(got).toEqual(referenceSfc32(BigInt(s[0]), BigInt(s[1]), BigInt(s[2]), BigInt(s[3]), 40, 0));
    }
  });

  it("ships test vectors (state words, 12 outputs discarded)", () => {
    const rng = new Rng(1, 2, 3, 4);
    expect(Array.from({ length: 4 }, () => rng.nextU32())).toEqual(referenceSfc32(1n, 2n, 3n, 4n, 4, 12));
    const zero = new Rng(0, 0, 0, 0, 0);
    // From the all-zero state only the counter moves things at first: 0, 1, 2, then 0 + 9 + 3.
    expect([zero.nextU32(), zero.nextU32(), zero.nextU32(), zero.nextU32()]).toEqual([0, 1, 2, 12]);
  });

  it("pins the stream of the seed string \"mosaic\"", async () => {
    const rng = await rngFromSeed("mosaic");
    expect([rng.nextU32(), rng.nextU32(), rng.nextU32(), rng.nextU32()]).toEqual([
      0xccd61c19, 0xa02e9143, 0x51e439e8, 0xe3fa1b06,
    ]);
  });

  it("seeds from SHA-256 of the seed string, big-endian words", async () => {
    const digest = await sha256("abc");
    // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 …
    expect(seedWords(digest)).toEqual([0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223]);
    const rng = await rngFromSeed("abc");
    const expected = referenceSfc32(0xba7816bfn, 0x8f01cfean, 0x414140den, 0x5dae2223n, 3, 12);
    expect([rng.nextU32(), rng.nextU32(), rng.nextU32()]).toEqual(expected);
  });

  it("gives independent, reproducible streams per region label", async () => {
    const a1 = await rngFor("seed", "chunk/0,0");
    const a2 = await rngFor("seed", "chunk/0,0");
    const b = await rngFor("seed", "chunk/1,0");
    const xs = Array.from({ length: 8 }, () => a1.nextU32());
    expect(Array.from({ length: 8 }, () => a2.nextU32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => b.nextU32())).not.toEqual(xs);
    const viaSeed = await rngFromSeed("seed|chunk/0,0");
    expect(viaSeed.nextU32()).toBe(xs[0]);
  });
});

describe("bounded draws and shuffles", () => {
  it("draws bounded integers uniformly without modulo bias", () => {
    const rng = new Rng(7, 8, 9, 10);
    const counts = new Array(6).fill(0);
    for (let i = 0; i < 60000; i++) counts[rng.int(6)]++;
    for (const c of counts) expect(Math.abs(c - 10000)).toBeLessThan(500);
    // A bound just above 2^31 rejects about half the raw draws; results stay below it.
    const big = 0x80000001;
    for (let i = 0; i < 1000; i++) expect(rng.int(big)).toBeLessThan(big);
    expect(() => rng.int(0)).toThrow(RangeError);
    expect(() => rng.int(2.5)).toThrow(RangeError);
  });

  it("shuffles into a permutation, deterministically", () => {
    const a = new Rng(1, 1, 1, 1).shuffle(Array.from({ length: 50 }, (_, i) => i));
    const b = new Rng(1, 1, 1, 1).shuffle(Array.from({ length: 50 }, (_, i) => i));
    expect(a).toEqual(b);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(a).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
