// The text of an `observe` answer (SPEC §6 "What a model reads", §4.7): revealed unsolved tiles in
// scope as pictures, hidden tiles compactly, solved territory as a count, the frontier and health.
// `known.gaps` is for programs only: the pictures carry those values.
import { counted } from "../../text/wording";
import { healthText } from "../tools/play-common";
import { arr, boxText, lines, rulesLine, tileIds } from "./cells";
import { LEGEND_LINE, pictureBlock, pictureOf, type TileFacts } from "./pictures";

type Obs = Record<string, unknown>;
type ListedTile = TileFacts & { id: number; status?: string; agent?: string | null };

/** Hidden tiles named in the text at most; the rest are counted (all are in structuredContent). */
const HIDDEN_MAX = 40;

/** The text of a playing field's observation; `scope` is what the caller asked for. */
export function observeText(gameId: string, o: Obs, asAgent: boolean): string {
  if (o.scope === "header") {
    return `${gameId}: ${String(o.status)}, revision ${String(o.revision)}, ${String(o.tiles_total)} tiles on G=${String(o.G)}, too many to list: observe {agent} for your area or {rect: [x, y, w, h]}.`;
  }
  if (o.status === "generating") return `Field ${gameId} is generating (${String(o.seconds)} s so far); poll observe again until playing.`;
  if (o.status === "failed") return `Field ${gameId} failed: ${String(o.error)}. Start or pick another field.`;
  const tiles = arr<ListedTile>(o.tiles);
  const frontier = arr<number>(o.frontier);
  const onFrontier = new Set(frontier);
  const hasFrontier = asAgent || frontier.length > 0;
  const revealed = tiles.filter((t) => t.status === "revealed");
  const hidden = tiles.filter((t) => t.status === "hidden");
  const solved = tiles.filter((t) => t.status === "solved");
  const health = o.health as { state?: string } | undefined;
  const summary = `${gameId}: ${String(o.status)}, revision ${String(o.revision)}, G=${String(o.G)}, ${counted(tiles.length, "tile")} in view of ${String(o.tiles_total)}${hasFrontier ? `; frontier: ${tileIds(frontier)}` : ""}.`;
  // Hidden tiles: frontier ones first (the model reveals those), each "id: box, cells, m".
  const hiddenSorted = [...hidden.filter((t) => onFrontier.has(t.id)), ...hidden.filter((t) => !onFrontier.has(t.id))];
  const hiddenLines = hiddenSorted.slice(0, HIDDEN_MAX).map((t) => `${t.id}${onFrontier.has(t.id) ? "*" : ""}: ${boxText(t)}, ${t.cells} cells, m=${t.m}`);
  if (hiddenSorted.length > HIDDEN_MAX) hiddenLines.push(`and ${hiddenSorted.length - HIDDEN_MAX} more hidden tiles (observe a smaller rect to list them)`);
  const solvedCells = solved.reduce((s, t) => s + (Number(t.cells) || 0), 0);
  const pictures = revealed.map((t) => pictureBlock(t.id, t, pictureOf(o.pictures, t.id), onFrontier.has(t.id) ? ", on your frontier" : ""));
  return lines(
    summary,
    rulesLine(o.rules),
    solved.length > 0 && `solved in view: ${counted(solved.length, "tile")} (${solvedCells} cells): ${tileIds(solved.map((t) => t.id), 30)}`,
    hidden.length > 0 && `hidden tiles (* = on your frontier: reveal it):\n${hiddenLines.join("\n")}`,
    revealed.length > 0 && `revealed, unsolved (${revealed.length}):`,
    revealed.length > 0 && LEGEND_LINE,
    pictures.join("\n"),
    // With health, the note is its warning, which the health sentence says already.
    typeof o.note === "string" && !health?.state && o.note,
    health?.state ? healthText(health).trim() : null,
  );
}
