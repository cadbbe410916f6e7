/**
 * The engine's speed-ups change no generated bit (issue 31): the current generator against the
 * frozen pre-optimisation reference (scripts/bench/baseline), field digest for field digest, over
 * many seeds of every kind, grown rings included. The seeds and sizes are drawn from a fixed
 * stream, so the cases are many and varied but the same on every run.
 */
import { describe, expect, it } from "vitest";
import { generateField, generateRing, type FieldParams } from "../../../src/engine";
import { fieldDigest } from "../../../src/engine/field-digest";
import { rngFor, type Rng } from "../../../src/engine/random";
import type { Field } from "../../../src/engine/types";
import { loadReference } from "../../../scripts/bench/baseline";

const hex = (rng: Rng): string => rng.nextU32().toString(16).padStart(8, "0");

/** Both engines' digests of a field and of each ring grown on it (`rings` of them). */
async function both(params: FieldParams, rings = 0): Promise<{ current: string[]; reference: string[] }> {
  const run = async (engine: { generateField: typeof generateField; generateRing: typeof generateRing }): Promise<string[]> => {
    let field: Field = await engine.generateField(params);
    const out = [await fieldDigest(field)];
    for (let k = 1; k <= rings; k++) {
      const ring = await engine.generateRing(params.seed, params, k, field);
      field = { G: field.G, tiles: [...field.tiles, ...ring.tiles], solution: ring.solution };
      out.push(`${ring.room}:${await fieldDigest(field)}`);
    }
    return out;
  };
  return { current: await run({ generateField, generateRing }), reference: await run(await loadReference()) };
}

describe("faster generation, same bits", () => {
  it("scatter fields of random sizes and seeds", async () => {
    const rng = await rngFor("bit-identity", "scatter");
    for (let i = 0; i < 24; i++) {
      const params: FieldParams = { kind: "scatter", seed: `s-${hex(rng)}`, G: 6 + rng.int(i < 20 ? 40 : 60) };
      const { current, reference: ref } = await both(params);
      expect(current, JSON.stringify(params)).toEqual(ref);
    }
  }, 240_000);

  it("a field where climb-back's count of the current alternatives ends on its node budget in one branching order only", async () => {
    // This count stops on its limit or on its budget depending on the order solutions are met,
    // so it must keep the first engine's propagation order: with the first-in-first-out queue
    // this field's digest differs from the reference's (found by search; the random cases above
    // meet such a search too rarely to notice).
    const params: FieldParams = { kind: "scatter", seed: "p-1359", G: 79 };
    const { current, reference: ref } = await both(params);
    expect(current, JSON.stringify(params)).toEqual(ref);
  }, 120_000);

  it("grids of every square size", async () => {
    const rng = await rngFor("bit-identity", "grid");
    for (const n of [6, 8, 10, 12, 14, 16]) {
      for (let i = 0; i < 2; i++) {
        const squares = 2 + rng.int(n <= 8 ? 3 : 1);
        const params: FieldParams = { kind: "grid", seed: `g-${hex(rng)}`, n, G: squares * (n - 1) + 1 };
        const { current, reference: ref } = await both(params);
        expect(current, JSON.stringify(params)).toEqual(ref);
      }
    }
  }, 240_000);

  it("chunked fields, and growing fields with their rings", async () => {
    const rng = await rngFor("bit-identity", "field");
    const cases: Array<[FieldParams, number]> = [
      [{ kind: "field", seed: `f-${hex(rng)}`, chunks: 2, chunk_g: 40 }, 0],
      // A 2×2 cluster of 40 on a 200 canvas: ring 1 fits, ring 2 reports no room.
      [{ kind: "field", seed: `r-${hex(rng)}`, chunks: 2, chunk_g: 40, G: 200, grow: true }, 2],
      [{ kind: "field", seed: `r-${hex(rng)}`, chunks: 2, chunk_g: 40, G: 200, grow: true }, 1],
    ];
    for (const [params, rings] of cases) {
      const { current, reference: ref } = await both(params, rings);
      expect(current, JSON.stringify(params)).toEqual(ref);
    }
  }, 600_000);
});
