import type { AgentSummary } from "./options";

const REASONS: Record<AgentSummary["reason"], string> = {
  solved: "field solved",
  closed: "field closed",
  failed: "field failed to generate",
  no_frontier: "no frontier left",
  stuck: "nothing provable or guessable left",
  dead: "machine died",
  time: "time limit",
  aborted: "aborted",
  error: "error",
};

/** The one summary line a run prints. */
export function formatSummary(s: AgentSummary): string {
  // Its seats: the first session, then `<session>.2`, `<session>.3` when it moved on (docs/agent.md).
  const who = s.agents.length > 0 ? s.agents.join(", ") : s.machine_id;
  const share = s.accepted === 0 ? "-" : `${(s.forced_share * 100).toFixed(1)}%`;
  const why = s.error ? `${REASONS[s.reason]}: ${s.error}` : REASONS[s.reason];
  return `${who} on ${s.game_id || "?"}: ${why} · tiles ${s.tiles} · reward ${s.reward} · calls ${s.calls} · wrong ${s.wrong} · guesses ${s.guesses} · forced ${share} · ${s.seconds.toFixed(1)} s`;
}
