import { byId, el, shortHash } from "./dom";
import { attachControls } from "./field/controls";
import { insetsAround } from "./field/camera";
import type { FieldScene, SceneTile } from "./field/scene";
import { describeCell } from "./field/readout";
import { FieldView } from "./field/view";
import { machineColour, machineOf } from "./palette";

export interface Shell {
  view: FieldView;
  /** A tab and its panel; `onShow` runs each time the tab is selected (to freshen what it shows). */
  addTab(id: string, label: string, content: HTMLElement, onShow?: () => void): void;
  selectTab(id: string): void;
  /**
   * The status line. `text` is the part screen readers announce (connection state: keep it rare);
   * `extra.detail` follows it outside the live region (the revision, counts, progress) and
   * `extra.link` after that (a closed day's replay).
   */
  setStatus(text: string, state?: "live" | "offline" | "idle", extra?: { detail?: string; link?: { href: string; text: string } }): void;
  setTitle(title: string, detail?: string): void;
  setHead(head: { hash: string; rev: number } | null): void;
  /** A short line over the field when it has nothing to show yet (null hides it). */
  setHint(text: string | null): void;
  /** How the page names a machine (display name when known). */
  nameOf: (machine: string) => string;
  /** The hash of a tile, when the page has it or can fetch it. */
  hashOf: (tileId: number) => Promise<string | undefined>;
  replayBar: HTMLElement;
}

/**
 * The page's frame, shared by the live view and the replay: header (title, status line, log
 * head with a copy button), the field canvas with its controls, legend and tile details, and
 * the tabbed side panel.
 */
export function createShell(scene: FieldScene): Shell {
  const canvas = byId<HTMLCanvasElement>("field");
  const view = new FieldView(canvas, scene);
  const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  view.reducedMotion = motion.matches;
  motion.addEventListener("change", () => (view.reducedMotion = motion.matches));
  const tooltip = byId("tooltip");
  const stage = byId("stage");
  const canvasBox = byId("canvas-box");
  const tabs = byId("tabs");
  const panels = byId("tab-panels");
  const status = byId("status");
  const statusState = byId("status-state");
  const statusDetail = byId("status-detail");
  const title = byId("field-title");
  const hint = byId("field-hint");
  const headBox = byId("head-box");
  const headText = byId("head-text");
  const copy = byId<HTMLButtonElement>("copy-head");
  const onShowOf = new Map<string, () => void>();
  let pinned: SceneTile | null = null;
  const phone = window.matchMedia("(max-width: 820px)");
  let detailToken = 0;

  const shell: Shell = {
    view,
    nameOf: (m) => m,
    hashOf: async () => undefined,
    replayBar: byId("replay-bar"),
    addTab(id, label, content, onShow) {
      if (onShow) onShowOf.set(id, onShow);
      const tab = el("button", { type: "button", role: "tab", id: `tab-${id}`, "aria-controls": `panel-${id}`, "aria-selected": "false", tabindex: -1, text: label });
      tab.addEventListener("click", () => shell.selectTab(id));
      // WAI-ARIA tabs: the arrow keys move to the next or previous tab (wrapping), Home and End to
      // the first and last; the tab moved to is selected at once.
      tab.addEventListener("keydown", (e) => {
        const all = [...tabs.querySelectorAll<HTMLButtonElement>("[role=tab]")];
        const at = all.indexOf(tab);
        const moves: Record<string, number | undefined> = { ArrowRight: at + 1, ArrowLeft: at - 1 + all.length, Home: 0, End: all.length - 1 };
        const to = moves[e.key];
        if (to === undefined) return;
        e.preventDefault();
        const next = all[to % all.length];
        next.focus();
        next.click();
      });
      tabs.append(tab);
      panels.append(el("div", { role: "tabpanel", id: `panel-${id}`, "aria-labelledby": `tab-${id}`, hidden: true }, content));
      if (tabs.childElementCount === 1) shell.selectTab(id);
    },
    selectTab(id) {
      for (const tab of tabs.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
        const on = tab.id === `tab-${id}`;
        tab.setAttribute("aria-selected", String(on));
        tab.tabIndex = on ? 0 : -1;
      }
      for (const panel of panels.children) (panel as HTMLElement).hidden = panel.id !== `panel-${id}`;
      // The layout follows the open tab (site.css widens the side panel for the tables).
      document.body.dataset.tab = id;
      // On a phone the tile card sits over the field the tabs share the screen with: a reader
      // moving on to a panel is done with it.
      if (pinned && phone.matches) {
        pinned = null;
        view.selected = null;
        tooltip.hidden = true;
        view.invalidate();
      }
      onShowOf.get(id)?.();
    },
    setStatus(text, state = "idle", extra = {}) {
      status.className = `status ${state === "offline" ? "offline" : ""}`;
      const dot = state !== "idle";
      // The live region is touched only when what it says changes: a screen reader would
      // announce a rewrite even of the same words, and the revision moves every second or two.
      if (statusState.textContent !== text || (statusState.firstElementChild !== null) !== dot) {
        statusState.replaceChildren(dot ? el("span", { class: "live-dot", "aria-hidden": "true" }) : "", text);
      }
      // Rewritten only when it changes, so a focused or hovered link is not swapped under the user.
      const { detail, link } = extra;
      const key = JSON.stringify([detail ?? "", link?.href ?? "", link?.text ?? ""]);
      if (statusDetail.dataset.key !== key) {
        statusDetail.dataset.key = key;
        statusDetail.replaceChildren(detail ? ` · ${detail}` : "", link ? " · " : "", link ? el("a", { href: link.href, text: link.text }) : "");
      }
    },
    setTitle(text, detail) {
      title.replaceChildren(text, detail ? el("span", { class: "kind", text: detail }) : "");
      document.title = `${text} — Mosaic`;
    },
    setHint(text) {
      // Called with every live batch under fog: a write that changes nothing still costs a style pass.
      if (hint.hidden === (text === null) && hint.textContent === (text ?? "")) return;
      hint.hidden = text === null;
      hint.textContent = text ?? "";
    },
    setHead(head) {
      headBox.hidden = !head;
      if (head) headText.textContent = `${shortHash(head.hash)}@${head.rev}`;
      copy.dataset.head = head ? `${head.hash}@${head.rev}` : "";
    },
  };

  // The button keeps its name ("Copy head": what it shows, WCAG 2.5.3); the outcome is said in a status region.
  const copyNote = byId("copy-note");
  copy.addEventListener("click", async () => {
    const text = copy.dataset.head ?? "";
    try {
      await navigator.clipboard.writeText(text);
      copy.textContent = "Copied";
      copyNote.textContent = `Log head copied: ${text}`;
    } catch {
      // No clipboard permission (or an insecure origin): select the text for a manual copy.
      const range = document.createRange();
      range.selectNodeContents(headText);
      headText.textContent = text;
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      copy.textContent = "Selected";
      copyNote.textContent = "Log head selected: copy it with your keyboard's copy command";
    }
    setTimeout(() => {
      copy.textContent = "Copy head";
      copyNote.textContent = "";
    }, 1500);
  });

  const readout = byId("field-readout");
  /** The cell under a viewport point, with its value as the tooltip and the read-out say it. */
  const cellAtClient = (cx: number, cy: number): { x: number; y: number } => {
    const r = canvas.getBoundingClientRect();
    const f = view.camera.toField(cx - r.left, cy - r.top);
    return { x: Math.floor(f.x), y: Math.floor(f.y) };
  };
  const valueText = (c: { x: number; y: number }): string => {
    const i = c.y * view.scene.G + c.x;
    const v = view.scene.cellValue[i];
    return v >= 0 ? String(v) : view.scene.isRejected(i) ? "unknown (a value was rejected)" : "unknown";
  };

  const showDetails = (tile: SceneTile, x: number, y: number, sticky: boolean, cell?: { x: number; y: number }): void => {
    const token = ++detailToken;
    const solver = tile.agent ? machineOf(tile.agent) : null;
    const hashCell = el("dd", { class: "mono", text: tile.hash ? shortHash(tile.hash) : "…" });
    const solverCell = el("dd");
    if (solver && tile.agent) {
      // A display name, with the agent id on a line of its own under it; without one, the agent id alone.
      const name = shell.nameOf(solver);
      const chip = el("span", { class: "agent" }, el("span", { class: "swatch", "aria-hidden": "true" }), name === solver ? tile.agent : name);
      chip.style.setProperty("--agent", machineColour(solver));
      solverCell.append(chip, name === solver ? "" : el("span", { class: "ci agent-id", text: tile.agent }));
    } else solverCell.textContent = "–";
    tooltip.replaceChildren(
      el(
        "dl",
        {},
        cell ? el("dt", { text: "cell" }) : null,
        cell ? el("dd", { text: `(${cell.x}, ${cell.y}): ${valueText(cell)}` }) : null,
        el("dt", { text: "tile" }),
        el("dd", { text: `#${tile.id}` }),
        el("dt", { text: "status" }),
        el("dd", { text: tile.status }),
        el("dt", { text: "m" }),
        el("dd", { text: String(tile.m) }),
        el("dt", { text: "cells" }),
        el("dd", { text: String(tile.cells) }),
        el("dt", { text: "box" }),
        el("dd", { text: `${tile.w}×${tile.h} at (${tile.x0}, ${tile.y0})` }),
        el("dt", { text: "solver" }),
        solverCell,
        el("dt", { text: "hash" }),
        hashCell,
      ),
    );
    tooltip.classList.toggle("pinned", sticky);
    tooltip.hidden = false;
    const box = canvasBox.getBoundingClientRect();
    const w = tooltip.offsetWidth;
    const h = tooltip.offsetHeight;
    const left = Math.min(Math.max(8, x - box.left + 16), box.width - w - 8);
    const top = y - box.top + 16 + h > box.height - 8 ? y - box.top - h - 12 : y - box.top + 16;
    tooltip.style.left = `${left}px`;
    tooltip.style.top = `${Math.max(8, top)}px`;
    if (!tile.hash)
      void shell.hashOf(tile.id).then((hash) => {
        if (token === detailToken) hashCell.textContent = hash ? shortHash(hash) : "not published";
        if (hash) hashCell.title = hash;
      });
    else hashCell.title = tile.hash;
  };

  // On a phone the legend starts folded: open, it would cover much of a small field.
  const legend = document.querySelector<HTMLDetailsElement>("details.legend");
  if (legend && phone.matches) legend.open = false;
  // A fit leaves room for the controls drawn over the canvas (the legend, the zoom buttons).
  const zoom = stage.querySelector<HTMLElement>(".zoom");
  const clearControls = (): void => {
    const box = canvas.getBoundingClientRect();
    const covers = [legend, zoom].flatMap((node) => {
      const r = node?.getBoundingClientRect();
      return r && r.width > 0 ? [{ x: r.left - box.left, y: r.top - box.top, w: r.width, h: r.height }] : [];
    });
    view.camera.setInsets(insetsAround(box.width, box.height, covers));
    view.invalidate();
  };
  const watch = new ResizeObserver(clearControls);
  for (const node of [canvas, legend, zoom]) if (node) watch.observe(node);
  legend?.addEventListener("toggle", clearControls);

  const actions = attachControls(view, {
    onHover(tile, x, y) {
      if (pinned) return;
      if (tile) showDetails(tile, x, y, false, cellAtClient(x, y));
      else tooltip.hidden = true;
    },
    onFocusCell(c) {
      const t = view.scene.tileAt(c.x, c.y);
      const i = c.y * view.scene.G + c.x;
      const solver = t?.status === "solved" && t.agent ? shell.nameOf(machineOf(t.agent)) : null;
      readout.textContent = describeCell({ x: c.x, y: c.y, value: view.scene.cellValue[i], rejected: view.scene.isRejected(i), tile: t ? { id: t.id, status: t.status, m: t.m, cells: t.cells } : null, solver });
    },
    onSelect(tile) {
      pinned = tile;
      if (!tile) {
        tooltip.hidden = true;
        return;
      }
      const box = tile && canvas.getBoundingClientRect();
      const p = view.camera.toScreen(tile.x0 + tile.w, tile.y0);
      showDetails(tile, box.left + p.x, box.top + p.y, true);
    },
  });
  stage.querySelector(".zoom")?.addEventListener("click", (e) => {
    const act = (e.target as HTMLElement).closest("button")?.dataset.act;
    const step = 80;
    if (act === "zoom-in") actions.zoomIn();
    else if (act === "zoom-out") actions.zoomOut();
    else if (act === "fit") actions.fit();
    else if (act === "left") actions.pan(step, 0);
    else if (act === "right") actions.pan(-step, 0);
    else if (act === "up") actions.pan(0, step);
    else if (act === "down") actions.pan(0, -step);
  });
  return shell;
}

export { shortLabel } from "./field/labels";
