import type { PublicEvent } from "../../spectator";
import { died, meetings, verdicts } from "../events";

/**
 * What a screen reader says for a batch of new log lines: one sentence for all of them, never a
 * line each (SPEC §10: the live log is announced politely, not line by line). Counts first, then
 * the rare events a listener would not want to miss (growth, meetings, deaths, the close).
 */
export function logSummary(events: readonly PublicEvent[], nameOf: (machine: string) => string = (m) => m): string {
  if (!events.length) return "";
  const first = events[0].rev;
  const last = events[events.length - 1].rev;
  let joined = 0;
  let revealed = 0;
  let accepted = 0;
  let rejected = 0;
  let solved = 0;
  let retracted = 0;
  const rare: string[] = [];
  for (const e of events) {
    const v = verdicts(e);
    accepted += v.accepted;
    rejected += v.rejected;
    solved += v.solved;
    retracted += v.retracted;
    if (e.type === "join") joined++;
    if (e.type === "reveal") revealed++;
    if (e.type === "grow") rare.push(`the field grew (ring ${String(e.ring)}, ${String(e.tiles)} tiles)`);
    if (e.type === "close") rare.push(`the day closed: ${String(e.solved)} of ${String(e.tiles_total)} tiles solved`);
    if (meetings(e).length) rare.push("groups met");
    if (died(e) && "agent" in e && e.agent) rare.push(`${nameOf(e.agent.slice(0, e.agent.indexOf("/")))} died`);
  }
  const parts = [
    plural(joined, "join", "joins"),
    plural(revealed, "tile revealed", "tiles revealed"),
    plural(accepted, "cell accepted", "cells accepted"),
    plural(rejected, "cell rejected", "cells rejected"),
    plural(solved, "tile solved", "tiles solved"),
    plural(retracted, "cell retracted", "cells retracted"),
    ...new Set(rare),
  ].filter(Boolean);
  const head = events.length === 1 ? `1 new log line, revision ${first}` : `${events.length} new log lines, revisions ${first} to ${last}`;
  return `${head}${parts.length ? `: ${parts.join("; ")}` : ""}.`;
}

function plural(n: number, one: string, many: string): string {
  return n === 0 ? "" : `${n} ${n === 1 ? one : many}`;
}
