/**
 * Agent ids and sessions (SPEC §1, §6.1). An agent id is `<machine_id>/<session>`; the session is
 * chosen by the agent: 1..24 printable characters, spaces and non-ASCII included, never `/` (so
 * the id splits at its first `/`). The edge, the identity proof and the referee all use these.
 */

export const MAX_SESSION_CHARS = 24;

/** A machine id: `m-` and the first 16 hex digits of SHA-256 of its public key (SPEC §1). */
export const MACHINE_ID_RE = /^m-[0-9a-f]{16}$/;

/**
 * Not printable: control characters (C0, DEL, C1), lone surrogates, line and paragraph
 * separators, and the bidirectional overrides and isolates (they would reorder how an agent id
 * reads on the leaderboard). Joiners and variation selectors stay allowed: emoji need them.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/u;

/** Why a session is not acceptable, or null when it is. */
export function sessionProblem(session: unknown): string | null {
  if (typeof session !== "string") return "session must be a string";
  const chars = [...session].length;
  if (chars === 0) return "session must not be empty";
  if (chars > MAX_SESSION_CHARS) return `session has ${chars} characters; at most ${MAX_SESSION_CHARS}`;
  if (session.includes("/")) return "session must not contain '/' (agent ids are <machine_id>/<session>)";
  if (UNPRINTABLE.test(session)) return "session must be printable: no control characters, line breaks or direction overrides";
  return null;
}

export function agentId(machineId: string, session: string): string {
  return `${machineId}/${session}`;
}

/** The two parts of an agent id, or null when it is not `<machine>/<valid session>`. */
export function splitAgentId(id: string): { machineId: string; session: string } | null {
  const cut = id.indexOf("/");
  if (cut <= 0) return null;
  const session = id.slice(cut + 1);
  return sessionProblem(session) === null ? { machineId: id.slice(0, cut), session } : null;
}
