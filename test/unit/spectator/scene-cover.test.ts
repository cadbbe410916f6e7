import { beforeAll, describe, expect, it } from "vitest";
import { generateField } from "../../../src/engine";
import { modelAtStart, type PublicEvent, type SpectatorModel } from "../../../src/spectator";
import { colourMachines } from "../../../src/site/palette";
import type { FieldScene as FieldSceneType, TileShape } from "../../../src/site/field/scene";
import type { FieldRules } from "../../../src/referee/types";
import { playDay } from "./play-day";
import { provideImageData } from "./node-image-data";
import { sceneDifferences } from "../../../src/site/field/scene-diff";

/**
 * A cell shared by two solved tiles shows one solver's colour. The live page paints solves as
 * they come and rebuilds the scene from the model on a resync or a reload: both must pick the
 * same tile for every cell, whatever order the solves came in (a page left open drifted).
 */


let FieldScene: typeof FieldSceneType;
let sceneFromModel: (model: SpectatorModel) => FieldSceneType;
let syncEvent: (scene: FieldSceneType, model: SpectatorModel, event: PublicEvent, newlyVisible: Iterable<number>) => void;
let syncTiles: (scene: FieldSceneType, model: SpectatorModel, ids: Iterable<number>) => void;

beforeAll(async () => {
  provideImageData();
  ({ FieldScene } = await import("../../../src/site/field/scene"));
  ({ sceneFromModel, syncEvent, syncTiles } = await import("../../../src/site/field/model-scene"));
});

/** Pixels and shown tiles of each cell (the tiles' own list is the same by construction). */
function differences(shown: FieldSceneType, rebuilt: FieldSceneType): { pixels: number; cells: number } {
  const { pixels, cells } = sceneDifferences(shown, rebuilt);
  return { pixels, cells };
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

describe("site: a shared cell's owner does not depend on the order of events", () => {
  it("three overlapping tiles solved by three machines, in every order, equal the scene rebuilt in one pass", () => {
    const machines = ["m-one", "m-two", "m-three"];
    colourMachines(machines);
    // Tiles 0, 1 and 2 overlap pairwise and all three share the cells of column 3, rows 2–3.
    const shapes: TileShape[] = [
      { id: 0, x0: 0, y0: 0, w: 4, h: 4, rects: [[0, 0, 4, 4]], m: 3 },
      { id: 1, x0: 2, y0: 2, w: 4, h: 4, rects: [[0, 0, 4, 4]], m: 3 },
      { id: 2, x0: 3, y0: 1, w: 3, h: 3, rects: [[0, 0, 3, 3]], m: 3 },
    ];
    const solved = (i: number): TileShape & { status: "solved"; agent: string } => ({ ...shapes[i], status: "solved", agent: `${machines[i]}/1` });
    for (const order of permutations([0, 1, 2])) {
      const live = new FieldScene(8);
      for (const s of shapes) live.upsertTile({ ...s, status: "revealed", agent: null });
      for (let c = 0; c < 64; c++) live.setValue(c, c % 2);
      for (const i of order) live.upsertTile(solved(i));

      const rebuilt = new FieldScene(8);
      for (let i = 0; i < shapes.length; i++) rebuilt.tiles.set(shapes[i], "solved", `${machines[i]}/1`);
      const values = new Int8Array(64).map((_, c) => c % 2);
      rebuilt.loadCells(values);
      rebuilt.coverAll();
      expect(differences(live, rebuilt), `solved in the order ${order.join(", ")}`).toEqual({ pixels: 0, cells: 0 });
    }
  });

  it("a played day kept up event by event (as the live page and the replay do) equals the scene rebuilt from the model at every revision", async () => {
    const whole = await generateField({ kind: "scatter", G: 60, seed: "scene-cover" });
    const rules: FieldRules = { guess: "accept", depth: 1, fog: true };
    const day = playDay(whole, { rules, steps: 900, seed: 23 });
    const archive = { game_id: "scene-cover", G: whole.G, params: { rules }, seed_commit: day.seedCommit, tiles: whole.tiles, events: day.events };
    colourMachines([...new Set(day.events.flatMap((e) => (e.type === "join" ? [e.machine] : [])))]);

    const model = modelAtStart(archive);
    const live = sceneFromModel(model);
    let sharedBySolvers = 0;
    for (const e of day.events) {
      const newly = model.apply(e);
      syncEvent(live, model, e, newly);
      syncTiles(live, model, model.candidateTiles(e));
      if (e.rev % 25 === 0) expect(differences(live, sceneFromModel(model)), `at revision ${e.rev}`).toEqual({ pixels: 0, cells: 0 });
    }
    expect(differences(live, sceneFromModel(model))).toEqual({ pixels: 0, cells: 0 });

    // The day must hold cells shared by tiles of different solvers, or this proves nothing.
    for (let c = 0; c < whole.G * whole.G; c++) {
      const solvers = new Set(model.tilesAt(c).filter((t) => model.tileStatus[t] === 2).map((t) => model.solver[t]));
      if (solvers.size > 1) sharedBySolvers++;
    }
    expect(sharedBySolvers).toBeGreaterThan(20);
  });
});
