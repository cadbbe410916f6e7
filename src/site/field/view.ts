import { FIELD_BACKGROUND, machineColour, machineOf } from "../palette";
import { Camera, type FieldBox } from "./camera";
import { tileOutline } from "./outline";
import type { FieldScene, SceneTile } from "./scene";

/** A mark on the field: where groups met, where a machine died (it pulses for a minute, then stays dim). */
export interface FieldMarker {
  kind: "meet" | "death";
  x: number;
  y: number;
  label: string;
  /** The revision of the event it marks (one event's marks are never added twice). */
  rev: number;
  /** performance.now() when it appeared (markers fade to a dim mark after a while). */
  since: number;
}

export interface RingBox {
  ring: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

const MARKER_LIFETIME_MS = 60_000;
const FRAME_SAMPLES = 240;

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
  /** Durations of the last draws in ms (the page's own frame timing, read by the benchmark). */
  readonly drawTimes = new Float64Array(FRAME_SAMPLES);
  drawCount = 0;
  /** performance.now() at the end of the first draw call with tiles in it. */
  firstDrawAt = 0;
  /**
   * performance.now() once the frame holding that first draw was rendered: the task that ran it
   * (style, layout and paint of the whole page included) has ended. The first-paint benchmark reads this.
   */
  firstPaintAt = 0;
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
    this.firstDrawAt = 0;
    this.firstPaintAt = 0;
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

  /** Frame statistics of the recorded draws: p50, p95, max (ms). */
  frameStats(): { count: number; p50: number; p95: number; max: number } {
    const n = Math.min(this.drawCount, FRAME_SAMPLES);
    const sorted = Array.from(this.drawTimes.subarray(0, n)).sort((a, b) => a - b);
    const q = (p: number): number => (n ? sorted[Math.min(n - 1, Math.floor(p * n))] : 0);
    return { count: this.drawCount, p50: q(0.5), p95: q(0.95), max: n ? sorted[n - 1] : 0 };
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
    ctx.fillStyle = "#151922";
    ctx.fillRect(o.x, o.y, scene.G * s, scene.G * s);
    if (x1 > x0 && y1 > y0) {
      ctx.imageSmoothingEnabled = s * dpr < 1;
      const d = camera.toScreen(x0, y0);
      ctx.drawImage(this.board, x0, y0, x1 - x0, y1 - y0, d.x, d.y, (x1 - x0) * s, (y1 - y0) * s);
    }
    ctx.strokeStyle = "#3a4150";
    ctx.lineWidth = 1;
    ctx.strokeRect(o.x - 0.5, o.y - 0.5, scene.G * s + 1, scene.G * s + 1);

    this.drawRings();
    if (s >= 8) this.drawGrid(x0, y0, x1, y1);
    if (s >= 5) this.drawTileEdges(x0, y0, x1, y1);
    if (s >= 6) this.drawRejected(x0, y0, x1, y1);
    if (s >= 22) this.drawValues(x0, y0, x1, y1);
    if (s >= 10) this.drawSolverLabels(x0, y0, x1, y1);
    this.drawTileSet(this.frontier, "#ffd166", [4, 3], 1.5);
    this.drawTileSet(this.seeds, "#ffffff", [], 2);
    this.drawSeedBadges();
    this.drawMarkers();
    if (this.hovered) this.strokeTile(this.hovered, "#ffffff", [], 2.5);
    if (this.selected && this.selected !== this.hovered) this.strokeTile(this.selected, "#7fdbff", [], 2.5);

    if (scene.tiles.size > 0 && !this.firstDrawAt) {
      this.firstDrawAt = performance.now();
      // A task queued from inside a frame's callbacks runs once that frame's rendering is done.
      setTimeout(() => {
        if (this.scene === scene) this.firstPaintAt = performance.now();
      }, 0);
    }
    this.drawTimes[this.drawCount % FRAME_SAMPLES] = performance.now() - started;
    this.drawCount++;
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

  private drawRings(): void {
    const { ctx, camera } = this;
    if (!this.rings.length) return;
    ctx.save();
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = "rgba(160, 180, 220, 0.55)";
    ctx.fillStyle = "rgba(190, 205, 235, 0.85)";
    ctx.font = "12px system-ui, sans-serif";
    ctx.lineWidth = 1;
    for (const r of this.rings) {
      const p = camera.toScreen(r.x, r.y);
      ctx.strokeRect(p.x, p.y, r.w * camera.scale, r.h * camera.scale);
      ctx.fillText(`ring ${r.ring}`, p.x + 4, p.y - 4);
    }
    ctx.restore();
  }

  private drawGrid(x0: number, y0: number, x1: number, y1: number): void {
    const { ctx, camera } = this;
    ctx.beginPath();
    for (let x = x0; x <= x1; x++) {
      const p = camera.toScreen(x, y0);
      const q = camera.toScreen(x, y1);
      ctx.moveTo(Math.round(p.x) + 0.5, p.y);
      ctx.lineTo(Math.round(q.x) + 0.5, q.y);
    }
    for (let y = y0; y <= y1; y++) {
      const p = camera.toScreen(x0, y);
      const q = camera.toScreen(x1, y);
      ctx.moveTo(p.x, Math.round(p.y) + 0.5);
      ctx.lineTo(q.x, Math.round(q.y) + 0.5);
    }
    ctx.strokeStyle = "rgba(0, 0, 0, 0.35)";
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  /**
   * Boundaries between cells of different tiles (or a tile and nothing), from the cell map.
   * Collinear unit edges are merged into runs, so the path has one segment per straight stretch
   * of boundary rather than one per cell.
   */
  private drawTileEdges(x0: number, y0: number, x1: number, y1: number): void {
    const { ctx, camera, scene } = this;
    const G = scene.G;
    const t = scene.cellTile;
    const s = camera.scale;
    const ox = camera.x;
    const oy = camera.y;
    ctx.beginPath();
    // Horizontal boundaries: between row y-1 and row y.
    for (let y = y0; y <= Math.min(y1, G - 1); y++) {
      const row = y * G;
      let start = -1;
      for (let x = x0; x <= x1; x++) {
        let edge = false;
        if (x < x1) {
          const id = t[row + x];
          const up = y > 0 ? t[row - G + x] : -1;
          edge = id !== up;
        }
        if (edge && start < 0) start = x;
        else if (!edge && start >= 0) {
          const sy = (y - oy) * s;
          ctx.moveTo((start - ox) * s, sy);
          ctx.lineTo((x - ox) * s, sy);
          start = -1;
        }
      }
    }
    // Vertical boundaries: between column x-1 and column x.
    for (let x = x0; x <= Math.min(x1, G - 1); x++) {
      let start = -1;
      for (let y = y0; y <= y1; y++) {
        let edge = false;
        if (y < y1) {
          const id = t[y * G + x];
          const left = x > 0 ? t[y * G + x - 1] : -1;
          edge = id !== left;
        }
        if (edge && start < 0) start = y;
        else if (!edge && start >= 0) {
          const sx = (x - ox) * s;
          ctx.moveTo(sx, (start - oy) * s);
          ctx.lineTo(sx, (y - oy) * s);
          start = -1;
        }
      }
    }
    ctx.strokeStyle = "rgba(8, 10, 14, 0.9)";
    ctx.lineWidth = s >= 12 ? 2 : 1;
    ctx.stroke();
  }

  /** Rejected cells as a cross, without their value (SPEC §4.8). */
  private drawRejected(x0: number, y0: number, x1: number, y1: number): void {
    const { ctx, camera, scene } = this;
    const G = scene.G;
    const s = camera.scale;
    const pad = s * 0.25;
    ctx.beginPath();
    let any = false;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        if (!scene.isRejected(y * G + x)) continue;
        any = true;
        const sx = (x - camera.x) * s;
        const sy = (y - camera.y) * s;
        ctx.moveTo(sx + pad, sy + pad);
        ctx.lineTo(sx + s - pad, sy + s - pad);
        ctx.moveTo(sx + s - pad, sy + pad);
        ctx.lineTo(sx + pad, sy + s - pad);
      }
    }
    if (!any) return;
    ctx.strokeStyle = "#ff4d6d";
    ctx.lineWidth = Math.max(1.5, s / 10);
    ctx.stroke();
  }

  /** Cell values as digits when zoomed far in: readable without colour. */
  private drawValues(x0: number, y0: number, x1: number, y1: number): void {
    const { ctx, camera, scene } = this;
    const G = scene.G;
    const s = camera.scale;
    ctx.font = `${Math.round(s * 0.45)}px ui-monospace, monospace`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const v = scene.cellValue[y * G + x];
        if (v < 0) continue;
        ctx.fillStyle = v ? "rgba(0,0,0,0.75)" : "rgba(255,255,255,0.85)";
        ctx.fillText(v ? "1" : "0", (x + 0.5 - camera.x) * s, (y + 0.5 - camera.y) * s);
      }
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
      if (rw * s < 28 || rh * s < 16) continue;
      const cx = (tile.x0 + lx + rw / 2 - camera.x) * s;
      const cy = (tile.y0 + ly + rh / 2 - camera.y) * s;
      const text = this.labelFor(machineOf(tile.agent));
      const width = ctx.measureText(text).width + 8;
      if (width > rw * s - 4) continue;
      ctx.fillStyle = "rgba(10, 12, 16, 0.78)";
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
    this.strokePath(entry.path, colour, this.camera.scale >= 4 ? dash : [], width);
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
      ctx.fillStyle = "rgba(10, 12, 16, 0.8)";
      ctx.fillRect(p.x, p.y - 15, 32, 14);
      ctx.fillStyle = "#ffffff";
      ctx.fillText("seed", p.x + 3, p.y - 2);
    }
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

  private drawMarkers(): void {
    const { ctx, camera } = this;
    const now = performance.now();
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    for (const m of this.markers) {
      const age = (now - m.since) / MARKER_LIFETIME_MS;
      const p = camera.toScreen(m.x, m.y);
      const pulse = this.reducedMotion || age >= 1 ? 0 : 4 * Math.sin(now / 180);
      ctx.globalAlpha = Math.max(0.35, 1 - age);
      ctx.beginPath();
      if (m.kind === "meet") {
        ctx.arc(p.x, p.y, 11 + pulse, 0, Math.PI * 2);
        ctx.strokeStyle = "#7fdbff";
      } else {
        ctx.moveTo(p.x - 9, p.y - 9);
        ctx.lineTo(p.x + 9, p.y + 9);
        ctx.moveTo(p.x + 9, p.y - 9);
        ctx.lineTo(p.x - 9, p.y + 9);
        ctx.strokeStyle = "#ff4d6d";
      }
      ctx.lineWidth = 3;
      ctx.stroke();
      // The label sits right of the mark, or left of it where the canvas would cut it off; it
      // fades less than the mark, so that an old meeting (a replay's, say) stays readable.
      const width = ctx.measureText(m.label).width + 8;
      const right = p.x + 14 + width <= camera.width || p.x - 14 - width < 0;
      const left = right ? p.x + 14 : p.x - 14 - width;
      ctx.globalAlpha = Math.max(0.8, 1 - age);
      ctx.fillStyle = "rgba(10, 12, 16, 0.85)";
      ctx.fillRect(left, p.y - 9, width, 18);
      ctx.fillStyle = m.kind === "meet" ? "#7fdbff" : "#ff8fa3";
      ctx.fillText(m.label, left + 4, p.y);
      ctx.globalAlpha = 1;
    }
  }
}

function largestRect(tile: SceneTile): [number, number, number, number] {
  let best = tile.rects[0];
  for (const r of tile.rects) if (r[2] * r[3] > best[2] * best[3]) best = r;
  return best;
}
