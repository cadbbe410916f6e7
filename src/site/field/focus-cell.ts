import type { SceneTile } from "./scene";
import type { FieldView } from "./view";

export interface FocusCellControls {
  /** Moves the focus cell by whole cells, panning the view when it would leave it. */
  moveBy(dx: number, dy: number): void;
  /** Runs a pan, then takes as focus cell the one now at the focus cell's former place on the screen. */
  keepingScreenSpot(pan: () => void): void;
  /** Zooms by `factor` around the focus cell. */
  zoomAround(factor: number): void;
  /** The tile the focus cell shows, if any. */
  tile(): SceneTile | null;
}

/**
 * The keyboard's stand-in for the pointer on the field canvas: one cell, drawn outlined while the
 * canvas has keyboard focus, read out (through `onFocusCell`) whenever it changes. It starts at
 * the cell in the middle of the view when the canvas takes focus from the keyboard.
 */
export function keyboardFocusCell(view: FieldView, handlers: { onFocusCell(cell: { x: number; y: number }): void }): FocusCellControls {
  const { canvas, camera: cam } = view;
  const clampCell = (v: number): number => Math.min(view.scene.G - 1, Math.max(0, Math.floor(v)));
  const set = (fx: number, fy: number, always = false): void => {
    const x = clampCell(fx);
    const y = clampCell(fy);
    const was = view.focusCell;
    if (!always && was && was.x === x && was.y === y) return;
    view.focusCell = { x, y };
    view.invalidate();
    handlers.onFocusCell(view.focusCell);
  };
  const screenOf = (c: { x: number; y: number }): { x: number; y: number } => cam.toScreen(c.x + 0.5, c.y + 0.5);
  const onScreen = (c: { x: number; y: number }): boolean => {
    const p = screenOf(c);
    return p.x >= 0 && p.y >= 0 && p.x <= cam.width && p.y <= cam.height;
  };
  const ensure = (): { x: number; y: number } => {
    view.showFocus = true;
    if (!view.focusCell || !onScreen(view.focusCell)) {
      const c = cam.toField(cam.width / 2, cam.height / 2);
      set(c.x, c.y, true);
    }
    return view.focusCell!;
  };
  const keepInView = (c: { x: number; y: number }): void => {
    const p = screenOf(c);
    const margin = Math.min(48, cam.width / 4, cam.height / 4);
    const dx = p.x < margin ? margin - p.x : p.x > cam.width - margin ? cam.width - margin - p.x : 0;
    const dy = p.y < margin ? margin - p.y : p.y > cam.height - margin ? cam.height - margin - p.y : 0;
    if (dx || dy) cam.panBy(dx, dy);
    view.invalidate();
  };

  canvas.addEventListener("focus", () => {
    // A click focuses the canvas too; only the keyboard's focus shows (and says) the focus cell.
    if (!canvas.matches(":focus-visible")) return;
    view.showFocus = true;
    const c = view.focusCell && onScreen(view.focusCell) ? view.focusCell : cam.toField(cam.width / 2, cam.height / 2);
    set(c.x, c.y, true);
  });
  canvas.addEventListener("blur", () => {
    view.showFocus = false;
    view.invalidate();
  });

  return {
    moveBy(dx, dy) {
      const c = ensure();
      set(c.x + dx, c.y + dy);
      keepInView(view.focusCell!);
    },
    keepingScreenSpot(pan) {
      const p = screenOf(ensure());
      pan();
      const f = cam.toField(p.x, p.y);
      set(f.x, f.y);
    },
    zoomAround(factor) {
      const p = screenOf(ensure());
      cam.zoomAt(factor, p.x, p.y);
      view.invalidate();
    },
    tile() {
      const c = ensure();
      return view.scene.tileAt(c.x, c.y) ?? null;
    },
  };
}
