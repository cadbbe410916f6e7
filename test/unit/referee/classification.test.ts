import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import type { Referee } from "../../../src/referee/referee";
import { gridField, scatterField } from "./fixtures";
import { commit, joinInput, lcg, makeReferee, ok, reveal } from "./helpers";
import { ReferenceForcing } from "./reference-forcing";

function snapshot(ref: Referee, field: Field): { known: Int8Array; revealed: Set<number> } {
  const known = new Int8Array(field.G * field.G).fill(-1);
  const k = ref.knownCells();
  k.ids.forEach((c, i) => (known[c] = k.values[i] === "1" ? 1 : 0));
  const revealed = new Set<number>();
  for (const t of field.tiles) if (ref.tileStatus(t.id)?.status !== "hidden") revealed.add(t.id);
  return { known, revealed };
}

/**
 * Play in random batches (true values in random order, now and then a wrong one) and check every
 * verdict against the reference evaluated on the known cells just before that cell.
 */
function checkClassification(
  field: Field,
  depth: 0 | 1 | 2,
  guess: "accept" | "reject",
  seed: number,
  wrongOneIn = 25,
): { forced: number; guess: number } {
  const ref = makeReferee(field, { depth, guess });
  const reference = new ReferenceForcing(field);
  const rnd = lcg(seed);
  const agent = ok(ref, joinInput("m-class")).agent as string;
  const counts = { forced: 0, guess: 0 };
  for (let step = 0; step < 400 && ref.status === "playing"; step++) {
    const frontier = ref.frontier(agent) ?? [];
    const hidden = frontier.filter((t) => ref.tileStatus(t)?.status === "hidden");
    const open = frontier.filter((t) => ref.tileStatus(t)?.status === "revealed");
    if (hidden.length > 0 && (open.length === 0 || rnd(3) === 0)) {
      const r = reveal(ref, agent, hidden[rnd(hidden.length)]);
      expect(r.ok).toBe(true);
      continue;
    }
    if (open.length === 0) break;
    const tile = open[rnd(open.length)];
    const unknown = field.tiles[tile].cellIds.filter((c) => ref.cell(c)?.value === -1);
    const batch: Array<[number, 0 | 1]> = [];
    const size = 1 + rnd(Math.min(8, unknown.length));
    for (let i = 0; i < size; i++) {
      const c = unknown.splice(rnd(unknown.length), 1)[0];
      const wrong = rnd(wrongOneIn) === 0;
      batch.push([c, (wrong ? 1 - field.solution[c] : field.solution[c]) as 0 | 1]);
    }
    const { known, revealed } = snapshot(ref, field);
    const r = commit(ref, agent, batch);
    if (!r.ok) throw new Error(r.error.message);
    const answer = r.answer as {
      accepted: Array<{ id: number; v: 0 | 1; class: string; rule?: string }>;
      rejected: Array<{ id: number; reason: string; v: number }>;
      unevaluated: number[];
    };
    expect(answer.unevaluated).toEqual([]);
    const accepted = new Map(answer.accepted.map((a) => [a.id, a]));
    const rejected = new Map(answer.rejected.map((a) => [a.id, a]));
    for (const [c, v] of batch) {
      const expected = v === field.solution[c] ? reference.forced(revealed, known, c, depth) : null;
      const isForced = expected !== null && expected.value === v;
      const a = accepted.get(c);
      const rj = rejected.get(c);
      if (v !== field.solution[c]) {
        expect(rj?.reason, `cell ${c} wrong`).toBe("wrong");
        continue;
      }
      if (guess === "reject" && !isForced) {
        expect(rj?.reason, `cell ${c} should be refused as a guess: ${JSON.stringify(r.answer)}`).toBe("guess");
        continue;
      }
      expect(a, `cell ${c} should be accepted`).toBeDefined();
      expect(a?.class, `cell ${c} class (known before: ${known.filter((x) => x !== -1).length})`).toBe(isForced ? "forced" : "guess");
      if (isForced) {
        expect(a?.rule, `cell ${c} rule`).toBe(expected?.rule);
        counts.forced++;
      } else {
        expect(a?.rule).toBeUndefined();
        counts.guess++;
      }
      known[c] = v;
    }
  }
  return counts;
}

describe("forced and guess, cell by cell against a from-scratch evaluation (SPEC §4.5)", () => {
  it("depth 0 on a grid of 6×6 tiles", () => {
    const counts = checkClassification(gridField(6, 3, { givenEvery: 4 }), 0, "accept", 11);
    expect(counts.forced).toBeGreaterThan(20);
    expect(counts.guess).toBeGreaterThan(5);
  });

  it("depth 0 on the scatter field, several orders", () => {
    for (const seed of [1, 2, 3]) {
      const counts = checkClassification(scatterField({ givenEvery: 5 }), 0, "accept", seed);
      expect(counts.forced + counts.guess).toBeGreaterThan(50);
    }
  });

  it("depth 1 on the scatter field", () => {
    const counts = checkClassification(scatterField({ givenEvery: 5 }), 1, "accept", 7);
    expect(counts.forced).toBeGreaterThan(10);
  });

  it("depth 2 on a small grid", () => {
    // 3×3 tiles of 4×4: the 2×2 grid forced only 31 cells.
    const counts = checkClassification(gridField(4, 3, { givenEvery: 5 }), 2, "accept", 5);
    expect(counts.forced).toBeGreaterThan(50);
  });

  it("guess: reject refuses exactly the correct cells that are not forced", () => {
    const counts = checkClassification(gridField(6, 2, { givenEvery: 2 }), 0, "reject", 4, 1_000_000);
    expect(counts.guess).toBe(0);
    expect(counts.forced).toBeGreaterThan(5);
  });
});
