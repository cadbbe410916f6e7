import type { PublicEvent, SpectatorModel } from "../../spectator";
import { died, meetings } from "../events";
import type { FieldBox } from "../field/camera";
import type { FieldScene } from "../field/scene";
import type { FieldMarker, RingBox } from "../field/marks";
import { machineOf } from "../palette";

/** The centre of a tile's box, in field coordinates. */
function centre(scene: FieldScene, id: number): { x: number; y: number } | null {
  const t = scene.tiles.get(id);
  return t ? { x: t.x0 + t.w / 2, y: t.y0 + t.h / 2 } : null;
}

/**
 * Marks for the meetings and the death an event reports, where they happened. `since` is when the
 * mark appeared (now for an event just received; earlier for one read back from the log).
 */
export function markersFor(model: SpectatorModel, scene: FieldScene, e: PublicEvent, nameOf: (machine: string) => string, since = performance.now()): FieldMarker[] {
  const out: FieldMarker[] = [];
  const agent = "agent" in e ? e.agent : undefined;
  if (!agent) return out;
  const who = nameOf(machineOf(agent));
  const solved = e.type === "commit" || e.type === "reveal" ? e.solved : [];
  for (const group of meetings(e)) {
    const at = (solved.length ? centre(scene, solved[solved.length - 1]) : null) ?? (e.type === "reveal" ? centre(scene, e.tile) : null);
    const names = [...new Set(group.map((a) => nameOf(machineOf(a))))].join(", ");
    if (at) out.push({ kind: "meet", ...at, label: `${who} met ${names}`, rev: e.rev, since });
  }
  if (died(e) && e.type === "commit") {
    const cell = e.rejected.length ? e.rejected[e.rejected.length - 1].id : e.accepted.length ? e.accepted[e.accepted.length - 1].id : -1;
    const seed = model.agent(agent)?.seed;
    const at = cell >= 0 ? { x: (cell % model.G) + 0.5, y: Math.floor(cell / model.G) + 0.5 } : seed !== null && seed !== undefined ? centre(scene, seed) : null;
    if (at) out.push({ kind: "death", ...at, label: `${who} died`, rev: e.rev, since });
  }
  return out;
}

/** The box around those of `ids` the scene holds, or null when it holds none of them. */
function tilesBox(scene: FieldScene, ids: Iterable<number>): FieldBox | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const t = scene.tiles;
  for (const id of ids) {
    if (!t.has(id)) continue;
    x0 = Math.min(x0, t.x0[id]);
    y0 = Math.min(y0, t.y0[id]);
    x1 = Math.max(x1, t.x0[id] + t.w[id]);
    y1 = Math.max(y1, t.y0[id] + t.h[id]);
  }
  return x1 > x0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/** The bounding box of every drawn tile (under fog: the reached part), with a margin. */
export function reachedBox(scene: FieldScene): FieldBox | null {
  const box = tilesBox(scene, scene.tiles.keys());
  if (!box) return null;
  const margin = Math.max(8, box.w * 0.1);
  return { x: box.x - margin, y: box.y - margin, w: box.w + 2 * margin, h: box.h + 2 * margin };
}

/**
 * The revisions of every event that left a mark (meetings and deaths), from the model alone: a
 * page opened after them fetches those events and marks them as a page watching live did.
 */
export function markedRevisions(model: SpectatorModel): number[] {
  const revs = new Set<number>(model.meetings.map((m) => m.rev));
  for (const m of model.machines) if (m.died_rev !== null && m.died_rev !== undefined) revs.add(m.died_rev);
  return [...revs].sort((a, b) => a - b);
}

/** Marks of past events, aged by how long before the model's newest event they happened. */
export function pastMarkers(model: SpectatorModel, scene: FieldScene, events: readonly PublicEvent[], nameOf: (machine: string) => string): FieldMarker[] {
  const now = performance.now();
  return events.flatMap((e) => markersFor(model, scene, e, nameOf, now - Math.max(0, model.updatedAt - e.at)));
}

/**
 * Every ring the field grew, framed around its tiles the page can draw (under fog: those reached
 * so far). From the model's rings, so a page opened late marks the same rings as one that watched.
 */
export function ringBoxes(model: SpectatorModel, scene: FieldScene): RingBox[] {
  return model.rings.flatMap((r) => {
    const box = tilesBox(scene, idRange(r.first_tile, r.tiles));
    return box ? [{ ring: r.ring, ...box }] : [];
  });
}

function* idRange(first: number, count: number): Generator<number> {
  for (let id = first; id < first + count; id++) yield id;
}
