import { byId } from "../dom";
import { attachControls } from "../field/controls";
import { FieldScene } from "../field/scene";
import { FieldView } from "../field/view";
import { applyTheme, parentPort, reportSize } from "./host-frame";
import { HostLink, type HostContext } from "./host-link";
import { renderPanels, tileWords, type Panels } from "./panels";
import { applyResult, applyToolInput, emptyState, fieldSize, neighbourhoodBox, type ViewState } from "./state";

/**
 * The in-host view `ui://mosaic/field` (SPEC §6.2): draws the agent's neighbourhood from the tool
 * results the host hands it, with the spectator's own renderer, and refreshes with `observe`
 * through the host. It never writes: the only tool it calls is `observe`.
 */
let state: ViewState = emptyState();
const panels: Panels = {
  summary: byId("summary"),
  stats: byId("stats"),
  picture: byId<HTMLPreElement>("picture"),
  pictureCaption: byId("picture-caption"),
  lists: byId("lists"),
  canvas: byId<HTMLCanvasElement>("field"),
};
const note = byId("note");
const refreshButton = byId<HTMLButtonElement>("refresh");
const spectatorLink = byId<HTMLAnchorElement>("spectator");
const tileLine = byId("tile-under");
const origin = document.documentElement.dataset.origin ?? "";

let view: FieldView | null = null;

/** Rebuilt from the state at each result: a neighbourhood is tens of tiles, so this stays cheap. */
function sceneOf(s: ViewState): FieldScene {
  const scene = new FieldScene(fieldSize(s));
  for (const t of s.tiles.values()) scene.upsertTile({ ...t, rects: t.rects });
  if (s.G !== null && s.G === scene.G) {
    for (const [cell, v] of s.known) if (cell < s.G * s.G) scene.setValue(cell, v);
    for (const cell of s.rejected) if (cell < s.G * s.G) scene.markRejected(cell);
  }
  return scene;
}

function draw(): void {
  renderPanels(panels, state);
  if (state.tiles.size === 0) return;
  const scene = sceneOf(state);
  if (!view) {
    view = new FieldView(panels.canvas, scene);
    const shown = view;
    const local = (clientX: number, clientY: number): void => {
      const r = shown.canvas.getBoundingClientRect();
      describeAt(shown, clientX - r.left, clientY - r.top);
    };
    // Keyboard users get the same words for the focus cell (set when the map takes focus, moved with Shift+arrows).
    attachControls(shown, { onHover: (_tile, x, y) => local(x, y), onSelect: () => undefined, onFocusCell: (c) => describeCell(shown, c.x, c.y) });
  } else {
    view.setScene(scene, { keepCamera: view.camera.G === scene.G });
    view.hovered = null;
  }
  view.seeds.clear();
  if (state.seedTile !== null && state.tiles.get(state.seedTile)?.status !== "solved") view.seeds.add(state.seedTile);
  view.frontier.clear();
  for (const id of state.frontier) view.frontier.add(id);
  const box = neighbourhoodBox(state);
  if (box) {
    const margin = 2;
    view.fitTarget = () => ({ x: box.x - margin, y: box.y - margin, w: box.w + 2 * margin, h: box.h + 2 * margin });
    view.fitShown();
  }
  view.invalidate();
  if (state.gameId && origin.startsWith("http")) {
    spectatorLink.href = `${origin}/?game=${encodeURIComponent(state.gameId)}`;
    spectatorLink.hidden = false;
  }
}

/** The tile and cell at a point of the map, in words (the canvas's text equivalent, SPEC §10). */
function describeAt(shown: FieldView, sx: number, sy: number): void {
  const p = shown.camera.toField(sx, sy);
  describeCell(shown, Math.floor(p.x), Math.floor(p.y));
}

/** The tile and cell at field cell (x, y), in words, for the pointer and the keyboard alike. */
function describeCell(shown: FieldView, x: number, y: number): void {
  const scene = shown.scene;
  const id = x >= 0 && y >= 0 && x < scene.G && y < scene.G ? scene.cellTile[y * scene.G + x] : -1;
  const tile = id >= 0 ? state.tiles.get(id) ?? null : null;
  shown.hovered = id >= 0 ? scene.tiles.get(id) ?? null : null;
  shown.invalidate();
  tileLine.textContent = tileWords(tile, state, tile ? { x, y } : null);
}

let refreshing = false;
let again = false;

/** `observe {game_id, agent}` through the host (its tools/call): one at a time, the last request wins. */
async function refresh(): Promise<void> {
  if (!state.gameId || !link.hostCapabilities?.serverTools) return;
  if (refreshing) return void (again = true);
  refreshing = true;
  note.textContent = "Refreshing…";
  try {
    const args: Record<string, string> = { game_id: state.gameId };
    if (state.agent) args.agent = state.agent;
    const result = await link.callTool("observe", args);
    if (result.isError) {
      const first = result.content?.[0];
      note.textContent = `Refresh refused: ${first && first.type === "text" ? first.text : "observe failed"}`;
    } else {
      state = applyResult(state, result.structuredContent);
      draw();
      note.textContent = `Refreshed at revision ${state.revision ?? "?"}.`;
    }
  } catch (error) {
    note.textContent = `Refresh failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    refreshing = false;
    if (again) {
      again = false;
      void refresh();
    }
  }
}

function applyContext(context: HostContext): void {
  if (context.theme === "light" || context.theme === "dark") applyTheme(context.theme);
  const dims = context.containerDimensions;
  const limit = dims?.height ?? dims?.maxHeight;
  if (limit) document.documentElement.style.setProperty("--host-height", `${limit}px`);
}

const link = new HostLink({ name: "Mosaic field", version: "1.0.0" }, parentPort(), {
  onToolInput(args) {
    state = applyToolInput(state, args);
  },
  onToolResult(result) {
    if (result.isError) return;
    state = applyResult(state, result.structuredContent);
    hooks.results++;
    draw();
    // An observe of the agent's area already is the refresh; anything else is followed by one.
    if (state.lastTool !== "observe" || state.G === null) void refresh();
  },
  onHostContextChanged: applyContext,
});

refreshButton.addEventListener("click", () => void refresh());
spectatorLink.addEventListener("click", (event) => {
  if (!link.hostCapabilities?.openLinks) return;
  event.preventDefault();
  const refused = (): void => void (note.textContent = "The host did not open the spectator page.");
  void link.openLink(spectatorLink.href).then((r) => r.isError && refused(), refused);
});

/** What tests and the benchmark read (in the view's frame). */
const hooks = {
  results: 0,
  get state(): ViewState {
    return state;
  },
  get view(): FieldView | null {
    return view;
  },
};
(window as unknown as { mosaicView: typeof hooks }).mosaicView = hooks;

link.connect().then(
  ({ hostContext, hostCapabilities }) => {
    applyContext(hostContext);
    refreshButton.disabled = !hostCapabilities.serverTools;
    reportSize(link);
    note.textContent = "Connected to the host.";
  },
  (error: unknown) => {
    note.textContent = `No host answered: ${error instanceof Error ? error.message : String(error)}`;
  },
);
