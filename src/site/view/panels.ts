import { el, clear, counted, formatInt } from "../dom";
import { xy } from "../../text/coordinates";
import { tilePicture } from "./picture";
import type { ViewState, ViewTile } from "./state";

/** The view's text: the header figures, the last tile's picture and the lists (the canvas's text equivalent). */
export interface Panels {
  summary: HTMLElement;
  stats: HTMLElement;
  picture: HTMLPreElement;
  pictureCaption: HTMLElement;
  lists: HTMLElement;
  canvas: HTMLCanvasElement;
}

const MAX_LISTED = 40;

function listOf(items: string[]): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

export function territory(state: ViewState): ViewTile[] {
  return [...state.tiles.values()].filter((t) => t.status === "solved" && t.agent !== null && t.agent === state.agent);
}

function stat(term: string, value: string): HTMLElement[] {
  return [el("dt", { text: term }), el("dd", { text: value })];
}

export function renderPanels(p: Panels, state: ViewState): void {
  const who = state.agent ? `agent ${state.agent}` : "no agent yet";
  p.summary.textContent = state.gameId ? `Field ${state.gameId}, ${who}` : "Waiting for a Mosaic tool result…";

  const health = state.health ? `${state.health.state}${state.health.wrong !== undefined ? ` (${state.health.wrong} wrong of ${state.health.committed ?? 0})` : ""}` : "not reported yet";
  const reward = state.reward !== null ? formatInt(state.reward) : "—";
  const last = state.lastCommitReward !== null ? ` (last commit ${state.lastCommitReward >= 0 ? "+" : ""}${state.lastCommitReward})` : "";
  clear(p.stats);
  for (const node of [
    ...stat("Revision", state.revision !== null ? formatInt(state.revision) : "—"),
    ...stat("Reward", `${reward}${last}`),
    ...stat("Health", health),
    ...stat("Field", state.status ? `${state.status}${state.G ? `, G = ${state.G}` : ""}` : "—"),
  ]) p.stats.appendChild(node);

  const G = state.G;
  if (state.lastTile && G) {
    const t = state.lastTile.tile;
    p.pictureCaption.textContent = `Tile ${t.id}: ${t.w} × ${t.h} at (${t.x0},${t.y0}), ${t.cells} cells, m = ${t.m}`;
    p.picture.textContent = tilePicture(state.lastTile, G, state.known, state.rejected);
  } else {
    p.pictureCaption.textContent = state.lastTile ? `Tile ${state.lastTile.tile.id}` : "No tile revealed yet.";
    p.picture.textContent = "";
  }
  p.picture.hidden = p.picture.textContent === "";

  const mine = territory(state).map((t) => String(t.id));
  const frontier = state.frontier.map(String);
  const rejected = G ? [...state.rejected].sort((a, b) => a - b).map((c) => xy(c, G)) : [...state.rejected].map(String);
  const known = state.known.size;
  clear(p.lists);
  for (const [label, text] of [
    ["Territory (tiles solved)", listOf(mine)],
    ["Frontier", listOf(frontier)],
    ["Tiles in reach", `${state.tiles.size} (${[...state.tiles.values()].filter((t) => t.status === "solved").length} solved)`],
    ["Known cells", formatInt(known)],
    ["Rejected cells", listOf(rejected)],
  ] as const) {
    p.lists.appendChild(el("li", {}, el("strong", { text: `${label}: ` }), el("span", { class: "list-value", "data-list": label.split(" ")[0].toLowerCase(), text })));
  }

  p.canvas.setAttribute(
    "aria-label",
    `Map of the neighbourhood: ${counted(state.tiles.size, "tile")} in reach, ${mine.length} solved by this agent, ${frontier.length} on the frontier, ${counted(rejected.length, "rejected cell")}. The lists below say the same.`,
  );
}

/** The tile under the pointer or the focused canvas, in words (WCAG: the canvas's details as text). */
export function tileWords(tile: ViewTile | null, state: ViewState, cell: { x: number; y: number } | null = null): string {
  if (!tile) return "No tile here. Point at a tile, or focus the map and use the arrow keys to pan.";
  const who = tile.status === "solved" && tile.agent ? ` by ${tile.agent === state.agent ? "this agent" : tile.agent}` : "";
  const where = state.frontier.includes(tile.id) ? ", on the frontier" : "";
  let at = "";
  if (cell && state.G) {
    const id = cell.y * state.G + cell.x;
    const v = state.known.get(id);
    at = ` Cell (${cell.x},${cell.y}): ${state.rejected.has(id) && v === undefined ? "rejected" : v === undefined ? "unknown" : v}.`;
  }
  return `Tile ${tile.id}: ${tile.status}${who}${where}; ${tile.w} × ${tile.h} at (${tile.x0},${tile.y0}), ${tile.cells} cells.${at}`;
}
