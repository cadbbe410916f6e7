import { describe, expect, it } from "vitest";
import { formatSummary } from "../../../agent/summary";
import type { AgentSummary } from "../../../agent/options";

describe("the reference agent's summary line", () => {
  it("names every seat of the run, comma-separated, then why it stopped and its figures", () => {
    const summary: AgentSummary = {
      game_id: "day-2031-01-02",
      agents: ["m-0123456789abcdef/1", "m-0123456789abcdef/1.2"],
      machine_id: "m-0123456789abcdef",
      reason: "solved",
      tiles: 12,
      reward: 640,
      calls: 30,
      call_ms: { p50: 8, p95: 12, max: 20 },
      reveals: 12,
      commits: 14,
      accepted: 500,
      forced: 480,
      forced_share: 0.96,
      guesses: 20,
      wrong: 1,
      conflicts: 0,
      revision: 80,
      seconds: 12.34,
    };
    expect(formatSummary(summary)).toBe(
      "m-0123456789abcdef/1, m-0123456789abcdef/1.2 on day-2031-01-02: field solved · tiles 12 · reward 640 · calls 30 · wrong 1 · guesses 20 · forced 96.0% · 12.3 s",
    );
  });
});
