import type { ToolRegistrar } from "./registrar";
import { z } from "zod";
import { listGames, type GameSummary } from "../../game/registry";
import { retryRead } from "../../game/object-failures";
import type { ToolContext } from "../context";
import { toolOk } from "../results";
import { published } from "./published-schema";
import { counted } from "../../text/wording";
import { rulesLine } from "../answers/cells";

/** How many games the text summary names; the structured answer always has them all. */
const SUMMARY_GAMES = 5;

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const LIST_GAMES_TOOL = {
  title: "List games",
  description:
    "Fields, newest first: game_id, status, revision, G, tiles, grown, fog, rules, agents (first 100), agents_total, error?. Rules: mosaic://rules.",
  inputSchema: published(z.object({})),
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `list_games` (SPEC §6): the fields on this server, newest first. */
export function registerListGames(tools: ToolRegistrar, ctx: ToolContext): void {
  tools.registerTool(
    "list_games",
    LIST_GAMES_TOOL,
    async () => {
      const games = await retryRead(() => listGames(ctx.env));
      return toolOk(summarise(games), { games });
    },
  );
}

/** One summary line, then a line per game shown (newest first), each with the field's rules. */
function summarise(games: GameSummary[]): string {
  if (games.length === 0) return "No games yet.";
  const more = games.length > SUMMARY_GAMES ? ` (the newest ${SUMMARY_GAMES} below)` : "";
  const shown = games.slice(0, SUMMARY_GAMES).map((g) => {
    // The field's rules, when the summary carries them (read defensively: older summaries have none).
    const rules = rulesLine((g as { rules?: unknown }).rules);
    return `${g.game_id}: ${g.status}, G=${g.G}, ${counted(g.agents_total, "agent")}, revision ${g.revision}${rules ? `; ${rules}` : ""}`;
  });
  return [`${counted(games.length, "game")}${more}, newest first:`, ...shown].join("\n");
}
