/**
 * A synthetic history for the benchmark: `days` days × `machines` machines, each machine running
 * one of a few models and harnesses with its own skill, its daily reward per write drawn around it
 * from a seeded generator, a few deaths. Deterministic.
 */
import { Rng } from "../../src/engine/random";
import type { HistoryDay } from "../../src/history/types";
import { dateAt, historyDay, machineId } from "./history-days";

export const YEAR_MODELS = ["model-a", "model-b", "model-c", "model-d", "model-e", "model-f", "model-g", "model-h"];
const HARNESSES = ["claude-code", "codex", "vscode", "reference"];

export function syntheticYear(days = 365, machines = 50): HistoryDay[] {
  const rng = new Rng(0x5eed, 365, 50, 7);
  const skill = Array.from({ length: machines }, (_, m) => 20 + (m % YEAR_MODELS.length) * 6 + rng.int(20));
  return Array.from({ length: days }, (_, d) =>
    historyDay(
      dateAt(d),
      Array.from({ length: machines }, (_, m) => {
        const writes = 200 + rng.int(2000);
        const share = Math.min(100, Math.max(0, skill[m] + rng.int(41) - 20));
        return {
          machine: machineId(m),
          name: `Machine ${m}`,
          dead: rng.int(100) === 0,
          agents: [{ model: YEAR_MODELS[m % YEAR_MODELS.length], harness: HARNESSES[m % HARNESSES.length], reward: Math.floor((writes * share) / 100), writes }],
        };
      }),
    ),
  );
}
