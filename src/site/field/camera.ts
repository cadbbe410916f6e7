/**
 * The view onto the field: `scale` CSS pixels per cell and the field coordinate shown at the
 * viewport's top-left corner. Pure arithmetic, so pan, zoom-around-a-point and clamping are the
 * same for mouse, touch, trackpad, keys and buttons.
 */
export const MIN_SCALE = 0.25;
export const MAX_SCALE = 64;

/** A rectangle of the field, in cells. */
export interface FieldBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Covered margins of the viewport, in CSS pixels. */
export interface Insets {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export class Camera {
  /** CSS pixels per cell. */
  scale = 1;
  /** Field coordinates (cells) of the viewport's top-left corner. */
  x = 0;
  y = 0;
  /** Viewport size in CSS pixels. */
  width = 1;
  height = 1;

  /**
   * CSS pixels along each edge that controls drawn over the canvas cover (the legend, the zoom
   * buttons): a fit centres the box in the rest, so they do not hide part of it.
   */
  private insets: Insets = { left: 0, right: 0, top: 0, bottom: 0 };

  /**
   * The box last fitted, while the spectator has not panned or zoomed since (null: the whole
   * field); undefined once they have. A resize then keeps that box in view instead of cutting it.
   */
  private fittedBox: FieldBox | null | undefined = undefined;

  constructor(public G: number) {}

  /** Whether the view still shows what was last fitted (no pan or zoom by the spectator since). */
  get following(): boolean {
    return this.fittedBox !== undefined;
  }

  resize(width: number, height: number): void {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    if (this.fittedBox !== undefined) this.fit(this.fittedBox ?? undefined);
    else this.clamp();
  }

  /** New covered margins; a view that still follows its fit is fitted again around them. */
  setInsets(insets: Insets): void {
    const i = this.insets;
    if (i.left === insets.left && i.right === insets.right && i.top === insets.top && i.bottom === insets.bottom) return;
    this.insets = { ...insets };
    if (this.fittedBox !== undefined) this.fit(this.fittedBox ?? undefined);
  }

  /** Fits the whole field (or a box of it) in the viewport, centred. */
  fit(box?: FieldBox): void {
    this.fittedBox = box ?? null;
    this.frame(box ?? { x: 0, y: 0, w: this.G, h: this.G });
  }

  private frame(box: FieldBox): void {
    const margin = 0.96;
    // Insets that would leave less than half of a side are ignored: a small viewport (a phone)
    // shows the field under its controls rather than shrink it to a sliver.
    let { left, right, top, bottom } = this.insets;
    if (left + right > this.width / 2) left = right = 0;
    if (top + bottom > this.height / 2) top = bottom = 0;
    const w = this.width - left - right;
    const h = this.height - top - bottom;
    this.scale = clampScale(Math.min(w / box.w, h / box.h) * margin);
    this.x = box.x + box.w / 2 - (left + w / 2) / this.scale;
    this.y = box.y + box.h / 2 - (top + h / 2) / this.scale;
    this.clamp();
  }

  panBy(dxCss: number, dyCss: number): void {
    this.fittedBox = undefined;
    this.x -= dxCss / this.scale;
    this.y -= dyCss / this.scale;
    this.clamp();
  }

  /** Multiplies the scale by `factor`, keeping the field point under (sx, sy) in place. */
  zoomAt(factor: number, sx: number, sy: number): void {
    this.fittedBox = undefined;
    const fx = this.x + sx / this.scale;
    const fy = this.y + sy / this.scale;
    this.scale = clampScale(this.scale * factor);
    this.x = fx - sx / this.scale;
    this.y = fy - sy / this.scale;
    this.clamp();
  }

  /** Field coordinates (fractional cells) of a viewport point. */
  toField(sx: number, sy: number): { x: number; y: number } {
    return { x: this.x + sx / this.scale, y: this.y + sy / this.scale };
  }

  toScreen(fx: number, fy: number): { x: number; y: number } {
    return { x: (fx - this.x) * this.scale, y: (fy - this.y) * this.scale };
  }

  /** The visible cell range, clipped to the field: [x0, y0, x1, y1) in whole cells. */
  visibleCells(): [number, number, number, number] {
    const x0 = Math.max(0, Math.floor(this.x));
    const y0 = Math.max(0, Math.floor(this.y));
    const x1 = Math.min(this.G, Math.ceil(this.x + this.width / this.scale));
    const y1 = Math.min(this.G, Math.ceil(this.y + this.height / this.scale));
    return [x0, y0, Math.max(x0, x1), Math.max(y0, y1)];
  }

  /** Keeps at least a quarter of the viewport over the field, so it can never be lost off-screen. */
  private clamp(): void {
    const vw = this.width / this.scale;
    const vh = this.height / this.scale;
    const slackX = vw * 0.75;
    const slackY = vh * 0.75;
    this.x = Math.min(Math.max(this.x, -slackX), this.G - vw + slackX);
    this.y = Math.min(Math.max(this.y, -slackY), this.G - vh + slackY);
  }
}

export function clampScale(s: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
}

/**
 * The margins to keep clear of controls drawn over a `width` × `height` viewport (rectangles in
 * its CSS pixels, plus `gap` around each). Each control is cleared on the side that costs the
 * field less area: a tall legend in the corner takes a column, a wide bar takes a row.
 */
export function insetsAround(width: number, height: number, covers: readonly FieldBox[], gap = 8): Insets {
  const out: Insets = { left: 0, right: 0, top: 0, bottom: 0 };
  for (const r of covers) {
    if (r.w <= 0 || r.h <= 0) continue;
    const onLeft = r.x + r.w / 2 < width / 2;
    const onTop = r.y + r.h / 2 < height / 2;
    const across = (onLeft ? r.x + r.w : width - r.x) + gap;
    const down = (onTop ? r.y + r.h : height - r.y) + gap;
    if (across * height <= down * width) {
      if (onLeft) out.left = Math.max(out.left, across);
      else out.right = Math.max(out.right, across);
    } else if (onTop) out.top = Math.max(out.top, down);
    else out.bottom = Math.max(out.bottom, down);
  }
  return out;
}
