/**
 * The public event log's shape (SPEC §9), as the live feed and the archive carry it. The page
 * reads these fields only; the spectator reducer owns the state they build.
 */
export interface PublicEvent {
  rev: number;
  type: "join" | "reveal" | "commit" | "retract" | "grow" | "close";
  at: number;
  agent?: string;
  intent?: string;
  prev?: string;
  hash?: string;
  [detail: string]: unknown;
}

export interface Verdicts {
  accepted: number;
  forced: number;
  guess: number;
  rejected: number;
  ignored: number;
  unevaluated: number;
  solved: number;
  retracted: number;
  reward: number;
}

const count = (v: unknown): number => (Array.isArray(v) ? v.length : typeof v === "number" ? v : 0);

/** Counts of an event's verdicts, for the log line. */
export function verdicts(e: PublicEvent): Verdicts {
  const accepted = Array.isArray(e.accepted) ? (e.accepted as Array<{ class?: string }>) : [];
  return {
    accepted: accepted.length,
    forced: accepted.filter((a) => a.class === "forced").length,
    guess: accepted.filter((a) => a.class === "guess").length,
    rejected: count(e.rejected),
    ignored: count(e.ignored),
    unevaluated: count(e.unevaluated),
    solved: count(e.solved),
    retracted: count(e.retracted),
    reward: typeof e.reward === "number" ? e.reward : 0,
  };
}

/** Meetings an event reports: each a list of agent ids that merged. */
export function meetings(e: PublicEvent): string[][] {
  if (!Array.isArray(e.meets)) return [];
  return (e.meets as Array<{ with?: unknown }>).map((m) => (Array.isArray(m?.with) ? m.with.filter((a): a is string => typeof a === "string") : []));
}

/** True when this write killed its machine (SPEC §4.8). */
export function died(e: PublicEvent): boolean {
  return e.died === true || (typeof e.health === "object" && e.health !== null && (e.health as { state?: string }).state === "dead" && e.type === "commit");
}
