import { describe, expect, it } from "vitest";
import { createFieldGenerator, generateField, generateRing } from "../../../src/engine/generate/generator";
import { fieldDigest } from "../../../src/engine/field-digest";
import type { Field } from "../../../src/engine/types";
import { verifyField } from "./generate-helpers";

// A 2×2 cluster of 40-cell chunks centred on a 200 canvas: ring 1 fits, ring 2 does not.
const params = { kind: "field" as const, seed: "grow", chunks: 2, chunk_g: 40, G: 200, grow: true };

describe("growing fields", () => {
  it("centres the initial chunks on the canvas", async () => {
    const field = await generateField(params);
    expect(field.G).toBe(200);
    const xs = field.tiles.map((t) => t.x0);
    const ys = field.tiles.map((t) => t.y0);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(60);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...field.tiles.map((t) => t.x0 + t.w))).toBeLessThanOrEqual(140);
    verifyField(field);
  });

  it("adds a deterministic ring that keeps every existing cell and fits against it", async () => {
    const base = await generateField(params);
    const ring = await generateRing(params.seed, params, 1, base);
    expect(ring.room).toBe(true);
    expect(ring.tiles.length).toBeGreaterThan(20);
    // Ids continue after the existing tiles.
    expect(ring.tiles.map((t) => t.id)).toEqual(ring.tiles.map((_, i) => base.tiles.length + i));
    // No existing cell changes.
    for (const t of base.tiles) for (const c of t.cellIds) expect(ring.solution[c]).toBe(base.solution[c]);
    // Some ring tiles overlap the existing cluster (the ring is connected to it).
    const oldCells = new Set(base.tiles.flatMap((t) => t.cellIds));
    expect(ring.tiles.some((t) => t.cellIds.some((c) => oldCells.has(c)))).toBe(true);
    const grown: Field = { G: base.G, tiles: [...base.tiles, ...ring.tiles], solution: ring.solution };
    // Tiles that existed before the ring got their givens without the ring's neighbours.
    verifyField(grown, { pinnedFrom: base.tiles.length });
    // Regenerating the ring from the same inputs gives the same tiles and values.
    const again = await generateRing(params.seed, params, 1, await generateField(params));
    const digest = (f: Field): Promise<string> => fieldDigest(f);
    expect(await digest({ ...grown, tiles: [...base.tiles, ...again.tiles], solution: again.solution })).toBe(await digest(grown));
  });

  it("pins the digest of a grown ring and of a scatter field of 60 (regression pin)", async () => {
    // Speed-ups of the generator must not change a bit of its output: rings (stitched seams,
    // givens across chunk borders) and a larger scatter field exercise every path of the
    // givens reduction (batches, single removals, pin sets, climb-back) and of filling (repair).
    const base = await generateField(params);
    const ring = await generateRing(params.seed, params, 1, base);
    expect(await fieldDigest({ G: base.G, tiles: [...base.tiles, ...ring.tiles], solution: ring.solution })).toBe(
      "1fe0f547b8ba4ba3372f553989d677ddc4f7e3fe067de30850ccdefbacfd457b",
    );
    expect(await fieldDigest(await generateField({ kind: "scatter", seed: "pin-wide", G: 60 }))).toBe(
      "2e50f7bf9a4b01644cb9e6c9934ca03bc1b42f82e4e14d00bf03d663e2355911",
    );
  });

  it("reports no room once a ring no longer fits on the canvas", async () => {
    const base = await generateField(params);
    const ring = await generateRing(params.seed, params, 2, base);
    expect(ring.room).toBe(false);
    expect(ring.tiles).toEqual([]);
  });

  it("steps through the initial generation with monotone progress", async () => {
    const gen = createFieldGenerator(params);
    let last = -1;
    while (!(await gen.step())) {
      const { done, total } = gen.progress();
      expect(done).toBeGreaterThanOrEqual(last);
      expect(total).toBe(6 * 100); // four chunks, the seams and the givens
      last = done;
    }
    expect(gen.progress().done).toBe(gen.progress().total);
    expect(() => createFieldGenerator({ ...params, G: 100 })).not.toThrow(); // G < 200: canvas of 1000
  });
});
