/**
 * The history across days (SPEC §11.1, docs/history.md): what one closed day leaves on record,
 * per machine and per agent. Plain data (integers, strings, null), so a day's record is the same
 * JSON wherever it is computed: in the history object from the archive in R2, or on an auditor's
 * machine from the same archive downloaded.
 */

/** What a machine, an agent or a group counts over a day (SPEC §11's columns). */
export interface DayCounters {
  reward: number;
  /** Tiles solved. */
  tiles: number;
  /** Cells accepted, of which forced and guesses. */
  cells: number;
  forced: number;
  guesses: number;
  /** Cells rejected as wrong. */
  wrong: number;
  retractions: number;
  /** Reveals, commits and retracts sent (each write is one event of the log). */
  writes: number;
}

/** One seated agent (a session of a machine) over its day. */
export interface AgentDay extends DayCounters {
  agent: string;
  /** The `model` the agent declared at its join ("unknown" when it gave none): always self-reported. */
  model: string;
  harness: string;
  /** Where the harness name came from: "transport" (the MCP client's own name), "argument" or "unknown". */
  harness_source: string;
}

/** One machine over one day: SPEC §11.1's row. */
export interface MachineDay extends DayCounters {
  machine: string;
  /** The display name at the close (the key holder's, else the first join's). */
  name: string;
  /** The account the machine belonged to when the day was recorded (SPEC §8.2), null when none. */
  account: string | null;
  models: string[];
  harnesses: string[];
  /** Tag groups as the analysis names them (`key` or `key=value`), sorted. */
  tags: string[];
  sessions: number;
  /** Health at the close: "healthy" | "warning" | "dead", and the wrong rate in basis points. */
  health: string;
  rate_bp: number;
  /** When and at which revision the machine died (null: alive at the close). */
  died_at: number | null;
  died_rev: number | null;
  agents: AgentDay[];
}

/** One closed day on record. */
export interface HistoryDay {
  day: string;
  game_id: string;
  /** The archive's file route, relative to the server (SPEC §9). */
  archive: string;
  log_head: { hash: string; rev: number };
  tiles_total: number;
  tiles_solved: number;
  /** Machines in the order they first joined. */
  machines: MachineDay[];
}

export function zeroDayCounters(): DayCounters {
  return { reward: 0, tiles: 0, cells: 0, forced: 0, guesses: 0, wrong: 0, retractions: 0, writes: 0 };
}

export const COUNTER_KEYS = ["reward", "tiles", "cells", "forced", "guesses", "wrong", "retractions", "writes"] as const;

export function addCounters(into: DayCounters, from: DayCounters): void {
  for (const k of COUNTER_KEYS) into[k] += from[k];
}

/**
 * The day with its keys in the one order every published text uses, whatever built it (the
 * archive's replay, the store's rows, a download read back): JSON.stringify follows key order.
 */
export function canonicalDay(d: HistoryDay): HistoryDay {
  const counters = (c: DayCounters): DayCounters => ({
    reward: c.reward, tiles: c.tiles, cells: c.cells, forced: c.forced, guesses: c.guesses, wrong: c.wrong, retractions: c.retractions, writes: c.writes,
  });
  return {
    day: d.day,
    game_id: d.game_id,
    archive: d.archive,
    log_head: { hash: d.log_head.hash, rev: d.log_head.rev },
    tiles_total: d.tiles_total,
    tiles_solved: d.tiles_solved,
    machines: d.machines.map((m) => ({
      machine: m.machine,
      name: m.name,
      account: m.account,
      models: [...m.models],
      harnesses: [...m.harnesses],
      tags: [...m.tags],
      sessions: m.sessions,
      ...counters(m),
      health: m.health,
      rate_bp: m.rate_bp,
      died_at: m.died_at,
      died_rev: m.died_rev,
      agents: m.agents.map((a) => ({ agent: a.agent, model: a.model, harness: a.harness, harness_source: a.harness_source, ...counters(a) })),
    })),
  };
}
