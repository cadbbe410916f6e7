import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/engine/random";
import { fitBradleyTerry, PRIOR } from "../../../src/history/bradley-terry";
import { MIN_DAYS, ratingsTable, type RatingEntry } from "../../../src/history/ratings";
import { dateAt, historyDay, machineId, type SyntheticMachine } from "../../support/history-days";
import type { HistoryDay } from "../../../src/history/types";

const entry = (entries: RatingEntry[], key: string): RatingEntry => {
  const e = entries.find((x) => x.key === key);
  if (!e) throw new Error(`no entry ${key}`);
  return e;
};

/**
 * 30 days, six machines a day: two each of a strong model (reward per write 80–100 %) and two
 * equal ones (30–70 %), figures drawn from a seeded generator.
 */
function knownOrder(days = 30): HistoryDay[] {
  const rng = new Rng(1, 2, 3, 4);
  const out: HistoryDay[] = [];
  for (let d = 0; d < days; d++) {
    const machines: SyntheticMachine[] = [];
    ["strong", "strong", "equal-a", "equal-a", "equal-b", "equal-b"].forEach((model, i) => {
      const writes = 100 + rng.int(100);
      const share = model === "strong" ? 80 + rng.int(21) : 30 + rng.int(41);
      machines.push({ machine: machineId(i), agents: [{ model, reward: Math.floor((writes * share) / 100), writes }] });
    });
    out.push(historyDay(dateAt(d), machines));
  }
  return out;
}

describe("ratings across days", () => {
  it("a known order: the strong model first, its interval wholly above two equal models whose intervals overlap", async () => {
    const table = await ratingsTable(knownOrder(), "model");
    const [strong, a, b] = [entry(table.entries, "strong"), entry(table.entries, "equal-a"), entry(table.entries, "equal-b")];
    expect(table.entries[0].key).toBe("strong");
    expect(strong.rank).toBe(1);
    expect(strong.lo).toBeGreaterThan(Math.max(a.hi, b.hi));
    expect(a.lo).toBeLessThanOrEqual(b.hi);
    expect(b.lo).toBeLessThanOrEqual(a.hi);
    // Neither equal model's interval lies wholly above the other's: both rank second.
    expect([a.rank, b.rank]).toEqual([2, 2]);
    for (const e of table.entries) {
      expect(e.lo).toBeLessThanOrEqual(e.rating);
      expect(e.hi).toBeGreaterThanOrEqual(e.rating);
      expect(e.self_reported).toBe(true);
      expect(e.provisional).toBe(false);
    }
    expect(table.days).toBe(30);
  });

  it("a model that played on fewer than the minimum of days is provisional and unranked", async () => {
    const days = knownOrder(10);
    days[4].machines.push(historyDay(days[4].day, [{ machine: machineId(9), agents: [{ model: "once", reward: 99, writes: 100 }] }]).machines[0]);
    const table = await ratingsTable(days, "model");
    const once = entry(table.entries, "once");
    expect(once.days).toBe(1);
    expect(once.provisional).toBe(true);
    expect(once.rank).toBeNull();
    expect(table.entries[table.entries.length - 1].key).toBe("once");
    expect(MIN_DAYS).toBeGreaterThan(1);
    // It won every comparison of its one day, yet its interval is wide and it ranks nothing.
    expect(once.win_share).toBe(1);
    expect(entry(table.entries, "strong").rank).toBe(1);
  });

  it("a 2-agent day weighs as much as a 40-agent day", async () => {
    const small = historyDay(dateAt(0), [
      { machine: machineId(0), agents: [{ model: "A", reward: 90, writes: 100 }] },
      { machine: machineId(1), agents: [{ model: "B", reward: 10, writes: 100 }] },
    ]);
    const big = historyDay(
      dateAt(1),
      Array.from({ length: 40 }, (_, i) => ({ machine: machineId(100 + i), agents: [{ model: i % 2 ? "A" : "B", reward: i % 2 ? 10 : 90, writes: 100 }] })),
    );
    const table = await ratingsTable([small, big], "model");
    const [a, b] = [entry(table.entries, "A"), entry(table.entries, "B")];
    expect(a.win_share).toBe(0.5);
    expect(b.win_share).toBe(0.5);
    expect(a.rating).toBe(b.rating);
    // The control: a second 40-agent day B won tips the balance, as a second day of any size would.
    const lopsided = await ratingsTable([small, big, { ...big, day: dateAt(2), game_id: `day-${dateAt(2)}` }], "model");
    expect(entry(lopsided.entries, "B").rating).toBeGreaterThan(entry(lopsided.entries, "A").rating);
  });

  it("a dead machine loses to every live one, whatever its reward per write", async () => {
    const days = Array.from({ length: 4 }, (_, d) =>
      historyDay(dateAt(d), [
        { machine: machineId(0), dead: true, agents: [{ model: "reckless", reward: 100, writes: 100 }] },
        { machine: machineId(1), agents: [{ model: "careful", reward: 1, writes: 100 }] },
      ]),
    );
    const table = await ratingsTable(days, "model");
    expect(entry(table.entries, "careful").win_share).toBe(1);
    expect(entry(table.entries, "reckless").win_share).toBe(0);
    expect(table.entries[0].key).toBe("careful");
  });

  it("agents of one model on one machine are pooled into one competitor", async () => {
    // Machine 0 runs three sessions of A: pooled, 3 × 50 / 3 × 100 = 0.5 beats B's 0.4 once, not three times.
    const day = historyDay(dateAt(0), [
      { machine: machineId(0), agents: [0, 1, 2].map(() => ({ model: "A", reward: 50, writes: 100 })) },
      { machine: machineId(1), agents: [{ model: "B", reward: 40, writes: 100 }] },
      { machine: machineId(2), agents: [{ model: "B", reward: 60, writes: 100 }] },
    ]);
    const table = await ratingsTable([day], "model");
    expect(entry(table.entries, "A").win_share).toBe(0.5);
    const byMachine = await ratingsTable([day], "machine");
    expect(byMachine.entries.map((e) => e.key).sort()).toEqual([machineId(0), machineId(1), machineId(2)]);
    expect(byMachine.entries.every((e) => !e.self_reported && e.name)).toBe(true);
  });

  it("is deterministic: the same days give the same bytes, in any order", async () => {
    const days = knownOrder(12);
    const once = JSON.stringify(await ratingsTable(days, "model"));
    const again = JSON.stringify(await ratingsTable([...days].reverse(), "model"));
    expect(again).toBe(once);
    expect(JSON.stringify(await ratingsTable(days, "harness"))).toBe(JSON.stringify(await ratingsTable(days, "harness")));
  });

  it("ranks by intervals: an entry is passed only by entries whose interval lies wholly above its own", async () => {
    const table = await ratingsTable(knownOrder(20), "machine");
    for (const e of table.entries) {
      if (e.provisional) continue;
      const above = table.entries.filter((x) => !x.provisional && x.lo > e.hi).length;
      expect(e.rank).toBe(1 + above);
    }
  });
});

describe("the Bradley–Terry fit", () => {
  it("lands on the likelihood's maximum: the gradient vanishes, prior included", () => {
    const rng = new Rng(9, 8, 7, 6);
    const k = 12;
    const games = new Float64Array(k * k);
    const wins = new Float64Array(k);
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        if (rng.int(3) === 0) continue;
        const n = 1 + rng.int(20);
        const w = rng.int(n + 1);
        games[i * k + j] = n;
        wins[i] += w;
        wins[j] += n - w;
      }
    }
    const theta = fitBradleyTerry(k, games, wins);
    const p = Array.from(theta, Math.exp);
    for (let i = 0; i < k; i++) {
      let g = wins[i] + PRIOR / 2 - (PRIOR * p[i]) / (p[i] + 1);
      for (let j = 0; j < k; j++) {
        const n = i < j ? games[i * k + j] : games[j * k + i];
        if (j !== i && n) g -= (n * p[i]) / (p[i] + p[j]);
      }
      expect(Math.abs(g)).toBeLessThan(1e-8);
    }
    // An entry that won everything stays finite, above every other.
    expect(Number.isFinite(Math.max(...theta))).toBe(true);
  });
});
