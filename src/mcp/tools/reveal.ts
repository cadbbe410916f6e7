import type { ToolRegistrar } from "./registrar";
import type { ToolContext } from "../context";
import { playWrite } from "./play-common";
import { revealText } from "../answers/write-texts";
import { revealArgs } from "./play-schemas";
import { published } from "./published-schema";

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
      playWrite(ctx, args, { type: "reveal", tile: args.tile }, revealText),
  );
}
