import type { PublicEvent } from "../spectator";

/** Verdict counts of one event, for its log line. */
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

export function verdicts(e: PublicEvent): Verdicts {
  const v: Verdicts = { accepted: 0, forced: 0, guess: 0, rejected: 0, ignored: 0, unevaluated: 0, solved: 0, retracted: 0, reward: 0 };
  if (e.type === "commit") {
    v.accepted = e.accepted.length;
    for (const a of e.accepted) {
      if (a.class === "forced") v.forced++;
      else v.guess++;
    }
    v.rejected = e.rejected.length;
    v.ignored = e.ignored.length;
    v.unevaluated = e.unevaluated.length;
  }
  if (e.type === "commit" || e.type === "reveal") {
    v.solved = e.solved.length;
    v.reward = e.reward;
  }
  if (e.type === "retract") {
    v.retracted = e.retracted.length;
    v.ignored = e.ignored.length;
  }
  return v;
}

/** Meetings an event reports: each the agent ids of the group met. */
export function meetings(e: PublicEvent): string[][] {
  return e.type === "commit" || e.type === "reveal" ? e.meets.map((m) => m.with) : [];
}

/** True when this write killed its machine (SPEC §4.8). */
export function died(e: PublicEvent): boolean {
  return e.type === "commit" && e.died === true;
}
