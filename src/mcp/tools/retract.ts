import type { ToolRegistrar } from "./registrar";
import type { ToolContext } from "../context";
import { playWrite } from "./play-common";
import { retractText } from "../answers/write-texts";
import { retractArgs } from "./play-schemas";
import { published } from "./published-schema";
import { MAX_RETRACT_CELLS } from "../../referee/limits";

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const RETRACT_TOOL = {
  title: "Retract cells",
  description:
    `Withdraw 1..${MAX_RETRACT_CELLS} cells your machine committed, as cells [cell_id] or xy [[x, y]] (not givens, cells of solved tiles or other machines' cells). Rules: mosaic://rules.`,
  inputSchema: published(retractArgs),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

/** `retract` (SPEC §4.6): withdraws cells the caller's machine committed. */
export function registerRetract(tools: ToolRegistrar, ctx: ToolContext): void {
  tools.registerTool(
    "retract",
    RETRACT_TOOL,
    (args) =>
      playWrite(ctx, args, { type: "retract", cells: args.cells, xy: args.xy }, retractText),
  );
}
