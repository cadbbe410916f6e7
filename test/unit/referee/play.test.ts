import { describe, expect, it } from "vitest";
import { chainField, gridField, scatterField } from "./fixtures";
import { joinInput, makeReferee, ok, playOut } from "./helpers";
import type { Field } from "../../../src/engine/types";

function totalCredit(field: Field): number {
  return field.tiles.reduce((s, t) => s + t.cellIds.length, 0);
}

describe("scripted play to completion", () => {
  for (const [name, build] of [
    ["grid 4×4 tiles, 3×3", () => gridField(4, 3)],
    ["grid 6×6 tiles, 3×3", () => gridField(6, 3, { givenEvery: 4 })],
    ["scatter with L, plus and holes", () => scatterField()],
    ["chain of 8", () => chainField(4, 8)],
  ] as const) {
    it(`${name}: one agent solves every tile and earns every tile's cells`, () => {
      const field = build();
      const ref = makeReferee(field);
      const agent = ok(ref, joinInput("m-aaaa")).agent as string;
      playOut(ref, field, [agent]);
      expect(ref.status).toBe("solved");
      for (const t of field.tiles) expect(ref.tileStatus(t.id)?.status).toBe("solved");
      expect(ref.totals()).toEqual({ reward: totalCredit(field), solved: field.tiles.length });
      // Every known cell holds the true value.
      const known = ref.knownCells();
      known.ids.forEach((c, i) => expect(Number(known.values[i])).toBe(field.solution[c]));
    });
  }

  it("three agents on one field: rewards sum to the covered-cell credits and they end as one group", () => {
    const field = gridField(4, 4);
    const ref = makeReferee(field);
    const agents = ["m-a", "m-b", "m-c"].map((m) => ok(ref, joinInput(m)).agent as string);
    playOut(ref, field, agents);
    expect(ref.status).toBe("solved");
    const rows = ref.agents();
    const sum = rows.reduce((s, a) => s + (a.reward as number), 0);
    expect(sum).toBe(totalCredit(field));
    expect(ref.totals().reward).toBe(totalCredit(field));
    expect(new Set(rows.map((a) => a.group)).size).toBe(1);
    expect(ref.groupOf(agents[0])).toEqual([...agents].sort());
  });
});
