import { describe, expect, it } from "vitest";
import { digestSteps, runSteps, type DigestView } from "../../../src/referee/digest";
import { packInts, packSteps, STEP_ENTRIES, unpackInts } from "../../../src/referee/pack";
import { buildField } from "./fixtures";
import { joinInput, makeReferee, ok, T0 } from "./helpers";
import { Referee } from "../../../src/referee/referee";
import type { RefereeSnapshot } from "../../../src/referee/snapshot";

/** Run-length text as SPEC'd in pack.ts, written plainly: the reference for the stepped packer. */
function referencePack(values: ArrayLike<number>): string {
  const out: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j < values.length && values[j] === values[i]) j++;
    out.push(j - i === 1 ? values[i].toString(36) : `${values[i].toString(36)}*${(j - i).toString(36)}`);
    i = j;
  }
  return out.join(",");
}

describe("snapshot encoding in steps", () => {
  it("packs arrays longer than a step exactly as in one go, runs crossing step boundaries included", () => {
    const n = STEP_ENTRIES * 2 + 777;
    const values = new Int32Array(n);
    // Runs that straddle both step boundaries, single values right at them, negative values.
    for (let i = 0; i < n; i++) values[i] = i < STEP_ENTRIES - 5 ? 0 : i < STEP_ENTRIES + 9 ? 7 : i === 2 * STEP_ENTRIES - 1 ? -3 : i === 2 * STEP_ENTRIES ? 4 : i % 1000 < 3 ? i : -1;
    const steps = packSteps(values);
    let count = 0;
    let r = steps.next();
    while (!r.done) {
      count++;
      r = steps.next();
    }
    expect(count).toBe(3);
    expect(r.value).toBe(referencePack(values));
    expect(packInts(values)).toBe(r.value);
    expect(unpackInts(r.value)).toEqual(Array.from(values));
  });

  it("hashes every step of a long array: a change in any step changes the digest", () => {
    const n = STEP_ENTRIES * 3;
    const view = (cells: Int32Array): DigestView => ({
      status: "playing",
      revision: 1,
      grown: 0,
      closed: false,
      solution: new Uint8Array(4),
      tiles: [{ cellIds: [0, 1, 2, 3] }],
      tileCount: 1,
      boardArrays: [cells],
      agents: [],
      machines: [],
      groups: [],
    });
    const base = runSteps(digestSteps(view(new Int32Array(n))));
    const seen = new Set([base]);
    for (const at of [0, STEP_ENTRIES - 1, STEP_ENTRIES, 2 * STEP_ENTRIES + 5, n - 1]) {
      const cells = new Int32Array(n);
      cells[at] = 1;
      const d = runSteps(digestSteps(view(cells)));
      expect(seen.has(d), `change at ${at}`).toBe(false);
      seen.add(d);
    }
  });

  it("a field whose cell arrays span several steps snapshots in steps to the state it captured", () => {
    // G = 400: 160,000 cells, more than one step per cell array; a few tiles far apart.
    const field = buildField(400, [
      { x0: 0, y0: 0, w: 4, h: 4 },
      { x0: 3, y0: 0, w: 4, h: 4 },
      { x0: 390, y0: 390, w: 6, h: 4 },
      { x0: 200, y0: 330, w: 4, h: 6 },
    ]);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const reveal = (agent: string) => {
      const tile = (ref.frontier(agent) as number[])[0];
      ok(ref, { type: "reveal", machineId: agent.split("/")[0], agent, expectedRevision: ref.revision, tile, intent: "" });
      return tile;
    };
    const ta = reveal(a);
    const twin = Referee.restore({ gameId: "test-game", seed: "seed-1", field, rules: { guess: "accept", depth: 0, fog: false } }, JSON.parse(JSON.stringify(ref.snapshot())) as RefereeSnapshot);
    const taking = ref.snapshotInSteps();
    // While the steps run, b reveals and a commits its tile's cells (cells in later steps change).
    let r = taking.steps.next();
    let steps = 1;
    const cells = field.tiles[ta].cellIds.filter((c) => ref.cell(c)?.value === -1).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
    reveal(b);
    ok(ref, { type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells, intent: "" }, T0 + 5);
    while (!r.done) {
      r = taking.steps.next();
      steps++;
    }
    expect(steps).toBeGreaterThan(20);
    expect(r.value.revision).toBe(taking.revision);
    expect(JSON.stringify(r.value)).toBe(JSON.stringify(twin.snapshot()));
    expect(r.value.digest).toBe(twin.stateDigest());
    expect(r.value.digest).not.toBe(ref.stateDigest());
  });
});
