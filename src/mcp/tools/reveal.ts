import type { ToolRegistrar } from "./registrar";
import type { ToolContext } from "../context";
import { listIds, playWrite } from "./play-common";
import { revealArgs } from "./play-schemas";
import { published } from "./published-schema";
import { named } from "../../text/wording";

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const REVEAL_TOOL = {
  title: "Reveal a tile",
  description:
    "Reveal a hidden tile on your frontier: its shape, givens [[cell,v]] and seam (cells already known). Rules: mosaic://rules.",
  inputSchema: published(revealArgs),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** `reveal` (SPEC §4.3): discloses a hidden tile on the caller's frontier. */
export function registerReveal(tools: ToolRegistrar, ctx: ToolContext): void {
  tools.registerTool(
    "reveal",
    REVEAL_TOOL,
    (args) =>
      playWrite(ctx, args, { type: "reveal", tile: args.tile }, (a) => {
        const givens = Array.isArray(a.givens) ? a.givens.length : 0;
        const seam = Array.isArray(a.seam) ? a.seam.length : 0;
        const solved = Array.isArray(a.solved) && a.solved.length ? ` Solved at once: ${named("tile", a.solved)}.` : "";
        const verb = a.changed === false ? "Tile" : "Revealed tile";
        const status = a.tile_status === "solved" ? ", solved" : "";
        const read = a.changed === false ? ` Already ${a.tile_status === "solved" ? "solved by your group" : "revealed"}: nothing changed.` : "";
        const frontier = Array.isArray(a.frontier) ? ` Frontier: ${listIds(a.frontier)}.` : "";
        return `${verb} ${String(a.tile)} (${String(a.cells)} cells, m=${String(a.m)}${status}): ${givens} givens, ${seam} seam cells. Revision ${String(a.revision)}.${solved}${read}${frontier}`;
      }),
  );
}
