import { FIELD_BACKGROUND, OVERLAY, machineColour, machineOf } from "../palette";
import { Camera, type FieldBox } from "./camera";
import { drawGrid, drawRejected, drawTileEdges, drawValues } from "./cell-overlays";
import { FrameTiming } from "./frame-timing";
import { MARKER_LIFETIME_MS, drawMarkers, drawRings, type FieldMarker, type RingBox } from "./marks";
import { tileOutline } from "./outline";
import type { FieldScene, SceneTile } from "./scene";
import { ZOOM } from "./zoom-levels";

/** Room a solver's label needs on a tile's largest rectangle, in screen pixels. */
const LABEL_MIN_WIDTH = 28;
const LABEL_MIN_HEIGHT = 16;

/**
 * Draws a FieldScene into a viewport-sized canvas: the scene's board canvas (one pixel per cell)
 * drawn with drawImage for the visible part only, then overlays in screen space. Draws in
 * requestAnimationFrame, and only when the camera, the scene or an overlay changed.
 */
export class FieldView {
  readonly camera: Camera;
  readonly seeds = new Set<number>();
  readonly frontier = new Set<number>();
  /** Each overlay set as one path (field coordinates), rebuilt when the set changes. */
  private readonly setPaths = new Map<Set<number>, { key: string; path: Path2D }>();
  rings: RingBox[] = [];
  markers: FieldMarker[] = [];
  hovered: SceneTile | null = null;
  selected: SceneTile | null = null;
  /** The keyboard's focus cell (src/site/field/focus-cell.ts), outlined while `showFocus`. */
  focusCell: { x: number; y: number } | null = null;
  showFocus = false;
  /** The page's own frame timing (read by the site's benchmarks and tests). */
  readonly timing = new FrameTiming();
  reducedMotion = false;
  /** Short labels for machines, shown on solved tiles when zoomed in. */
  labelFor: (machine: string) => string = (m) => m.slice(2, 4);

  private readonly ctx: CanvasRenderingContext2D;
  private readonly board: HTMLCanvasElement;
  private readonly boardCtx: CanvasRenderingContext2D;
  private readonly outlines = new Map<number, Path2D>();
  private frame = 0;
  /** The pending redraw of pulsing markers, if any. */
  private pulse: ReturnType<typeof setTimeout> | null = null;
  private drawnVersion = -1;
  private dpr = 1;
  private fitted = false;

  constructor(
    readonly canvas: HTMLCanvasElement,
    public scene: FieldScene,
  ) {
    const ctx = canvas.getContext("2d", { alpha: false });
    if (!ctx) throw new Error("canvas 2D is not available");
    this.ctx = ctx;
    this.board = document.createElement("canvas");
    const boardCtx = this.board.getContext("2d");
    if (!boardCtx) throw new Error("canvas 2D is not available");
    this.boardCtx = boardCtx;
    this.camera = new Camera(scene.G);
    this.setScene(scene);
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  /** Shows another scene (another field, or a replay rebuilt at an earlier revision). */
  setScene(scene: FieldScene, options: { keepCamera?: boolean } = {}): void {
    this.scene = scene;
    this.outlines.clear();
    this.setPaths.clear();
    this.timing.restart();
    this.board.width = scene.G;
    this.board.height = scene.G;
    this.boardCtx.putImageData(scene.image, 0, 0);
    scene.takeDirty();
    if (!options.keepCamera || this.camera.G !== scene.G) {
      this.camera.G = scene.G;
      this.fitted = false;
      this.fit();
    }
    this.drawnVersion = -1;
    this.invalidate();
  }

  fit(box?: FieldBox): void {
    this.camera.fit(box);
    this.fitted = true;
    this.invalidate();
  }

  /**
   * What ⤢ and the 0 key frame: the page's choice (under fog, the reached area: the rest of the
   * canvas is blank to a spectator), else the whole field. Following resumes from there.
   */
  fitTarget: () => FieldBox | null = () => null;

  fitShown(): void {
    this.fit(this.fitTarget() ?? undefined);
  }

  /** Fits `box` unless the spectator has panned or zoomed since the last fit (a growing reach stays in view). */
  follow(box: FieldBox): void {
    if (this.camera.following) this.fit(box);
  }

  /** Asks for a draw on the next animation frame (coalesced). */
  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws now if the scene changed since the last draw (used after a batch of events). */
  sceneChanged(): void {
    if (this.scene.version !== this.drawnVersion) this.invalidate();
  }

  tileAtScreen(sx: number, sy: number): SceneTile | undefined {
    const p = this.camera.toField(sx, sy);
    return this.scene.tileAt(Math.floor(p.x), Math.floor(p.y));
  }

  private resize(): void {
    const rect = this.canvas.getBoundingClientRect();
    this.dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width * this.dpr));
    const h = Math.max(1, Math.round(rect.height * this.dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.camera.resize(rect.width, rect.height);
    if (!this.fitted && rect.width > 1) this.fit();
    this.invalidate();
  }

  private draw(): void {
    const started = performance.now();
    const { ctx, camera, scene, dpr } = this;
    const dirty = scene.takeDirty();
    if (dirty) {
      const [x, y, w, h] = dirty;
      this.boardCtx.putImageData(scene.image, 0, 0, x, y, w, h);
    }
    this.drawnVersion = scene.version;

    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = FIELD_BACKGROUND;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);

    const [x0, y0, x1, y1] = camera.visibleCells();
    const s = camera.scale;
    // The field's extent, so holes and unreached space read as "inside the field".
    const o = camera.toScreen(0, 0);
    ctx.fillStyle = OVERLAY.fieldExtent;
    ctx.fillRect(o.x, o.y, scene.G * s, scene.G * s);
    if (x1 > x0 && y1 > y0) {
      ctx.imageSmoothingEnabled = s * dpr < 1;
      const d = camera.toScreen(x0, y0);
      ctx.drawImage(this.board, x0, y0, x1 - x0, y1 - y0, d.x, d.y, (x1 - x0) * s, (y1 - y0) * s);
    }
    ctx.strokeStyle = OVERLAY.fieldBorder;
    ctx.lineWidth = 1;
    ctx.strokeRect(o.x - 0.5, o.y - 0.5, scene.G * s + 1, scene.G * s + 1);

    drawRings(ctx, camera, this.rings);
    if (s >= ZOOM.grid) drawGrid(ctx, camera, x0, y0, x1, y1);
    if (s >= ZOOM.tileEdges) drawTileEdges(ctx, camera, scene, x0, y0, x1, y1);
    if (s >= ZOOM.rejectedMarks) drawRejected(ctx, camera, scene, x0, y0, x1, y1);
    if (s >= ZOOM.digits) drawValues(ctx, camera, scene, x0, y0, x1, y1);
    if (s >= ZOOM.solverLabels) this.drawSolverLabels(x0, y0, x1, y1);
    this.drawTileSet(this.frontier, OVERLAY.frontier, [4, 3], 1.5);
    this.drawTileSet(this.seeds, OVERLAY.seed, [], 2);
    this.drawSeedBadges();
    drawMarkers(ctx, camera, this.markers, this.reducedMotion);
    if (this.hovered) this.strokeTile(this.hovered, OVERLAY.hovered, [], 2.5);
    if (this.selected && this.selected !== this.hovered) this.strokeTile(this.selected, OVERLAY.selected, [], 2.5);
    if (this.showFocus && this.focusCell) this.drawFocusCell(this.focusCell);

    this.timing.drawn(started, scene.tiles.size > 0, () => this.scene === scene);
    // New markers pulse and fade to a steady dim mark: keep drawing while any is young (once a
    // second is enough when motion is reduced). They stay, as a page opened later shows them.
    // One timer at a time: a timer per draw started a new chain of redraws with every draw made
    // for another reason (a live batch, a pan), so a young marker drew many times per 100 ms.
    const now = performance.now();
    if (!this.pulse && this.markers.some((m) => now - m.since < MARKER_LIFETIME_MS)) {
      this.pulse = setTimeout(() => {
        this.pulse = null;
        this.invalidate();
      }, this.reducedMotion ? 1000 : 100);
    }
  }

  /** Solved tiles carry their solver's short label when there is room: colour is never alone. */
  private drawSolverLabels(x0: number, y0: number, x1: number, y1: number): void {
    const { ctx, camera, scene } = this;
    const s = camera.scale;
    ctx.font = `600 ${Math.min(16, Math.round(s * 0.8))}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const tile of scene.tilesIn(x0, y0, x1, y1, 2000)) {
      if (tile.status !== "solved" || !tile.agent) continue;
      const [lx, ly, rw, rh] = largestRect(tile);
      if (rw * s < LABEL_MIN_WIDTH || rh * s < LABEL_MIN_HEIGHT) continue;
      const cx = (tile.x0 + lx + rw / 2 - camera.x) * s;
      const cy = (tile.y0 + ly + rh / 2 - camera.y) * s;
      const text = this.labelFor(machineOf(tile.agent));
      const width = ctx.measureText(text).width + 8;
      if (width > rw * s - 4) continue;
      ctx.fillStyle = OVERLAY.labelBackdrop;
      ctx.fillRect(cx - width / 2, cy - 9, width, 18);
      ctx.fillStyle = machineColour(machineOf(tile.agent));
      ctx.fillText(text, cx, cy + 1);
    }
  }

  /**
   * Strokes the outlines of a set of tiles as one path in one call: a late-day frontier holds a
   * thousand tiles, and a stroke per tile would cost a frame. Dashed only when zoomed in (dashes
   * are the costly part of a long stroke).
   */
  private drawTileSet(ids: Set<number>, colour: string, dash: number[], width: number): void {
    if (!ids.size) return;
    const key = [...ids].join(",");
    let entry = this.setPaths.get(ids);
    if (!entry || entry.key !== key) {
      const path = new Path2D();
      for (const id of ids) {
        const tile = this.scene.tiles.get(id);
        if (tile) path.addPath(this.outlineOf(tile));
      }
      entry = { key, path };
      this.setPaths.set(ids, entry);
    }
    this.strokePath(entry.path, colour, this.camera.scale >= ZOOM.dashes ? dash : [], width);
  }

  private drawSeedBadges(): void {
    const { ctx, camera } = this;
    ctx.font = "600 11px system-ui, sans-serif";
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    for (const id of this.seeds) {
      const tile = this.scene.tiles.get(id);
      if (!tile) continue;
      const p = camera.toScreen(tile.x0, tile.y0);
      ctx.fillStyle = OVERLAY.seedBadgeBackdrop;
      ctx.fillRect(p.x, p.y - 15, 32, 14);
      ctx.fillStyle = OVERLAY.seedBadgeText;
      ctx.fillText("seed", p.x + 3, p.y - 2);
    }
  }

  /** The focus cell: a light square over a dark one (visible on any tile), never under 10 px across. */
  private drawFocusCell(c: { x: number; y: number }): void {
    const { ctx, camera } = this;
    const p = camera.toScreen(c.x + 0.5, c.y + 0.5);
    const half = Math.max(5, camera.scale / 2);
    ctx.lineWidth = 3;
    ctx.strokeStyle = OVERLAY.fieldExtent;
    ctx.strokeRect(p.x - half, p.y - half, 2 * half, 2 * half);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = OVERLAY.selected;
    ctx.strokeRect(p.x - half, p.y - half, 2 * half, 2 * half);
  }

  private outlineOf(tile: SceneTile): Path2D {
    let path = this.outlines.get(tile.id);
    if (!path) {
      path = tileOutline(tile);
      this.outlines.set(tile.id, path);
    }
    return path;
  }

  private strokeTile(tile: SceneTile, colour: string, dash: number[], width: number): void {
    this.strokePath(this.outlineOf(tile), colour, dash, width);
  }

  private strokePath(path: Path2D, colour: string, dash: number[], width: number): void {
    const { ctx, camera, dpr } = this;
    ctx.save();
    ctx.setTransform(dpr * camera.scale, 0, 0, dpr * camera.scale, -camera.x * camera.scale * dpr, -camera.y * camera.scale * dpr);
    ctx.lineWidth = width / camera.scale;
    ctx.setLineDash(dash.map((d) => d / camera.scale));
    ctx.strokeStyle = colour;
    ctx.stroke(path);
    ctx.restore();
  }

}

function largestRect(tile: SceneTile): [number, number, number, number] {
  let best = tile.rects[0];
  for (const r of tile.rects) if (r[2] * r[3] > best[2] * best[3]) best = r;
  return best;
}
