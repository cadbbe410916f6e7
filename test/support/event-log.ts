// The public event log of a field (SPEC §9: GET /api/games/:id and /api/games/:id/events) and the
// checks the fault suites make on it: the hash chain from seed_commit, revisions rising by one, and
// a client-side record of answered writes (wire-tap.ts) matching the log write for write.
import { chainEventHash } from "../../src/engine/commitments";
import type { TappedCall } from "./wire-tap";

export interface LoggedEvent {
  rev: number;
  type: string;
  at: number;
  agent?: string;
  intent?: string;
  prev: string;
  hash: string;
  [detail: string]: unknown;
}

export interface FieldManifest {
  seed_commit: string;
  log_head: { hash: string; rev?: number; revision?: number };
  status: string;
  [detail: string]: unknown;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as T;
}

/** The manifest and the whole event log, read page by page from the public API. */
export async function readLog(baseUrl: string, gameId: string): Promise<{ manifest: FieldManifest; events: LoggedEvent[] }> {
  const manifest = await getJson<FieldManifest>(`${baseUrl}/api/games/${encodeURIComponent(gameId)}`);
  const events: LoggedEvent[] = [];
  for (;;) {
    const from = events.length === 0 ? 1 : events[events.length - 1].rev + 1;
    const page = await getJson<{ events: LoggedEvent[] }>(`${baseUrl}/api/games/${encodeURIComponent(gameId)}/events?from=${from}`);
    const fresh = page.events.filter((e) => e.rev >= from);
    if (fresh.length === 0) break;
    events.push(...fresh);
  }
  return { manifest, events };
}

/** What is wrong with the chain: revisions 1, 2, 3, … and every hash recomputed from its predecessor. */
export async function chainProblems(manifest: FieldManifest, events: LoggedEvent[]): Promise<string[]> {
  const problems: string[] = [];
  let prev = manifest.seed_commit;
  for (const [i, e] of events.entries()) {
    if (e.rev !== i + 1) problems.push(`event #${i} has rev ${e.rev}, expected ${i + 1}`);
    if (e.prev !== prev) problems.push(`rev ${e.rev}: prev ${e.prev} does not chain onto ${prev}`);
    const { hash, ...rest } = e;
    const expected = await chainEventHash(e.prev, rest);
    if (hash !== expected) problems.push(`rev ${e.rev}: hash ${hash} is not ${expected}`);
    prev = hash;
  }
  const headRev = manifest.log_head.rev ?? manifest.log_head.revision;
  if (manifest.log_head.hash !== prev || headRev !== events.length) problems.push(`log_head ${JSON.stringify(manifest.log_head)} is not the last event (${prev}@${events.length})`);
  return problems;
}

type Answered = Extract<TappedCall["outcome"], { kind: "answered" }>;

/** Whether an answered, successful write changed state: its `changed` flag, else what it reports. */
function changedState(tool: string, answer: Answered): boolean {
  const s = answer.structured ?? {};
  if (typeof s.changed === "boolean") return s.changed;
  const n = (k: string) => (Array.isArray(s[k]) ? (s[k] as unknown[]).length : 0);
  if (tool === "commit") return n("accepted") + n("rejected") > 0;
  if (tool === "retract") return n("retracted") > 0;
  return tool === "reveal";
}

function cellsOf(list: unknown): string {
  return JSON.stringify(((list as Array<{ id: number; v?: number }> | undefined) ?? []).map((c) => [c.id, c.v ?? null]));
}

/** The agent a write call named, or the agent a join answered. */
function agentOf(call: TappedCall): string | undefined {
  if (call.tool === "join") return call.outcome.kind === "answered" && typeof call.outcome.structured?.agent === "string" ? call.outcome.structured.agent : undefined;
  return typeof call.args.agent === "string" ? call.args.agent : undefined;
}

/**
 * Compares a record of tool calls (every call of the agents in `agents`) with the log, write by
 * write, by revision: every answered write that changed state is in the log at the revision its
 * answer gave, by its agent, of its type, with the verdicts it answered; no revision was answered
 * to two writes; and every event of those agents is such an answered write, or one of theirs whose
 * answer was lost (so a refused write never shows up, and none is applied twice).
 */
export function ledgerProblems(calls: TappedCall[], events: LoggedEvent[], agents: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const byRev = new Map(events.map((e) => [e.rev, e]));
  const explained = new Set<number>();
  const lostWrites = new Map<string, number>();
  for (const call of calls) {
    if (!["join", "reveal", "commit", "retract"].includes(call.tool)) continue;
    const what = `${call.caller} ${call.tool} ${JSON.stringify(call.args.intent ?? call.args.session ?? "")}`;
    if (call.outcome.kind === "lost") {
      const agent = typeof call.args.agent === "string" ? call.args.agent : `join:${call.caller}`;
      lostWrites.set(agent, (lostWrites.get(agent) ?? 0) + 1);
      continue;
    }
    if (call.outcome.isError) continue; // a refusal: it must not explain any event (checked below)
    const s = call.outcome.structured ?? {};
    if (call.tool === "join" ? s.changed === false : !changedState(call.tool, call.outcome)) continue;
    const agent = agentOf(call);
    const e = typeof s.revision === "number" ? byRev.get(s.revision) : undefined;
    if (!e) {
      if (call.tool !== "join" || s.changed === true) problems.push(`${what} was answered at revision ${String(s.revision)} but that revision is not in the log`);
      continue;
    }
    if (e.type !== call.tool || e.agent !== agent) {
      // A rejoin without a changed flag answers the current revision: not this agent's event.
      if (call.tool !== "join" || s.changed === true) problems.push(`${what} by ${agent} answered revision ${e.rev}, which the log gives to ${e.type} by ${e.agent}`);
      continue;
    }
    if (call.tool === "commit" && cellsOf(e.accepted) !== cellsOf(s.accepted)) problems.push(`${what}: accepted cells differ between answer and log (rev ${e.rev})`);
    if (explained.has(e.rev) && call.tool !== "join") problems.push(`revision ${e.rev} answered to two writes`);
    explained.add(e.rev);
  }
  const unexplained = new Map<string, number[]>();
  for (const e of events) {
    if (e.agent === undefined || !agents.has(e.agent) || explained.has(e.rev)) continue;
    const key = e.type === "join" ? `join:${e.agent}` : e.agent;
    unexplained.set(key, [...(unexplained.get(key) ?? []), e.rev]);
  }
  for (const [agent, revs] of unexplained) {
    if (agent.startsWith("join:")) continue; // joins are checked by seat below
    const lost = lostWrites.get(agent) ?? 0;
    if (revs.length > lost) problems.push(`${agent} has ${revs.length} logged writes no answer explains (revs ${revs.slice(0, 10).join(", ")}) and only ${lost} calls whose answer was lost`);
  }
  for (const agent of agents) {
    const joins = events.filter((e) => e.type === "join" && e.agent === agent).length;
    if (joins > 1) problems.push(`agent ${agent} has ${joins} join events`);
  }
  return problems;
}
