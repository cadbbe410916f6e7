import type { LiveHost } from "./live-host";

/** A spectator route's refusal while a field has no play to show. */
export interface GateAnswer {
  status: 404 | 409 | 503;
  body: string;
  retryAfter?: number;
}

/**
 * One answer for every spectator route (snapshot, leaderboard, analysis, live feed) while the
 * field has no play: 404 for no field, 503 with Retry-After while it generates (it will exist
 * shortly: retry, do not give up), 409 when it failed. Null when there is play to show.
 */
export function spectatorGate(f: LiveHost): GateAnswer | null {
  if (f.referee && f.field) return null;
  const status = f.meta<string>("status") ?? "missing";
  if (status === "missing") return { status: 404, body: errorBody("missing", "no such game") };
  if (status === "generating") return { status: 503, retryAfter: 2, body: errorBody("generating", "the field is still generating: retry shortly") };
  return { status: 409, body: errorBody("failed", f.meta<string>("failure") ?? f.loadError ?? "the field could not be loaded") };
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}
