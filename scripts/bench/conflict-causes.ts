// Why writes were refused as `conflict` in a load scenario, read from the wire record alone. A
// conflict names the cells and tiles that changed after the write's expected_revision (SPEC
// §4.9); every accepted write's answer carries its revision, so the write that changed each of
// them is found by revision, and its author is compared with the refused writer: the same group
// or another, the same cells committed twice or a tile revealed or solved meanwhile, a seam cell
// (in several tiles) or an inner one. The load benchmark prints the tally; the reference agent's
// sharing rules (agent/share.ts) are tuned against it.
import { shapeCellIds, type Rect } from "../../src/engine";
import { isRecord } from "../../src/referee/validate";
import type { TappedCall } from "../../test/support/wire-tap";

type Json = Record<string, unknown>;

/** What one accepted write changed, at its revision. */
interface Change {
  agent: string;
  tool: string;
  /** Cells that became known (accepted commits, a reveal's givens) or were retracted. */
  cells: Set<number>;
  revealed: number | null;
  solved: Set<number>;
}

export interface ConflictCauses {
  conflicts: number;
  /** Per cause (a conflict counts once, under its first cause below), then per tool. */
  causes: Record<string, number>;
  tools: Record<string, number>;
  /** Changed cells that lie in several tiles (seams), and in one tile only. */
  seamCells: number;
  innerCells: number;
  /** Cells the agents sent that the server already held (`ignored: known`): duplicated work that was not refused. */
  duplicateCells: number;
  /** Commits that changed nothing (every cell ignored). */
  emptyCommits: number;
}

const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : []);

/** Classifies every conflict among `calls` (in the order they were sent), for fields of side `G`. */
export function conflictCauses(calls: readonly TappedCall[], G: number): ConflictCauses {
  const changes = new Map<string, Change>(); // game/revision → change
  const groupOf = new Map<string, string>();
  const cover = new Map<string, number>(); // game/cell → how many tiles hold it
  const seenTiles = new Set<string>();
  const out: ConflictCauses = { conflicts: 0, causes: {}, tools: {}, seamCells: 0, innerCells: 0, duplicateCells: 0, emptyCommits: 0 };
  // Groups merge during play: each conflict is judged with the groups as last observed before it.
  const conflicts: Array<{ call: TappedCall; groups: Map<string, string> }> = [];

  const addTile = (game: string, t: Json): void => {
    const id = typeof t.id === "number" ? t.id : typeof t.tile === "number" ? t.tile : null;
    if (id === null || !Array.isArray(t.rects) || seenTiles.has(`${game}/${id}`)) return;
    seenTiles.add(`${game}/${id}`);
    const shape = { id, x0: Number(t.x0), y0: Number(t.y0), w: Number(t.w), h: Number(t.h), rects: t.rects as Rect[] };
    for (const c of shapeCellIds(shape, G)) cover.set(`${game}/${c}`, (cover.get(`${game}/${c}`) ?? 0) + 1);
  };

  for (const call of calls) {
    if (call.outcome.kind !== "answered") continue;
    const game = String(call.args.game_id ?? "");
    const agent = String(call.args.agent ?? "");
    const data = call.outcome.structured;
    if (call.outcome.errorCode === "conflict") {
      conflicts.push({ call, groups: new Map(groupOf) });
      continue;
    }
    if (call.outcome.isError || !data) continue;
    if (call.tool === "observe" && isRecord(data.observation)) {
      const o = data.observation;
      for (const a of Array.isArray(o.agents) ? o.agents : []) if (isRecord(a) && typeof a.id === "string") groupOf.set(a.id, String(a.group ?? a.id));
      for (const t of Array.isArray(o.tiles) ? o.tiles : []) if (isRecord(t)) addTile(game, t);
      continue;
    }
    if (call.tool === "commit") {
      const ignored = Array.isArray(data.ignored) ? data.ignored.filter(isRecord) : [];
      out.duplicateCells += ignored.filter((c) => c.reason === "known").length;
      const accepted = Array.isArray(data.accepted) ? data.accepted.filter(isRecord) : [];
      const rejected = Array.isArray(data.rejected) ? data.rejected : [];
      if (accepted.length === 0 && rejected.length === 0) out.emptyCommits++;
      if (accepted.length === 0) continue;
      changes.set(`${game}/${Number(data.revision)}`, {
        agent,
        tool: "commit",
        cells: new Set(accepted.map((c) => Number(c.id))),
        revealed: null,
        solved: new Set(numbers(data.solved)),
      });
    } else if (call.tool === "reveal") {
      addTile(game, data);
      const givens = Array.isArray(data.givens) ? data.givens.map((g) => Number((g as unknown[])[0])) : [];
      // A re-reveal is a read: its revision is the field's, not a change of its own.
      if (givens.length === 0 && numbers(data.solved).length === 0) continue;
      const key = `${game}/${Number(data.revision)}`;
      if (!changes.has(key)) changes.set(key, { agent, tool: "reveal", cells: new Set(givens), revealed: Number(data.tile), solved: new Set(numbers(data.solved)) });
    } else if (call.tool === "retract") {
      changes.set(`${game}/${Number(data.revision)}`, { agent, tool: "retract", cells: new Set(numbers(data.retracted)), revealed: null, solved: new Set() });
    }
  }

  for (const { call, groups } of conflicts) {
    const game = String(call.args.game_id ?? "");
    const me = String(call.args.agent ?? "");
    const err = call.outcome.kind === "answered" && isRecord(call.outcome.structured?.error) ? call.outcome.structured.error : {};
    const from = Number(call.args.expected_revision);
    const to = Number(err.revision);
    const cells = numbers(err.cells);
    const tiles = numbers(err.tiles);
    out.conflicts++;
    out.tools[call.tool] = (out.tools[call.tool] ?? 0) + 1;
    for (const c of cells) if ((cover.get(`${game}/${c}`) ?? 0) > 1) out.seamCells++;
    else out.innerCells++;
    const who = (w: Change): string => (w.agent === me ? "itself" : groups.get(w.agent) !== undefined && groups.get(w.agent) === groups.get(me) ? "a group mate" : "another group");
    let cause: string | null = null;
    for (let rev = from + 1; rev <= to && cause === null; rev++) {
      const w = changes.get(`${game}/${rev}`);
      if (!w) continue;
      const sameCells = cells.filter((c) => w.cells.has(c));
      if (w.tool === "commit" && sameCells.length > 0) {
        const seam = sameCells.some((c) => (cover.get(`${game}/${c}`) ?? 0) > 1);
        cause = `${who(w)} committed the same ${seam ? "seam " : ""}cells`;
      } else if (w.revealed !== null && (tiles.includes(w.revealed) || sameCells.length > 0)) {
        cause = `${who(w)} revealed a tile holding them`;
      } else if (tiles.some((t) => w.solved.has(t))) {
        cause = `${who(w)} solved a tile holding them`;
      } else if (sameCells.length > 0) {
        cause = `${who(w)} ${w.tool === "retract" ? "retracted" : "changed"} them`;
      }
    }
    if (cause === null) cause = from >= to ? "expected_revision ahead of the field" : "unattributed";
    out.causes[cause] = (out.causes[cause] ?? 0) + 1;
  }
  return out;
}

/** One line per cause, most frequent first. */
export function formatConflictCauses(c: ConflictCauses, writes: number): string[] {
  const pct = (n: number): string => (writes === 0 ? "0.0" : ((100 * n) / writes).toFixed(1));
  const lines = Object.entries(c.causes)
    .sort((a, b) => b[1] - a[1])
    .map(([cause, n]) => `  ${cause}: ${n} (${pct(n)} % of writes)`);
  lines.push(`  by tool: ${JSON.stringify(c.tools)}; changed cells on seams ${c.seamCells}, inside one tile ${c.innerCells}`);
  lines.push(`  not refused but duplicated: ${c.duplicateCells} cells sent that the server already held; ${c.emptyCommits} commits changed nothing`);
  return lines;
}
