/**
 * The History view's drawings, in SVG built by our own code (no library): an interval bar per
 * rating, and a line plot per series whose points link to their day's replay. Text goes in
 * through textContent only, like everywhere on the site.
 */
const NS = "http://www.w3.org/2000/svg";

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A rating's 95 % interval on the table's common scale [min, max]: the bar spans lo–hi, a tick
 * marks the rating; provisional entries are drawn hollow.
 */
export function intervalBar(lo: number, value: number, hi: number, min: number, max: number, provisional: boolean): SVGSVGElement {
  const W = 140;
  const H = 16;
  const x = (v: number): number => (max > min ? 4 + ((v - min) / (max - min)) * (W - 8) : W / 2);
  const root = svg("svg", { class: "ibar", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": `95 % interval ${lo} to ${hi}` });
  root.append(svg("line", { x1: 4, x2: W - 4, y1: H / 2, y2: H / 2, class: "ibar-axis" }));
  root.append(svg("rect", { x: x(lo), y: 4, width: Math.max(2, x(hi) - x(lo)), height: H - 8, rx: 3, class: provisional ? "ibar-range provisional" : "ibar-range" }));
  root.append(svg("rect", { x: x(value) - 1.5, y: 1, width: 3, height: H - 2, class: "ibar-value" }));
  return root;
}

export interface PlotPoint {
  day: string;
  value: number | null;
  href: string;
  label: string;
}

const DAY_MS = 86_400_000;

/**
 * A line plot of one figure over days: x is the date (gaps between days show as gaps in time),
 * y runs from 0 to the largest value. Each point is a link (`<a href>`) to its day's replay, with
 * a hit area larger than the dot for fingers.
 */
export function linePlot(title: string, points: readonly PlotPoint[], format: (v: number) => string): SVGSVGElement {
  const W = 640;
  const H = 220;
  const pad = { l: 52, r: 14, t: 24, b: 30 };
  const shown = points.filter((p): p is PlotPoint & { value: number } => p.value !== null);
  const t = (day: string): number => Date.parse(`${day}T00:00:00Z`);
  const t0 = shown.length ? t(shown[0].day) : 0;
  const t1 = shown.length ? t(shown[shown.length - 1].day) : 1;
  const span = Math.max(DAY_MS, t1 - t0);
  const top = Math.max(...shown.map((p) => p.value), 0) || 1;
  const x = (day: string): number => (shown.length === 1 ? pad.l + (W - pad.l - pad.r) / 2 : pad.l + ((t(day) - t0) / span) * (W - pad.l - pad.r));
  const y = (v: number): number => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const root = svg("svg", { class: "plot", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": `${title}, ${shown.length} days; each point opens that day's replay` });
  root.append(svg("text", { x: pad.l, y: 15, class: "plot-title" }, title));
  for (const v of [0, top / 2, top]) {
    root.append(svg("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "plot-grid" }));
    root.append(svg("text", { x: pad.l - 6, y: y(v) + 4, class: "plot-tick", "text-anchor": "end" }, format(v)));
  }
  if (shown.length) {
    root.append(svg("text", { x: pad.l, y: H - 8, class: "plot-tick" }, shown[0].day));
    if (shown.length > 1) root.append(svg("text", { x: W - pad.r, y: H - 8, class: "plot-tick", "text-anchor": "end" }, shown[shown.length - 1].day));
    root.append(svg("polyline", { points: shown.map((p) => `${x(p.day).toFixed(1)},${y(p.value).toFixed(1)}`).join(" "), class: "plot-line" }));
  }
  for (const p of shown) {
    const a = svg("a", { href: p.href, class: "plot-point", "data-day": p.day, "aria-label": `${p.day}: ${p.label} ${format(p.value)}, open the replay` });
    a.append(svg("title", {}, `${p.day}: ${format(p.value)} — open the replay`));
    a.append(svg("circle", { cx: x(p.day), cy: y(p.value), r: 12, class: "plot-hit" }));
    a.append(svg("circle", { cx: x(p.day), cy: y(p.value), r: 4, class: "plot-dot" }));
    root.append(a);
  }
  return root;
}
