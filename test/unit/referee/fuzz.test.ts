import { describe, expect, it } from "vitest";
import type { Referee } from "../../../src/referee/referee";
import type { WriteInput } from "../../../src/referee/types";
import { scatterField } from "./fixtures";
import { honestStep, joinInput, lcg, makeReferee, ok, T0 } from "./helpers";

/** Odd values of every JSON type (and some that JSON cannot carry). */
function oddValue(rnd: (n: number) => number, depth = 0): unknown {
  const pool: Array<() => unknown> = [
    () => null,
    () => undefined,
    () => -1,
    () => 1.5,
    () => Number.NaN,
    () => Infinity,
    () => 2 ** 60,
    () => "",
    () => "x".repeat(rnd(400)),
    () => "m-a/1",
    () => true,
    () => [],
    () => {
      const out: unknown[] = [];
      for (let i = 0; i < rnd(4); i++) out.push(depth < 2 ? oddValue(rnd, depth + 1) : 0);
      return out;
    },
    () => ({}),
    () => [[rnd(300) - 50, rnd(3)]],
  ];
  return pool[rnd(pool.length)]();
}

/** Take a valid write and break one or two of its fields. */
function corrupt(valid: Record<string, unknown>, rnd: (n: number) => number): unknown {
  const out: Record<string, unknown> = { ...valid };
  const keys = Object.keys(out);
  for (let i = 0, n = 1 + rnd(2); i < n; i++) out[keys[rnd(keys.length)]] = oddValue(rnd);
  return out;
}

describe("fuzzing: no input throws, a refused one changes nothing", () => {
  it("thousands of corrupted writes and observations", () => {
    const field = scatterField();
    const ref: Referee = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    ok(ref, joinInput("m-b"));
    for (let i = 0; i < 4; i++) honestStep(ref, field, a);
    const rnd = lcg(99);
    const frontier = ref.frontier(a) as number[];
    const skeletons: Array<Record<string, unknown>> = [
      joinInput("m-c", "s") as unknown as Record<string, unknown>,
      { type: "reveal", machineId: "m-a", agent: a, expectedRevision: 0, tile: frontier[0], intent: "r" },
      { type: "commit", machineId: "m-a", agent: a, expectedRevision: 0, cells: [[field.tiles[frontier[0]].cellIds[0], 0]], intent: "c" },
      { type: "retract", machineId: "m-a", agent: a, expectedRevision: 0, cells: [field.tiles[frontier[0]].cellIds[0]], intent: "x" },
    ];
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      const skeleton = { ...skeletons[rnd(skeletons.length)], expectedRevision: ref.revision };
      const input = corrupt(skeleton, rnd);
      const digest = ref.stateDigest();
      const revision = ref.revision;
      const r = ref.apply(input as WriteInput, T0 + i);
      if (!r.ok) {
        refused++;
        expect(typeof r.error.message).toBe("string");
        expect(ref.stateDigest()).toBe(digest);
        expect(ref.revision).toBe(revision);
      } else if (r.event === null) {
        expect(ref.stateDigest()).toBe(digest);
      } else {
        expect(r.event.rev).toBe(revision + 1);
      }
      const q = { agent: oddValue(rnd), rect: rnd(2) ? oddValue(rnd) : undefined, full: rnd(3) ? undefined : oddValue(rnd) };
      const o = ref.observe(q as Parameters<Referee["observe"]>[0]);
      expect(typeof o.ok).toBe("boolean");
      expect(ref.stateDigest()).toBe(ref.stateDigest());
    }
    expect(refused).toBeGreaterThan(1000);
  });
});
