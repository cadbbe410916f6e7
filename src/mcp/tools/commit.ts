import type { ToolRegistrar } from "./registrar";
import type { ToolContext } from "../context";
import { playWrite } from "./play-common";
import { commitReply } from "../answers/write-texts";
import { commitArgs } from "./play-schemas";
import { published } from "./published-schema";
import { MAX_COMMIT_CELLS, MAX_INTENT_CHARS } from "../../referee/limits";

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const COMMIT_TOOL = {
  title: "Commit cells",
  description:
    `Commit 1..${MAX_COMMIT_CELLS} cells of revealed frontier tiles, as cells [[cell_id, 0|1]] or xy [[x, y, 0|1]], with a public intent (<= ${MAX_INTENT_CHARS} chars). Wrong cells hurt your machine's health. Rules: mosaic://rules.`,
  inputSchema: published(commitArgs),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** `commit` (SPEC §4.4): cell values judged in order against the hidden solution. */
export function registerCommit(tools: ToolRegistrar, ctx: ToolContext): void {
  tools.registerTool(
    "commit",
    COMMIT_TOOL,
    (args) =>
      playWrite(ctx, args, { type: "commit", cells: args.cells, xy: args.xy }, commitReply),
  );
}
