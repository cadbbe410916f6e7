import type { FieldView } from "./view";
import type { SceneTile } from "./scene";
import { keyboardFocusCell } from "./focus-cell";

export interface ControlHandlers {
  /** The pointer rests on a tile (or left it): show its details. */
  onHover(tile: SceneTile | null, clientX: number, clientY: number): void;
  /** A tap or click chose a tile (or empty space). */
  onSelect(tile: SceneTile | null): void;
  /** The keyboard's focus cell moved (or was set when the canvas took keyboard focus): read it out. */
  onFocusCell(cell: { x: number; y: number }): void;
}

const KEY_PAN_PX = 60;
const BUTTON_ZOOM = 1.5;
const TAP_SLOP_PX = 6;

/**
 * Pan and zoom with every input people use: one pointer drags, two pointers pinch around their
 * midpoint, the wheel zooms around the cursor (ctrl+wheel is a trackpad pinch and zooms finer),
 * Safari's gesture events pinch, arrow keys pan and +/−/0 zoom on the focused canvas, and the
 * buttons do the same for a single pointer (WCAG's dragging alternative). From the keyboard a
 * focus cell stands for the pointer: Shift+arrows move it a cell, Enter opens its tile's details.
 */
export function attachControls(view: FieldView, handlers: ControlHandlers): { zoomIn(): void; zoomOut(): void; fit(): void; pan(dx: number, dy: number): void } {
  const canvas = view.canvas;
  const cam = view.camera;
  const pointers = new Map<number, { x: number; y: number }>();
  let pinchDistance = 0;
  let downAt: { x: number; y: number } | null = null;
  let moved = false;

  const local = (e: { clientX: number; clientY: number }): { x: number; y: number } => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const midpointAndDistance = (): { mid: { x: number; y: number }; dist: number } => {
    const [a, b] = [...pointers.values()];
    return { mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, dist: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  canvas.addEventListener("pointerdown", (e) => {
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, local(e));
    if (pointers.size === 1) {
      downAt = local(e);
      moved = false;
    }
    if (pointers.size === 2) pinchDistance = midpointAndDistance().dist;
  });

  canvas.addEventListener("pointermove", (e) => {
    const p = local(e);
    const prev = pointers.get(e.pointerId);
    if (!prev) {
      if (e.pointerType === "mouse") {
        const tile = view.tileAtScreen(p.x, p.y) ?? null;
        if (tile !== view.hovered) {
          view.hovered = tile;
          view.invalidate();
        }
        handlers.onHover(tile, e.clientX, e.clientY);
      }
      return;
    }
    if (pointers.size === 1) {
      cam.panBy(p.x - prev.x, p.y - prev.y);
      if (downAt && Math.hypot(p.x - downAt.x, p.y - downAt.y) > TAP_SLOP_PX) moved = true;
    } else if (pointers.size === 2) {
      const before = midpointAndDistance();
      pointers.set(e.pointerId, p);
      const after = midpointAndDistance();
      cam.panBy(after.mid.x - before.mid.x, after.mid.y - before.mid.y);
      if (pinchDistance > 0 && after.dist > 0) cam.zoomAt(after.dist / pinchDistance, after.mid.x, after.mid.y);
      pinchDistance = after.dist;
      moved = true;
      view.invalidate();
      return;
    }
    pointers.set(e.pointerId, p);
    view.invalidate();
  });

  const release = (e: PointerEvent): void => {
    const wasTap = pointers.size === 1 && !moved && e.type === "pointerup";
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinchDistance = 0;
    if (wasTap) {
      const p = local(e);
      const tile = view.tileAtScreen(p.x, p.y) ?? null;
      view.selected = tile;
      view.invalidate();
      handlers.onSelect(tile);
    }
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("pointerleave", (e) => {
    if (e.pointerType === "mouse" && view.hovered) {
      view.hovered = null;
      view.invalidate();
      handlers.onHover(null, 0, 0);
    }
  });

  canvas.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      const p = local(e);
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      const k = e.ctrlKey ? 0.01 : 0.0025;
      cam.zoomAt(Math.exp(-e.deltaY * unit * k), p.x, p.y);
      view.invalidate();
    },
    { passive: false },
  );

  // Safari trackpad pinch (non-standard gesture events).
  let gestureScale = 1;
  canvas.addEventListener("gesturestart", (e) => {
    e.preventDefault();
    gestureScale = 1;
  });
  canvas.addEventListener("gesturechange", (e) => {
    e.preventDefault();
    const g = e as Event & { scale?: number; clientX?: number; clientY?: number };
    const scale = g.scale ?? 1;
    const p = local({ clientX: g.clientX ?? 0, clientY: g.clientY ?? 0 });
    cam.zoomAt(scale / gestureScale, p.x, p.y);
    gestureScale = scale;
    view.invalidate();
  });

  const centre = (): { x: number; y: number } => ({ x: cam.width / 2, y: cam.height / 2 });
  const actions = {
    zoomIn: () => {
      const c = centre();
      cam.zoomAt(BUTTON_ZOOM, c.x, c.y);
      view.invalidate();
    },
    zoomOut: () => {
      const c = centre();
      cam.zoomAt(1 / BUTTON_ZOOM, c.x, c.y);
      view.invalidate();
    },
    fit: () => view.fitShown(),
    pan: (dx: number, dy: number) => {
      cam.panBy(dx, dy);
      view.invalidate();
    },
  };

  const focus = keyboardFocusCell(view, handlers);
  const ARROWS: Record<string, [number, number] | undefined> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  canvas.addEventListener("keydown", (e) => {
    const arrow = ARROWS[e.key];
    const handled = (() => {
      if (arrow && e.shiftKey) {
        focus.moveBy(arrow[0], arrow[1]);
        return true;
      }
      if (arrow) {
        // The view moves under a focus cell that keeps its place on the screen.
        focus.keepingScreenSpot(() => actions.pan(-arrow[0] * KEY_PAN_PX, -arrow[1] * KEY_PAN_PX));
        return true;
      }
      switch (e.key) {
        case "+":
        case "=":
          focus.zoomAround(BUTTON_ZOOM);
          return true;
        case "-":
        case "_":
          focus.zoomAround(1 / BUTTON_ZOOM);
          return true;
        case "0":
          actions.fit();
          return true;
        case "Enter":
        case " ": {
          const tile = focus.tile();
          view.selected = tile;
          view.invalidate();
          handlers.onSelect(tile);
          return true;
        }
        case "Escape":
          view.selected = null;
          view.invalidate();
          handlers.onSelect(null);
          return true;
        default:
          return false;
      }
    })();
    if (handled) e.preventDefault();
  });
  return actions;
}
