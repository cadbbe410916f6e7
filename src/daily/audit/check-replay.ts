/**
 * Check 5 (SPEC §9): the log replayed through the real referee reproduces every event byte for
 * byte (canonical JSON, `prev`/`hash` aside) — every verdict, class, reward, meeting and health
 * summary — and then the final tile statuses and solvers, scores and health.
 *
 * Each write's input is rebuilt from its event (docs/audit.md):
 * - join: the seat details the event records (machine, session, name, model, harness, source, tags, verified);
 * - reveal: the tile and intent;
 * - commit: the cells in the event's input order (`cells`), each with the value it must have had:
 *   an accepted cell's value from the event, a wrong cell the opposite of the solution, a rejected
 *   guess the solution; an ignored or unevaluated cell was never judged on its value, so the
 *   solution's value stands in for it;
 * - retract: the retracted cells, then the ignored ones (a retract's verdicts do not depend on
 *   the order beyond repeated ids, which stay in order);
 * - grow: the ring's tiles from the archive (identical to the regenerated ones by check 2);
 * - close: the close.
 * The rebuilt inputs go through `applyLogged`, the same step the field object replays its stored
 * inputs with. `expected_revision` is not logged (a write that conflicted was refused and left no event), so
 * each write is replayed against the revision it was applied at.
 */
import { canonicalJson } from "../../engine/canonical-json";
import { Referee } from "../../referee";
import type { Field } from "../../engine/types";
import { applyLogged, type LoggedInput } from "../../referee/logged-input";
import type { RefereeEvent } from "../../referee/types";
import { archiveHealth, archiveScores, type ArchiveEvent } from "../archive/format";
import type { AuditedArchive } from "./event-log";
import { consistentArchiveField } from "./archive-field";
import { clipped, mismatch, shown, type Progress } from "./mismatch";
import { counted } from "../../text/wording";
import { Breather } from "./abort";

export async function checkReplay(archive: AuditedArchive, progress?: Progress, signal?: AbortSignal): Promise<string> {
  const { field, initialTiles } = consistentArchiveField(archive);
  const referee = new Referee({
    gameId: archive.game_id,
    seed: archive.day_seed,
    field: { G: field.G, tiles: field.tiles.slice(0, initialTiles), solution: field.solution },
    rules: archive.params.rules,
  });
  const events = archive.events;
  // Let the host breathe on long logs (progress, a cancel, the regeneration's workers).
  const breather = new Breather(signal);
  for (let i = 0; i < events.length; i++) {
    const archived = events.at(i)!;
    const replayed = replayOne(referee, archived, field);
    compareEvent(archived, replayed);
    if ((i & 63) === 63) {
      progress?.("replay", i + 1, events.length);
      await breather.tick();
    }
  }
  progress?.("replay", events.length, events.length);

  for (const row of archive.tiles) {
    const s = referee.tileStatus(row.id);
    if (!s) throw mismatch(`tile ${row.id}: the replay never created it (no grow event brought it)`, { tile: row.id, field: "status" });
    if (s.status !== row.status) throw mismatch(`tile ${row.id}: status is ${row.status} in the archive, ${s.status} after the replay`, { tile: row.id, field: "status" });
    if (s.agent !== row.agent) throw mismatch(`tile ${row.id}: solver is ${shown(row.agent)} in the archive, ${shown(s.agent)} after the replay`, { tile: row.id, field: "agent" });
  }
  compareRows("scores", archive.scores, archiveScores(referee));
  compareRows("health", archive.health, archiveHealth(referee));
  const machines = archive.scores.length;
  return `${events.length} events reproduced by the referee; tile statuses, scores and health of ${counted(machines, "machine")} equal`;
}

function machineOf(agent: unknown): string {
  const a = String(agent);
  const slash = a.indexOf("/");
  return slash < 0 ? a : a.slice(0, slash);
}

/** Applies one archived event's state change to the referee and returns the event it produced. */
function replayOne(referee: Referee, e: ArchiveEvent, field: Field): RefereeEvent {
  const result = applyLogged(referee, field, loggedInput(e, field, referee.revision), e.at);
  if (!result.ok) {
    throw mismatch(`event ${e.rev} (${e.type}): the referee refuses this write on replay (${result.error.code}: ${result.error.message})`, { rev: e.rev, field: "type" });
  }
  if (!result.event) throw mismatch(`event ${e.rev} (${e.type}): on replay this write changes nothing, yet the archive logs it`, { rev: e.rev, field: "type" });
  return result.event;
}

/** The logged state change that produced an archived event (see the file comment). */
export function loggedInput(e: ArchiveEvent, field: Field, revision: number): LoggedInput {
  const rev = e.rev;
  const solution = field.solution;
  if (e.type === "close") return { type: "close" };
  if (e.type === "grow") {
    const first = e.first_tile as number;
    const count = e.tiles as number;
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || first < 0 || count < 0 || first + count > field.tiles.length) {
      throw mismatch(`event ${rev} (grow): tiles ${String(first)}+${String(count)} are not in the archive`, { rev, field: "tiles" });
    }
    return { type: "grow", ring: e.ring as number, first, count };
  }
  const agent = e.agent as string;
  const base = { machineId: machineOf(agent), agent, expectedRevision: revision, intent: e.intent as string };
  switch (e.type) {
    case "join":
      return {
        type: "join",
        machineId: e.machine as string,
        session: e.session as string,
        name: e.name as string,
        model: e.model as string,
        harness: e.harness as string,
        harnessSource: e.harness_source as "transport" | "argument" | "unknown",
        tags: e.tags as Record<string, string>,
        verified: e.verified as boolean,
      };
    case "reveal":
      return { type: "reveal", ...base, tile: e.tile as number };
    case "commit": {
      if (!Array.isArray(e.cells)) throw mismatch(`event ${rev} (commit): no cells list (the batch's input order)`, { rev, field: "cells" });
      const accepted = new Map<number, 0 | 1>();
      for (const a of list(e, "accepted")) if (!accepted.has(a.id as number)) accepted.set(a.id as number, a.v as 0 | 1);
      const rejected = new Map<number, unknown>();
      for (const r of list(e, "rejected")) if (!rejected.has(r.id as number)) rejected.set(r.id as number, r.reason);
      const cells: Array<[number, 0 | 1]> = (e.cells as number[]).map((id) => {
        const truth = (solution[id] ?? 0) as 0 | 1;
        const v = accepted.get(id);
        if (v !== undefined) return [id, v];
        const reason = rejected.get(id);
        if (reason === "wrong") return [id, (1 - truth) as 0 | 1];
        return [id, truth];
      });
      return { type: "commit", ...base, cells };
    }
    case "retract":
      return { type: "retract", ...base, cells: [...(e.retracted as number[]), ...list(e, "ignored").map((i) => i.id as number)] };
    default:
      throw mismatch(`event ${rev}: unknown type ${JSON.stringify(e.type)}`, { rev, field: "type" });
  }
}

function list(e: ArchiveEvent, key: string): Array<Record<string, unknown>> {
  const v = e[key];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "object" || x === null)) throw mismatch(`event ${e.rev} (${e.type}): ${key} is not a list of objects`, { rev: e.rev, field: key });
  return v as Array<Record<string, unknown>>;
}

/** The archived event without its chain fields against the replayed one, naming the first differing field. */
function compareEvent(archived: ArchiveEvent, replayed: RefereeEvent): void {
  const { prev: _prev, hash: _hash, ...stored } = archived;
  if (sameJson(stored, replayed)) return;
  const rev = archived.rev;
  const keys = [...new Set([...Object.keys(stored), ...Object.keys(replayed)])].sort();
  for (const key of keys) {
    const x = safeCanonical(stored[key]);
    const y = safeCanonical((replayed as Record<string, unknown>)[key]);
    if (x !== y) {
      // Down to the first differing leaf, both sides in canonical key order, so the difference is in view.
      const d = firstDifference(stored[key], (replayed as Record<string, unknown>)[key], key);
      throw mismatch(`event ${rev} (${archived.type}): ${d.path} differs from the replay: archive ${shownCanonical(d.archived)}, replay ${shownCanonical(d.replayed)}`, { rev, field: key });
    }
  }
  throw mismatch(`event ${rev} (${archived.type}) differs from the replay`, { rev, field: "event" });
}

/**
 * Equality of JSON data as canonical JSON sees it (key order aside; a key holding `undefined` is
 * absent), without building the texts: the replay compares every event of the day.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const key in x) {
    if (x[key] === undefined) continue;
    n++;
    if (!sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (y[key] !== undefined) n--;
  return n === 0;
}

/** The first place (`accepted[3].rule`) where two JSON values differ, and the two values there. */
export function firstDifference(archived: unknown, replayed: unknown, path: string): { path: string; archived: unknown; replayed: unknown } {
  if (Array.isArray(archived) && Array.isArray(replayed)) {
    for (let i = 0; i < Math.min(archived.length, replayed.length); i++) {
      if (safeCanonical(archived[i]) !== safeCanonical(replayed[i])) return firstDifference(archived[i], replayed[i], `${path}[${i}]`);
    }
    if (archived.length !== replayed.length) return { path: `${path}.length`, archived: archived.length, replayed: replayed.length };
  } else if (isPlainObject(archived) && isPlainObject(replayed)) {
    for (const k of [...new Set([...Object.keys(archived), ...Object.keys(replayed)])].sort()) {
      if (safeCanonical(archived[k]) !== safeCanonical(replayed[k])) return firstDifference(archived[k], replayed[k], `${path}.${k}`);
    }
  }
  return { path, archived, replayed };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function shownCanonical(v: unknown, max = 160): string {
  return clipped(v === undefined ? "(absent)" : safeCanonical(v), max);
}

function safeCanonical(v: unknown): string {
  if (v === undefined) return "undefined";
  try {
    return canonicalJson(v);
  } catch {
    return `not canonical: ${String(v)}`;
  }
}

function compareRows(name: "scores" | "health", archived: readonly object[], replayed: readonly object[]): void {
  const n = Math.max(archived.length, replayed.length);
  for (let i = 0; i < n; i++) {
    const a = archived[i] as Record<string, unknown> | undefined;
    const b = replayed[i] as Record<string, unknown> | undefined;
    if (safeCanonical(a) === safeCanonical(b)) continue;
    const machine = String((a ?? b)?.machine);
    if (!a || !b) throw mismatch(`${name}: machine ${machine} is ${a ? "in the archive only" : "missing from the archive"}`, { field: name });
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (safeCanonical(a[key]) !== safeCanonical(b[key])) {
        throw mismatch(`${name}: machine ${machine}: ${key} is ${shown(a[key])} in the archive, ${shown(b[key])} after the replay`, { field: `${name}.${key}` });
      }
    }
  }
}
