// The public event log of a field (SPEC §9: GET /api/games/:id and /api/games/:id/events) and the
// checks the fault suites make on it: the hash chain from seed_commit, revisions rising by one, and
// a client-side record of answered writes (wire-tap.ts) matching the log write for write.
import { chainEventHash } from "../../../src/engine/commitments";
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
    const from = events.length === 0 ? 0 : events[events.length - 1].rev;
    const page = await getJson<{ events: LoggedEvent[] }>(`${baseUrl}/api/games/${encodeURIComponent(gameId)}/events?from=${from}`);
    const fresh = page.events.filter((e) => e.rev > from);
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

/**
 * Compares a record of tool calls with the log. Every answered write that changed state is in the
 * log exactly once, at the revision its answer gave, by its agent, with the verdicts it answered;
 * every refused or no-op write is absent; a write whose answer was lost is there at most once.
 * With `complete` (the record holds every writer's calls) the log holds nothing else.
 */
export function ledgerProblems(calls: TappedCall[], events: LoggedEvent[], options: { complete: boolean }): string[] {
  const problems: string[] = [];
  const byIntent = new Map<string, LoggedEvent[]>();
  for (const e of events) {
    if (e.intent === undefined) continue;
    const list = byIntent.get(e.intent) ?? [];
    list.push(e);
    byIntent.set(e.intent, list);
  }
  for (const [intent, list] of byIntent) if (list.length > 1) problems.push(`intent ${JSON.stringify(intent)} logged ${list.length} times (revs ${list.map((e) => e.rev).join(", ")})`);

  const sentIntents = new Set<string>();
  const answeredRevs = new Map<number, string>();
  const joinedAgents = new Set<string>();
  for (const call of calls) {
    if (call.tool === "join") {
      if (call.outcome.kind === "answered" && !call.outcome.isError) joinedAgents.add(String(call.outcome.structured?.agent));
      continue;
    }
    if (!["reveal", "commit", "retract"].includes(call.tool)) continue;
    const intent = typeof call.args.intent === "string" ? call.args.intent : undefined;
    if (intent === undefined) continue;
    sentIntents.add(intent);
    const logged = byIntent.get(intent) ?? [];
    const what = `${call.tool} ${JSON.stringify(intent)}`;
    if (call.outcome.kind === "lost") continue; // applied or not: at most once, checked above
    if (call.outcome.isError) {
      if (logged.length > 0) problems.push(`${what} was refused (${call.outcome.errorCode}) but is logged at rev ${logged[0].rev}`);
      continue;
    }
    const s = call.outcome.structured ?? {};
    if (!changedState(call.tool, call.outcome)) {
      if (logged.length > 0) problems.push(`${what} changed nothing by its answer but is logged at rev ${logged[0].rev}`);
      continue;
    }
    const e = logged[0];
    if (!e) {
      problems.push(`${what} was answered at revision ${String(s.revision)} but is not in the log`);
      continue;
    }
    if (e.rev !== s.revision) problems.push(`${what}: answered revision ${String(s.revision)}, logged at ${e.rev}`);
    if (e.type !== call.tool || e.agent !== call.args.agent) problems.push(`${what}: logged as ${e.type} by ${e.agent}`);
    if (call.tool === "commit" && cellsOf(e.accepted) !== cellsOf(s.accepted)) problems.push(`${what}: accepted cells differ between answer and log`);
    const other = answeredRevs.get(e.rev);
    if (other !== undefined) problems.push(`revision ${e.rev} answered to two writes: ${other} and ${what}`);
    answeredRevs.set(e.rev, what);
  }
  for (const agent of joinedAgents) {
    const joins = events.filter((e) => e.type === "join" && e.agent === agent).length;
    if (joins !== 1) problems.push(`agent ${agent} joined (answered) but has ${joins} join events`);
  }
  if (options.complete) {
    for (const e of events) {
      if (e.type === "join" || e.type === "grow" || e.type === "close") continue;
      if (e.intent === undefined || !sentIntents.has(e.intent)) problems.push(`rev ${e.rev}: ${e.type} by ${e.agent} with intent ${JSON.stringify(e.intent)} was never sent by a recorded client`);
    }
  }
  return problems;
}
