import { SOLVED, unpackCellsInto, type SpectatorModel, type PublicEvent, type SpectatorSnapshot, type TileGeometry } from "../../spectator";
import { FieldScene, type SceneTile, type TileStatus } from "./scene";

const STATUS: TileStatus[] = ["hidden", "revealed", "solved"];

/** The scene's view of one tile of the model (geometry, status, solver agent id). */
export function sceneTile(model: SpectatorModel, geometry: TileGeometry): Omit<SceneTile, "cells"> {
  const status = model.tileStatus[geometry.id];
  const solver = model.solver[geometry.id];
  return { ...geometry, status: STATUS[status] ?? "hidden", agent: status === SOLVED && solver >= 0 ? model.agents[solver].id : null };
}

/**
 * A scene straight from a snapshot's columns (docs/spectator.md), before any model exists: the
 * first paint of a large field waits for typed-array writes only (no object per tile, no reducer
 * indexes). It decodes the format and applies no event; the model built next is the state the
 * page keeps.
 */
export function sceneFromSnapshot(snapshot: SpectatorSnapshot, timings: Record<string, number> = {}): FieldScene {
  let t = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    timings[name] = now - t;
    t = now;
  };
  const scene = new FieldScene(snapshot.G);
  lap("arrays");
  unpackCellsInto(snapshot.known, scene.cellValue);
  scene.loadRejectedGaps(snapshot.rejected.wrong);
  scene.loadRejectedGaps(snapshot.rejected.guess);
  lap("cells");
  scene.tiles.loadColumns(snapshot.tiles, snapshot.agents.map((a) => a.id));
  lap("tiles");
  scene.coverAll(timings);
  return scene;
}

/** A scene holding everything the model lets this spectator see. */
export function sceneFromModel(model: SpectatorModel): FieldScene {
  const scene = new FieldScene(model.G);
  scene.loadCells(model.known, model.rejected);
  for (let id = 0; id < model.tilesTotal; id++) {
    if (!model.visible(id)) continue;
    const geometry = model.tile(id);
    if (!geometry) continue;
    const status = model.tileStatus[id];
    const solver = model.solver[id];
    scene.tiles.set(geometry, STATUS[status] ?? "hidden", status === SOLVED && solver >= 0 ? model.agents[solver].id : null);
  }
  scene.coverAll();
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
