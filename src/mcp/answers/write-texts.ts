// The texts of the write tools' answers (SPEC §6 "What a model reads"): a one-line summary, then
// what the model acts on, cells by coordinates, tiles as pictures; the data stays in structuredContent.
import { named } from "../../text/wording";
import type { ModelReply } from "../results";
import { healthText } from "../tools/play-common";
import { arr, capped, commitHint, lines, rulesLine, tileIds, xy, xyv } from "./cells";
import { parsePicture, pictureRows } from "../../text/tile-picture";
import { LEGEND_LINE, pictureBlock, pictureOf, type TileFacts } from "./pictures";

type Answer = Record<string, unknown>;

/** `join`: the summary line, the rules, the seed tile's shape as a picture. */
export function joinText(summary: string, a: Answer): string {
  const seed = a.seed as (TileFacts & { id: number }) | null | undefined;
  const picture = seed ? pictureOf(a.pictures, seed.id) : undefined;
  return lines(
    summary,
    rulesLine(a.rules),
    seed && `Seed ${pictureBlock(seed.id, seed, undefined)} (shape only: values come with reveal).`,
    picture && LEGEND_LINE,
    picture,
  );
}

/** `reveal`: the tile's picture with its givens and seam drawn in, its size and m, what to do next. */
export function revealText(a: Answer): string {
  const givens = arr(a.givens).length;
  const seam = arr(a.seam).length;
  const reread = a.changed === false;
  const verb = reread ? "Tile" : "Revealed tile";
  const state = a.tile_status === "solved" ? " (solved)" : "";
  const read = reread ? ` Already ${a.tile_status === "solved" ? "solved by your group" : "revealed"}: nothing changed.` : "";
  const solved = arr(a.solved).length ? ` Solved at once: ${named("tile", arr(a.solved))}, reward ${String(a.reward)}.` : "";
  // Its size and m are on the tile's line under the summary: said once.
  const summary = `${verb} ${String(a.tile)}${state}: ${givens} givens and ${seam} seam cells, drawn in the picture; revision ${String(a.revision)}.${solved}${read}`;
  const picture = pictureOf(a.pictures, a.tile);
  const open = a.tile_status !== "solved";
  return lines(
    summary,
    pictureBlock(a.tile, a as unknown as TileFacts, undefined),
    picture && LEGEND_LINE,
    picture,
    Array.isArray(a.frontier) && `frontier: ${tileIds(a.frontier)}`,
    open && commitHint(a.revision),
  );
}

interface Verdict {
  id: number;
  v?: number;
  class?: string;
  rule?: string;
  reason?: string;
}

/** Counts by key, "run 30, balance 18", largest first. */
function tally(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].sort((p, q) => q[1] - p[1]).map(([k, n]) => `${k} ${n}`).join(", ");
}

/** How many cells of each list a commit answer names; past that, "and N more" (all are in structuredContent). */
const LIST_MAX = 40;

/**
 * `commit`: accepted counted by class and rule; then only what the model acts on: rejected cells
 * with their true value, guesses, ignored cells by reason, unevaluated cells, solved tiles, the
 * judged tiles still open (their unknown cells when few), redrawn as room allows, meetings, reward,
 * the new frontier, health. structuredContent's `pictures` are the ones the text draws.
 */
export function commitReply(a: Answer): ModelReply {
  const G = Number(a.G);
  const accepted = arr<Verdict>(a.accepted);
  const rejected = arr<Verdict>(a.rejected);
  const ignored = arr<Verdict>(a.ignored);
  const unevaluated = arr<number>(a.unevaluated);
  const forced = accepted.filter((c) => c.class === "forced");
  const guesses = accepted.filter((c) => c.class !== "forced");
  const parts = [forced.length ? `${forced.length} forced: ${tally(forced.map((c) => c.rule ?? "forced"))}` : "", guesses.length ? `${guesses.length} guess` : ""].filter(Boolean);
  const acceptedText = `${accepted.length} accepted${parts.length ? ` (${parts.join("; ")})` : ""}`;
  const solved = arr(a.solved);
  const solvedText = solved.length ? ` Solved ${named("tile", solved, 20)}, reward ${String(a.reward)}.` : "";
  const head = `Revision ${String(a.revision)}: ${acceptedText}, ${rejected.length} rejected, ${ignored.length} ignored${unevaluated.length ? `, ${unevaluated.length} unevaluated` : ""}.${solvedText}${a.changed === false ? " Nothing changed." : ""}`;
  const wrong = rejected.filter((r) => r.reason !== "guess");
  const refusedGuesses = rejected.filter((r) => r.reason === "guess");
  const byReason = new Map<string, Verdict[]>();
  for (const c of ignored) byReason.set(c.reason ?? "ignored", [...(byReason.get(c.reason ?? "ignored") ?? []), c]);
  const ignoredText = [...byReason]
    .map(([reason, cells]) => {
      // Known cells carry their value (the model's view was stale there); the other reasons name where when it helps.
      const where = reason === "known" ? cells.map((c) => xyv(c.id, c.v ?? 0, G)) : reason === "duplicate" || reason === "given" ? [] : cells.map((c) => xy(c.id, G));
      return `${reason} ${cells.length}${where.length ? `: ${capped(where, LIST_MAX)}` : ""}`;
    })
    .join("; ");
  const meets = arr<{ with?: unknown[] }>(a.meets);
  const openTiles = arr<{ tile: number; unknown: number; cells?: number[] }>(a.open);
  const before = [
    head,
    wrong.length > 0 && `rejected (wrong, so still unknown: commit the true value): ${capped(wrong.map((r) => `${xy(r.id, G)} is ${r.v === 0 ? 1 : 0}, not ${String(r.v)}`), LIST_MAX)}`,
    refusedGuesses.length > 0 && `rejected (correct but not forced; this field refuses guesses): ${capped(refusedGuesses.map((r) => xy(r.id, G)), LIST_MAX)}`,
    guesses.length > 0 && `guesses: ${capped(guesses.map((c) => xy(c.id, G)), LIST_MAX)}`,
    ignored.length > 0 && `ignored: ${ignoredText}`,
    unevaluated.length > 0 && `unevaluated (not judged; send again once healthy): ${capped(unevaluated.map((c) => xy(c, G)), LIST_MAX)}`,
    openTiles.length > 0 && `still open: ${openTiles.map((t) => `tile ${t.tile} ${t.unknown} unknown${t.cells ? `: ${t.cells.map((c) => xy(c, G)).join(" ")}` : ""}`).join("; ")}`,
  ];
  const after = [
    meets.length > 0 && `met: ${meets.map((m) => arr(m.with).join(", ")).join("; ")}`,
    Array.isArray(a.frontier) && `frontier: ${tileIds(a.frontier)}`,
    a.status === "solved" && "The field is solved.",
    healthText(a.health).trim(),
  ];
  const judged = [...accepted, ...rejected].map((c) => c.id);
  const room = COMMIT_TEXT_BUDGET - lines(...before, ...after).length;
  const redrawn = redrawnTiles(room, openTiles.map((t) => t.tile), a.pictures, judged, G);
  return { text: lines(...before, ...redrawn.blocks, ...after), structured: { ...a, pictures: redrawn.pictures } };
}

/** A commit's whole text stays within this many characters (SPEC §6: 800 for a commit of 55 cells). */
export const COMMIT_TEXT_BUDGET = 800;

/**
 * The tiles a commit judged and left open, redrawn within the room the rest of its text leaves: a tile
 * whole, else its rows that still have unknown cells, else only those this commit touched (the rest
 * are as the model last saw them). Keeping a board in the head drifts; players re-revealed to resync.
 */
function redrawnTiles(room: number, openIds: readonly number[], pictures: unknown, judged: readonly number[], G: number): { blocks: string[]; pictures: Record<string, string> } {
  const blocks: string[] = [];
  const drawnPictures: Record<string, string> = {};
  let left = 0;
  // The tile this commit worked on most first: with little room, it is the one the model is solving.
  const tiles = openIds.flatMap((id) => {
    const whole = pictureOf(pictures, id);
    if (whole === undefined) return [];
    const drawn = parsePicture(whole);
    const inTile = new Set(drawn.cells.map((c) => c.y * G + c.x));
    const mine = judged.filter((c) => inTile.has(c));
    return [{ id, whole, drawn, judgedHere: mine.length, touched: new Set(mine.map((c) => Math.floor(c / G))) }];
  });
  tiles.sort((p, q) => q.judgedHere - p.judgedHere || p.id - q.id);
  for (const { id, whole, drawn, touched } of tiles) {
    const unfinished = new Set(drawn.cells.filter((c) => c.v === -1).map((c) => c.y));
    const choice = [
      { head: `tile ${id} now:`, picture: whole },
      { head: `tile ${id} now, its rows still open:`, picture: pictureRows(whole, (y) => unfinished.has(y)) },
      { head: `tile ${id} now, the rows this commit changed:`, picture: pictureRows(whole, (y) => touched.has(y) && unfinished.has(y)) },
    ].find((c) => c.picture !== null && c.head.length + c.picture.length + 2 <= room);
    if (choice?.picture) {
      blocks.push(`${choice.head}\n${choice.picture}`);
      drawnPictures[String(id)] = choice.picture;
      room -= choice.head.length + choice.picture.length + 2;
    } else left++;
  }
  if (left > 0) blocks.push(`(${left === 1 ? "an open tile is" : `${left} open tiles are`} not redrawn here: reveal it again, a read, to see it whole)`);
  return { blocks, pictures: drawnPictures };
}

/** `retract`: the retracted cells by coordinates, the ignored ones by reason. */
export function retractText(a: Answer): string {
  const G = Number(a.G);
  const retracted = arr<number>(a.retracted);
  const ignored = arr<Verdict>(a.ignored);
  const head = `Revision ${String(a.revision)}: ${retracted.length} retracted, ${ignored.length} ignored.${a.changed === false ? " Nothing changed." : ""}`;
  return lines(
    head,
    retracted.length > 0 && `retracted: ${capped(retracted.map((c) => xy(c, G)), 200)}`,
    ignored.length > 0 && `ignored: ${capped(ignored.map((c) => `${c.v === undefined ? xy(c.id, G) : xyv(c.id, c.v, G)} ${c.reason ?? ""}`.trim()), LIST_MAX)}`,
  );
}
