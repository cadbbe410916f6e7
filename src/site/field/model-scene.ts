import { decodeGaps, SOLVED, REVEALED, unpackCells, unpackTiles, type SpectatorModel, type PublicEvent, type SpectatorSnapshot, type TileGeometry } from "../../spectator";
import { FieldScene, type SceneTile, type TileStatus } from "./scene";

const STATUS: TileStatus[] = ["hidden", "revealed", "solved"];

/** The scene's view of one tile of the model (geometry, status, solver agent id). */
export function sceneTile(model: SpectatorModel, geometry: TileGeometry): SceneTile {
  const status = model.tileStatus[geometry.id];
  const solver = model.solver[geometry.id];
  return sceneTileOf(geometry, STATUS[status] ?? "hidden", status === SOLVED && solver >= 0 ? model.agents[solver].id : null);
}

function overlapFree(t: TileGeometry): boolean {
  return t.rects.length === 1;
}

function countCells(t: TileGeometry): number {
  const mask = new Uint8Array(t.w * t.h);
  for (const [lx, ly, w, h] of t.rects) for (let y = ly; y < ly + h; y++) mask.fill(1, y * t.w + lx, y * t.w + lx + w);
  let n = 0;
  for (const b of mask) n += b;
  return n;
}

/**
 * A scene straight from a snapshot's columns (docs/spectator.md), before any model exists: the
 * first paint of a large field need not wait for the reducer's indexes. It decodes the format and
 * applies no event; the model built next is the state the page keeps.
 */
export function sceneFromSnapshot(snapshot: SpectatorSnapshot): FieldScene {
  const scene = new FieldScene(snapshot.G);
  const size = snapshot.G * snapshot.G;
  const rejected = new Uint8Array(size);
  for (const c of decodeGaps(snapshot.rejected.wrong)) rejected[c] = 1;
  for (const c of decodeGaps(snapshot.rejected.guess)) rejected[c] = 1;
  scene.loadCells(unpackCells(snapshot.known, size), rejected);
  const geometry = unpackTiles(snapshot.tiles);
  const byRank: SceneTile[][] = [[], [], []];
  geometry.forEach((g, i) => {
    const rank = "hrs".indexOf(snapshot.tiles.status[i]);
    const solver = snapshot.tiles.solver[i];
    const tile = sceneTileOf(g, STATUS[rank] ?? "hidden", rank === SOLVED && solver >= 0 ? (snapshot.agents[solver]?.id ?? null) : null);
    byRank[Math.max(0, rank)].push(tile);
  });
  scene.bulkLoad(byRank.flat());
  return scene;
}

function sceneTileOf(geometry: TileGeometry, status: TileStatus, agent: string | null): SceneTile {
  let cells = 0;
  for (const r of geometry.rects) cells += r[2] * r[3];
  return {
    id: geometry.id,
    x0: geometry.x0,
    y0: geometry.y0,
    w: geometry.w,
    h: geometry.h,
    rects: geometry.rects,
    cells: overlapFree(geometry) ? cells : countCells(geometry),
    m: geometry.m,
    status,
    agent,
  };
}

/** A scene holding everything the model lets this spectator see. */
export function sceneFromModel(model: SpectatorModel): FieldScene {
  const scene = new FieldScene(model.G);
  scene.loadCells(model.known, model.rejected);
  // Hidden first, then revealed, then solved: a shared cell shows its most advanced tile.
  const visible = model.visibleTiles();
  const tiles: SceneTile[] = [];
  for (const rank of [0, REVEALED, SOLVED]) {
    for (const id of visible) {
      if (model.tileStatus[id] !== rank) continue;
      const geometry = model.tile(id);
      if (geometry) tiles.push(sceneTile(model, geometry));
    }
  }
  scene.bulkLoad(tiles);
  return scene;
}

/**
 * Brings the scene up to date after the model applied `event`: the tiles and cells the event
 * names, and the tiles that became visible with it (`newlyVisible`, or geometry that arrived).
 */
export function syncEvent(scene: FieldScene, model: SpectatorModel, event: PublicEvent, newlyVisible: Iterable<number>): void {
  const tiles = new Set<number>(newlyVisible);
  const cells: number[] = [];
  switch (event.type) {
    case "join":
      if (event.seed_tile !== null) tiles.add(event.seed_tile);
      break;
    case "reveal":
      tiles.add(event.tile);
      for (const t of event.solved) tiles.add(t);
      for (const [c] of event.givens ?? []) cells.push(c);
      break;
    case "commit":
      for (const t of event.solved) tiles.add(t);
      for (const a of event.accepted) cells.push(a.id);
      for (const r of event.rejected) cells.push(r.id);
      break;
    case "retract":
      cells.push(...event.retracted);
      break;
    case "grow":
      for (let t = event.first_tile; t < event.first_tile + event.tiles; t++) tiles.add(t);
      break;
    default:
      break;
  }
  syncTiles(scene, model, tiles);
  for (const c of cells) syncCell(scene, model, c);
}

export function syncTiles(scene: FieldScene, model: SpectatorModel, ids: Iterable<number>): void {
  for (const id of ids) {
    if (!model.visible(id)) continue;
    const geometry = model.tile(id);
    if (geometry) scene.upsertTile(sceneTile(model, geometry));
  }
}

export function syncCell(scene: FieldScene, model: SpectatorModel, cell: number): void {
  const v = model.known[cell];
  scene.setValue(cell, v < 0 ? null : v);
  scene.setRejected(cell, model.rejected[cell] !== 0 && v < 0);
}
