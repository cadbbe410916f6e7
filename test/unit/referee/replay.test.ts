import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import type { Referee } from "../../../src/referee/referee";
import type { WriteInput } from "../../../src/referee/types";
import { gridField, scatterField } from "./fixtures";
import { joinInput, lcg, makeReferee, T0 } from "./helpers";

/** A messy day: joins and rejoins, reveals on and off the frontier, commits with wrong cells, retracts, stale revisions. */
function recordDay(field: Field, seed: number, rules: { fog?: boolean; depth?: 0 | 1 | 2; guess?: "accept" | "reject" } = {}): {
  inputs: Array<[WriteInput, number]>;
  results: string[];
  ref: Referee;
} {
  const ref = makeReferee(field, rules);
  const rnd = lcg(seed);
  const inputs: Array<[WriteInput, number]> = [];
  const results: string[] = [];
  const apply = (input: WriteInput): void => {
    const at = T0 + inputs.length * 1000;
    inputs.push([input, at]);
    results.push(JSON.stringify(ref.apply(input, at)));
  };
  const machines = ["m-a", "m-b", "m-c"];
  for (const m of machines) apply(joinInput(m, "1"));
  apply(joinInput("m-a", "2"));
  apply(joinInput("m-a", "1"));
  const agents = ["m-a/1", "m-a/2", "m-b/1", "m-c/1"];
  for (let step = 0; step < 250; step++) {
    const agent = agents[rnd(agents.length)];
    const machineId = agent.split("/")[0];
    const frontier = ref.frontier(agent) ?? [];
    const odds = rnd(20);
    // Stale views (conflicting only where contradicted) and, now and then, a revision from the future.
    const stale = odds < 2 ? Math.max(0, ref.revision - 1 - rnd(8)) : odds === 2 ? ref.revision + 1 : ref.revision;
    const kind = rnd(10);
    if (kind < 2 || frontier.length === 0) {
      const tile = rnd(4) === 0 ? rnd(field.tiles.length) : (frontier[rnd(Math.max(1, frontier.length))] ?? 0);
      apply({ type: "reveal", machineId, agent, expectedRevision: stale, tile, intent: `look at ${tile}` });
    } else if (kind < 9) {
      const tile = frontier[rnd(frontier.length)];
      const cells = field.tiles[tile].cellIds;
      const batch: Array<[number, 0 | 1]> = [];
      for (let i = 0, n = 1 + rnd(10); i < n; i++) {
        const c = cells[rnd(cells.length)];
        batch.push([c, (rnd(12) === 0 ? 1 - field.solution[c] : field.solution[c]) as 0 | 1]);
      }
      apply({ type: "commit", machineId, agent, expectedRevision: stale, cells: batch, intent: `fill ${tile} ✓` });
    } else {
      const tile = frontier[rnd(frontier.length)];
      const cells = field.tiles[tile].cellIds.filter(() => rnd(3) === 0);
      apply({ type: "retract", machineId, agent, expectedRevision: stale, cells: cells.length ? cells : [0], intent: "undo" });
    }
  }
  return { inputs, results, ref };
}

describe("replay determinism (restore after eviction, audit)", () => {
  for (const [name, field, rules] of [
    ["grid, depth 0", gridField(4, 4), {}],
    ["scatter, fog, depth 1, guess reject", scatterField(), { fog: true, depth: 1 as const, guess: "reject" as const }],
  ] as const) {
    it(`${name}: re-applying the inputs to a fresh referee reproduces every answer, event and the state`, () => {
      const day = recordDay(field, 12345, rules);
      const events = day.results.filter((r) => JSON.parse(r).ok && JSON.parse(r).event);
      expect(events.length).toBeGreaterThan(50);
      expect(day.results.some((r) => JSON.parse(r).error?.code === "conflict")).toBe(true);
      const fresh = makeReferee(field, rules);
      day.inputs.forEach(([input, at], i) => {
        expect(JSON.stringify(fresh.apply(structuredClone(input), at)), `write ${i}`).toBe(day.results[i]);
      });
      expect(fresh.stateDigest()).toBe(day.ref.stateDigest());
      expect(fresh.revision).toBe(day.ref.revision);
      expect(JSON.stringify(fresh.observe({ full: true }))).toBe(JSON.stringify(day.ref.observe({ full: true })));
      expect(JSON.stringify(fresh.machines())).toBe(JSON.stringify(day.ref.machines()));
      // The Durable Object stores only the inputs that produced an event: replaying just those
      // rebuilds the same state and the same events.
      const logged = makeReferee(field, rules);
      day.inputs.forEach(([input, at], i) => {
        const original = JSON.parse(day.results[i]);
        if (!original.ok || !original.event) return;
        const again = logged.apply(structuredClone(input), at);
        expect(again.ok && JSON.stringify(again.event), `event of write ${i}`).toBe(JSON.stringify(original.event));
      });
      expect(logged.stateDigest()).toBe(day.ref.stateDigest());
      // Events carry integers only: no floats anywhere in the log.
      for (const r of events) {
        JSON.stringify(JSON.parse(r).event, (_k, v) => {
          if (typeof v === "number") expect(Number.isInteger(v)).toBe(true);
          return v;
        });
      }
      // Propagation worked out early (settle, as the field object does a moment after each
      // write) changes no answer, event or state, at any point between writes.
      const settled = makeReferee(field, rules);
      day.inputs.forEach(([input, at], i) => {
        if (i % 3 !== 2) settled.settle();
        expect(JSON.stringify(settled.apply(structuredClone(input), at)), `settled, write ${i}`).toBe(day.results[i]);
        if (i % 2 === 0) settled.settle();
      });
      expect(settled.stateDigest()).toBe(day.ref.stateDigest());
      expect(JSON.stringify(settled.observe({ full: true }))).toBe(JSON.stringify(day.ref.observe({ full: true })));
      // Revisions of events are consecutive.
      const revs = events.map((r) => JSON.parse(r).event.rev);
      expect(revs).toEqual(revs.map((_, i) => revs[0] + i));
    });
  }

  it("a different field seed seats agents differently, the same seed identically", () => {
    const field = gridField(4, 5);
    const seeds = (s: string): number[] => {
      const r = makeReferee(field, {}, undefined, s);
      return ["m-a", "m-b", "m-c"].map((m) => {
        const x = r.apply(joinInput(m), T0);
        return x.ok ? (x.answer.seed_tile as number) : -1;
      });
    };
    expect(seeds("day-1")).toEqual(seeds("day-1"));
    const variety = new Set(["day-1", "day-2", "day-3", "day-4", "day-5"].map((s) => seeds(s).join(",")));
    expect(variety.size).toBeGreaterThan(1);
  });
});
