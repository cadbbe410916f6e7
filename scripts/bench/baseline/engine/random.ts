/**
 * Reproducible randomness for generation (SPEC §3 "Deterministic").
 *
 * PRNG: sfc32 exactly as in PractRand 0.94 (Chris Doty-Humphrey's "small fast counting" generator,
 * 32-bit variant): per step
 *     t = a + b + d;  d = d + 1;  a = b ^ (b >>> 9);  b = c + (c << 3);  c = rotl(c, 21) + t;  return t
 * with every operation modulo 2^32. The counter `d` is incremented *after* it is added into t.
 *
 * Seeding: the four state words (a, b, c, d) are the first 16 bytes of SHA-256(utf8(text)) read
 * as big-endian 32-bit words; then 12 outputs are discarded so that similar digests diverge.
 * A stream for a region is seeded from SHA-256(utf8(seed + "|" + label)).
 */

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Build from raw state words (tests and vectors); generation uses `rngFor`. */
  constructor(a: number, b: number, c: number, d: number, discard = 12) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    for (let i = 0; i < discard; i++) this.nextU32();
  }

  /** Next output as an unsigned 32-bit integer. */
  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) + t | 0;
    return t >>> 0;
  }

  /** Uniform integer in [0, n), 1 ≤ n ≤ 2^32, by rejection sampling (no modulo bias). */
  int(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) throw new RangeError(`Rng.int: bad bound ${n}`);
    // Largest multiple of n not above 2^32; draws at or above it are rejected.
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const x = this.nextU32();
      if (x < limit) return x % n;
    }
  }

  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability num/den (integers). */
  chance(num: number, den: number): boolean {
    return this.int(den) < num;
  }

  /** Pick one element uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Index drawn with integer weights (total must be ≥ 1). */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.int(total);
    for (let i = 0; i < weights.length; i++) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.length - 1;
  }

  /** In-place Fisher–Yates shuffle (Durstenfeld, from the end). */
  shuffle<T extends { length: number; [i: number]: unknown }>(items: T): T {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}

/** SHA-256 of a UTF-8 string through WebCrypto (Node, workerd and browsers alike). */
export async function sha256(text: string): Promise<Uint8Array> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest);
}

/** The four big-endian 32-bit words that seed sfc32 from a digest. */
export function seedWords(digest: Uint8Array): [number, number, number, number] {
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  return [view.getUint32(0, false), view.getUint32(4, false), view.getUint32(8, false), view.getUint32(12, false)];
}

/** The stream for the seed string itself. */
export async function rngFromSeed(seed: string): Promise<Rng> {
  const [a, b, c, d] = seedWords(await sha256(seed));
  return new Rng(a, b, c, d);
}

/** An independent stream for one region of generation: SHA-256(seed + "|" + label). */
export async function rngFor(seed: string, label: string): Promise<Rng> {
  return rngFromSeed(`${seed}|${label}`);
}
