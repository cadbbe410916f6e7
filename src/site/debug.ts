import { FieldScene, type SceneTile } from "./field/scene";
import type { FieldView } from "./field/view";

/**
 * What the page exposes to its own tests and benchmarks on `window.mosaic`: the view (camera,
 * frame timing), the scene, and hooks the live page and the replay add (state digest, socket drop).
 */
export interface PageHandle {
  view?: FieldView;
  scene?: FieldScene;
  [hook: string]: unknown;
}

declare global {
  interface Window {
    mosaic?: PageHandle;
  }
}

export function pageHandle(): PageHandle {
  if (!window.mosaic) {
    const handle: PageHandle = {};
    handle.showScene = (input: SceneInput) => {
      const scene = sceneFrom(input);
      handle.scene = scene;
      handle.view?.setScene(scene);
    };
    window.mosaic = handle;
  }
  return window.mosaic;
}

/** A scene from plain tiles and known cells: lets a benchmark draw a large field without a server. */
export interface SceneInput {
  G: number;
  tiles: SceneTile[];
  /** Known cells as [cell id, value]. */
  known?: Array<[number, number]>;
  rejected?: number[];
}

export function sceneFrom(input: SceneInput): FieldScene {
  const scene = new FieldScene(input.G);
  for (const t of input.tiles) scene.upsertTile(t);
  for (const [c, v] of input.known ?? []) scene.setValue(c, v);
  for (const c of input.rejected ?? []) scene.markRejected(c);
  return scene;
}
