import { describe, expect, it } from "vitest";
import { createFieldGenerator, generateField } from "../../../src/engine/generate/generator";
import { fieldDigest } from "../../../src/engine/field-digest";
import { reachFrom } from "../../../src/engine/playability";
import { verifyField } from "./generate-helpers";
import { coverCounts } from "./field-checks";

describe("scatter fields", () => {
  for (const seed of ["alpha", "beta", "gamma", "delta"]) {
    it(`are correct for seed ${seed} (G=40)`, async () => {
      const field = await generateField({ kind: "scatter", seed, G: 40 });
      expect(field.tiles.length).toBeGreaterThan(8);
      expect(verifyField(field, { bruteForceUpTo: 48 })).toBeGreaterThan(0);
      // Holes are real: some cells are covered by no tile.
      expect(coverCounts(field).some((c) => c === 0)).toBe(true);
    });
  }

  it("are correct over many small boards (16 seeds, G 16..31)", async () => {
    let brute = 0;
    for (let i = 0; i < 16; i++) {
      const field = await generateField({ kind: "scatter", seed: `sweep-${i}`, G: 16 + i });
      brute += verifyField(field, { bruteForceUpTo: 40 });
    }
    expect(brute).toBeGreaterThan(10);
  });

  it("gives at least two sharing tiles on the smallest boards (G 6..12)", async () => {
    for (let G = 6; G <= 12; G++) {
      for (const seed of ["tiny-a", "tiny-b"]) {
        const field = await generateField({ kind: "scatter", seed, G });
        expect(field.tiles.length, `G=${G} ${seed}`).toBeGreaterThanOrEqual(2);
        verifyField(field);
      }
    }
  });
});

describe("shape mix (SPEC §3) on a scatter field of side 60", () => {
  it("has all m classes, boxes 4..≥16, non-rectangular shapes and ≥ 75 % coverage", async () => {
    const field = await generateField({ kind: "scatter", seed: "mix", G: 60 });
    const cells = field.tiles.map((t) => t.cellIds.length);
    expect(cells.some((n) => n <= 64)).toBe(true);
    expect(cells.some((n) => n > 64 && n <= 196)).toBe(true);
    expect(cells.some((n) => n > 196)).toBe(true);
    const sides = field.tiles.flatMap((t) => [t.w, t.h]);
    expect(Math.min(...sides)).toBe(4);
    expect(Math.max(...sides)).toBeGreaterThanOrEqual(16);
    const nonRect = field.tiles.filter((t) => t.cellIds.length !== t.w * t.h).length;
    expect(nonRect / field.tiles.length).toBeGreaterThan(0.25);
    const covered = coverCounts(field).filter((c) => c > 0).length;
    expect(covered / (60 * 60)).toBeGreaterThanOrEqual(0.75);
    verifyField(field);
  });
});

describe("grid fields", () => {
  for (const seed of ["one", "two", "three"]) {
    it(`make the classic 2×2 of 14×14 (seed ${seed})`, async () => {
      const field = await generateField({ kind: "grid", seed, n: 14, G: 27 });
      expect(field.tiles.map((t) => [t.x0, t.y0, t.w, t.h])).toEqual([
        [0, 0, 14, 14],
        [13, 0, 14, 14],
        [0, 13, 14, 14],
        [13, 13, 14, 14],
      ]);
      verifyField(field);
    });
  }

  it("make a 3×3 of 6×6 squares (G=16)", async () => {
    const field = await generateField({ kind: "grid", seed: "small", n: 6, G: 16 });
    expect(field.tiles.length).toBe(9);
    expect(verifyField(field, { bruteForceUpTo: 36 })).toBe(9);
  });
});

describe("chunked fields", () => {
  it("stitch independent chunks with seam tiles (2×2 chunks of 40)", async () => {
    const field = await generateField({ kind: "field", seed: "chunky", chunks: 2, chunk_g: 40 });
    expect(field.G).toBe(80);
    verifyField(field);
    // Seam tiles cross the chunk borders.
    const crossing = field.tiles.filter((t) => (t.x0 < 40 && t.x0 + t.w > 40) || (t.y0 < 40 && t.y0 + t.h > 40));
    expect(crossing.length).toBeGreaterThan(3);
    // Stitched seams carry play across the borders: from the first tile, the reach covers more
    // than two chunks' worth of cells (each chunk holds about a quarter of them).
    expect(reachFrom(field, 0).share).toBeGreaterThan(0.6);
  });
});

describe("shape mix per chunk of side 60", () => {
  it("holds in every chunk of a 2×2 field of 60-cell chunks", async () => {
    const field = await generateField({ kind: "field", seed: "chunk-mix", chunks: 2, chunk_g: 60 });
    for (const [cx, cy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const inside = field.tiles.filter(
        (t) => t.x0 >= cx * 60 && t.y0 >= cy * 60 && t.x0 + t.w <= cx * 60 + 60 && t.y0 + t.h <= cy * 60 + 60,
      );
      const cells = inside.map((t) => t.cellIds.length);
      expect(cells.some((n) => n <= 64) && cells.some((n) => n > 64 && n <= 196) && cells.some((n) => n > 196)).toBe(true);
      const sides = inside.flatMap((t) => [t.w, t.h]);
      expect(Math.min(...sides)).toBe(4);
      expect(Math.max(...sides)).toBeGreaterThanOrEqual(16);
      expect(inside.filter((t) => t.cellIds.length !== t.w * t.h).length / inside.length).toBeGreaterThan(0.25);
    }
    const covered = coverCounts(field).filter((c) => c > 0).length;
    expect(covered / (120 * 120)).toBeGreaterThanOrEqual(0.75);
  });
});

describe("determinism", () => {
  it("gives byte-identical fields for the same seed, whatever the stepping", async () => {
    const a = await generateField({ kind: "scatter", seed: "same", G: 30 });
    const gen = createFieldGenerator({ kind: "scatter", seed: "same", G: 30 });
    let steps = 0;
    while (!(await gen.step())) {
      steps++;
      const { done, total } = gen.progress();
      expect(done).toBeLessThanOrEqual(total);
    }
    expect(steps).toBeGreaterThan(2);
    const b = gen.result();
    expect(await fieldDigest(b)).toBe(await fieldDigest(a));
    expect(Buffer.from(b.solution).equals(Buffer.from(a.solution))).toBe(true);
  });

  it("gives different fields for different seeds", async () => {
    const a = await generateField({ kind: "scatter", seed: "one", G: 30 });
    const b = await generateField({ kind: "scatter", seed: "two", G: 30 });
    expect(await fieldDigest(a)).not.toBe(await fieldDigest(b));
  });

  it("pins the digest of reference fields (regression pin)", async () => {
    const digests = [
      await fieldDigest(await generateField({ kind: "scatter", seed: "pin", G: 30 })),
      await fieldDigest(await generateField({ kind: "grid", seed: "pin", n: 6, G: 11 })),
      await fieldDigest(await generateField({ kind: "field", seed: "pin", chunks: 2, chunk_g: 40 })),
    ];
    expect(digests).toEqual([
      "7bcd153253d3596db9002912675b707dc8fcd8ec98e5ae10d07af01327dd969e",
      "b9cac2fbb5e34b522dacac87b151ffc5b91b0a8cf79cf4a9af76cb6e386d4d30",
      "3d00e652e01d61eb6c9e99ab10b266d2b693fba21273b693cf2d3786211f1ff9",
    ]);
  });
});

describe("parameters", () => {
  it("validates ranges with clear RangeErrors", async () => {
    await expect(generateField({ kind: "scatter", seed: "x", G: 5 })).rejects.toThrow(/G must be an integer in 6\.\.1000/);
    await expect(generateField({ kind: "grid", seed: "x", n: 7 })).rejects.toThrow(/n must be even/);
    await expect(generateField({ kind: "grid", seed: "x", n: 14, G: 30 })).rejects.toThrow(/multiple of n-1/);
    await expect(generateField({ kind: "grid", seed: "x", n: 14, G: 14 })).rejects.toThrow(/at least 2×2 squares/);
    await expect(generateField({ kind: "field", seed: "x", chunks: 13 })).rejects.toThrow(/chunks must be an integer in 2\.\.12/);
    await expect(generateField({ kind: "field", seed: "x", chunk_g: 30 })).rejects.toThrow(RangeError);
    await expect(generateField({ kind: "scatter", seed: "x", grow: true })).rejects.toThrow(/grow/);
  });
});

describe("playability measure", () => {
  it("reaches beyond the seed tile on a scatter field", async () => {
    const field = await generateField({ kind: "scatter", seed: "reach", G: 40 });
    const reach = reachFrom(field, 0);
    expect(reach.share).toBeGreaterThan(0);
    expect(reach.share).toBeLessThanOrEqual(1);
    expect(reach.solvedTiles).toBeGreaterThan(1);
  });
});
