import { beforeAll, describe, expect, it } from "vitest";
import { readArchive } from "../../../src/daily/audit/read-archive";
import type { AuditedArchive } from "../../../src/daily/audit/event-log";
import { dayFromArchive } from "../../../src/history/from-archive";
import { buildTestDay } from "../../support/test-day";

let archive: AuditedArchive;

beforeAll(async () => {
  const td = await buildTestDay();
  archive = await readArchive(new TextEncoder().encode(td.text));
}, 300_000);

describe("a day's record from its archive", () => {
  it("holds per machine the archive's final scores and health, and each agent's writes", () => {
    const day = dayFromArchive(archive, new Map([[archive.scores[0].machine, "a-team"]]));
    expect(day.day).toBe(archive.day);
    expect(day.archive).toBe(`/api/archives/${archive.game_id}.json.gz`);
    expect(day.log_head).toEqual(archive.log_head);
    expect(day.machines.map((m) => m.machine)).toEqual(archive.scores.map((s) => s.machine));
    let writes = 0;
    for (let i = 0; i < archive.events.length; i++) if (["reveal", "commit", "retract"].includes(archive.events.at(i)!.type)) writes++;
    expect(day.machines.reduce((s, m) => s + m.writes, 0)).toBe(writes);
    day.machines.forEach((m, i) => {
      const s = archive.scores[i];
      const h = archive.health[i];
      expect({ reward: m.reward, tiles: m.tiles, cells: m.cells, forced: m.forced, guesses: m.guesses, wrong: m.wrong, retractions: m.retractions }).toEqual({
        reward: s.reward, tiles: s.solved, cells: s.accepted, forced: s.forced, guesses: s.guesses, wrong: s.wrong, retractions: s.retractions,
      });
      expect({ health: m.health, rate_bp: m.rate_bp, died_at: m.died_at, died_rev: m.died_rev }).toEqual({ health: h.state, rate_bp: h.rate_bp, died_at: h.died_at, died_rev: h.died_rev });
      expect(m.models).toEqual(s.models.map((x) => x || "unknown"));
      expect(m.agents.map((a) => a.agent)).toEqual(s.agents);
      expect(m.account).toBe(i === 0 ? "a-team" : null);
      // The agents' counters add up to the machine's.
      expect(m.agents.reduce((t, a) => t + a.reward, 0)).toBe(m.reward);
    });
    expect(day.machines.some((m) => m.died_at !== null)).toBe(true);
  });

  it("gives the same bytes every time", () => {
    expect(JSON.stringify(dayFromArchive(archive))).toBe(JSON.stringify(dayFromArchive(archive)));
  });
});
