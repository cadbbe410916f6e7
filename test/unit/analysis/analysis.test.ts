import { describe, expect, it } from "vitest";
import { analyse, bootstrap, tagKeys, type AgentFacts } from "../../../src/analysis/analysis";
import { computeOptimum, OPTIMUM_FORCED, OPTIMUM_GUESS } from "../../../src/analysis/optimum";
import { generateField } from "../../../src/engine";
import { Rng, rngFor } from "../../../src/engine/random";
import { gridField, scatterField } from "../referee/fixtures";

function agent(over: Partial<AgentFacts>): AgentFacts {
  return {
    agent: "m-0000000000000001/1",
    machine: "m-0000000000000001",
    account: null,
    model: "alpha",
    harness: "h",
    tags: {},
    reward: 100,
    tiles: 2,
    accepted: 80,
    forced: 60,
    guesses: 20,
    wrong: 2,
    retractions: 0,
    calls: 40,
    bytes: 40_000,
    optimumForced: 70,
    ...over,
  };
}

describe("analysis", () => {
  it("groups by model, harness and tag; sums and ratios per 100 reward", async () => {
    const agents = [
      agent({ agent: "m-1/1", machine: "m-1", model: "alpha", harness: "h1", tags: { team: "red" } }),
      agent({ agent: "m-2/1", machine: "m-2", model: "alpha", harness: "h2", tags: { solo: "" }, reward: 300, calls: 30, wrong: 0 }),
      agent({ agent: "m-3/1", machine: "m-3", model: "beta", harness: "h1", reward: 0, calls: 5, accepted: 0, forced: 0, guesses: 0, optimumForced: 0 }),
    ];
    const a = await analyse(agents, "g|7");
    const alpha = a.by_model.find((r) => r.key === "alpha")!;
    expect(alpha).toMatchObject({ agents: 2, machines: 2, reward: 400, cells: 160, calls_total: 70, wrong_cells: 2 });
    expect(alpha.calls?.value).toBeCloseTo(17.5, 4);
    expect(alpha.wrong?.value).toBeCloseTo(0.5, 4);
    expect(alpha.forced_share?.value).toBeCloseTo(0.75, 4);
    expect(alpha.propagation_share?.value).toBeCloseTo(140 / 160, 4);
    const beta = a.by_model.find((r) => r.key === "beta")!;
    expect(beta.calls).toBeNull();
    expect(beta.forced_share).toBeNull();
    expect(a.by_tag.map((r) => r.key).sort()).toEqual(["(none)", "solo", "team=red"]);
    expect(a.by_harness.map((r) => r.key).sort()).toEqual(["h1", "h2"]);
    expect(tagKeys({ a: "", b: "x" })).toEqual(["a", "b=x"]);
    // Deterministic: the same seed gives the same intervals.
    expect(await analyse(agents, "g|7")).toEqual(a);
  });

  it("groups by account: an account's machines together, a machine in no account alone under its id", async () => {
    const home = { id: "a-00000000000000aa", name: "Home" };
    const agents = [
      agent({ agent: "m-1/1", machine: "m-1", account: home, reward: 100 }),
      agent({ agent: "m-1/2", machine: "m-1", account: home, reward: 50 }),
      agent({ agent: "m-2/1", machine: "m-2", account: home, reward: 300 }),
      agent({ agent: "m-3/1", machine: "m-3", account: null, reward: 200 }),
    ];
    const { by_account } = await analyse(agents, "g|acc");
    expect(by_account.map((r) => [r.key, r.name, r.agents, r.machines, r.reward])).toEqual([
      ["a-00000000000000aa", "Home", 3, 2, 450],
      ["m-3", null, 1, 1, 200],
    ]);
    // The name sits beside the key, before the figures.
    expect(Object.keys(by_account[0]).slice(0, 3)).toEqual(["key", "name", "agents"]);
    // Other groupings are unchanged by accounts: no name column there.
    expect((await analyse(agents, "g|acc")).by_model[0]).not.toHaveProperty("name");
  });

  it("a group's call and byte totals, sums of the machines' shares, read as counts", async () => {
    // One machine's calls and bytes are shared equally among its six agents: a sixth each.
    const six = Array.from({ length: 6 }, (_, i) => agent({ agent: `m-1/${i + 1}`, machine: "m-1", calls: 1 / 6, bytes: 7 / 6 }));
    const [row] = (await analyse(six, "g|shares")).by_model;
    expect(row.calls_total).toBe(1);
    expect(row.bytes_total).toBe(7);
    // Agents of one machine in different groups keep fractional shares, to a thousandth.
    const split = await analyse([agent({ agent: "m-2/1", machine: "m-2", model: "a", calls: 10 / 3 }), agent({ agent: "m-2/2", machine: "m-2", model: "b", calls: 20 / 3 })], "g|split");
    expect(split.by_model.map((r) => r.calls_total).sort()).toEqual([3.333, 6.667]);
  });

  it("bootstrap intervals hold the value, are zero-wide for one agent, and follow the seed", async () => {
    const many = Array.from({ length: 12 }, (_, i) => agent({ agent: `m-${i}/1`, machine: `m-${i}`, reward: 50 + 25 * i, calls: 10 + ((i * 7) % 13) * 5, wrong: i % 4 }));
    const ci = bootstrap(many, await rngFor("seed", "x"));
    for (const e of Object.values(ci)) {
      if (!e) continue;
      expect(e.lo).toBeLessThanOrEqual(e.value);
      expect(e.hi).toBeGreaterThanOrEqual(e.value);
    }
    expect(ci.calls!.hi).toBeGreaterThan(ci.calls!.lo);
    expect(bootstrap(many, await rngFor("seed", "x"))).toEqual(ci);
    const one = bootstrap([many[0]], new Rng(1, 2, 3, 4));
    expect(one.calls).toEqual({ value: one.calls!.value, lo: one.calls!.value, hi: one.calls!.value });
    const unknownOptimum = bootstrap([agent({ optimumForced: null }), agent({})], new Rng(1, 2, 3, 4));
    expect(unknownOptimum.propagation_share).toBeNull();
  });
});

describe("the field's optimum", () => {
  it("classes every covered non-given cell exactly once, as forced or guess; deterministic", async () => {
    const engineField = await generateField({ kind: "scatter", seed: "optimum-test", G: 40 });
    for (const field of [gridField(6, 3), scatterField(), engineField]) {
      const o = await computeOptimum(field, 0);
      const covered = new Set<number>();
      const givens = new Set<number>();
      for (const t of field.tiles) {
        for (const c of t.cellIds) covered.add(c);
        for (const c of t.givens) givens.add(c);
      }
      let forced = 0;
      let guesses = 0;
      for (let c = 0; c < o.classes.length; c++) {
        const expected = covered.has(c) && !givens.has(c);
        expect(o.classes[c] !== 0, `cell ${c}`).toBe(expected);
        if (o.classes[c] === OPTIMUM_FORCED) forced++;
        if (o.classes[c] === OPTIMUM_GUESS) guesses++;
      }
      expect({ forced, guesses, cells: forced + guesses }).toEqual({ forced: o.forced, guesses: o.guesses, cells: o.cells });
      expect(o.cells).toBe(covered.size - givens.size);
      // Every generated tile alone is ambiguous (m ≥ 2), so the play needs at least one guess.
      if (field === engineField) expect(o.guesses).toBeGreaterThan(0);
      expect(o.share).toBeCloseTo(o.forced / o.cells, 10);
      const again = await computeOptimum(field, 0, async () => {}, 3);
      expect(again.classes).toEqual(o.classes);
    }
  });
});
