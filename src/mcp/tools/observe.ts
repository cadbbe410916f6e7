import type { ToolRegistrar } from "./registrar";
import type { ToolContext } from "../context";
import { answer, readField, fieldStub, healthText, listIds, noteCaller, bearerOf } from "./play-common";
import { observeArgs } from "./play-schemas";
import { published } from "./published-schema";
import { counted } from "../../text/wording";
import { FULL_MAX_G } from "../../referee/limits";

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const OBSERVE_TOOL = {
  title: "Observe a field",
  description:
    `Read the field; changes nothing. Scope: agent (your area, frontier, health), rect [x,y,w,h], or none/full (every tile if G <= ${FULL_MAX_G}). Rules: mosaic://rules.`,
  inputSchema: published(observeArgs),
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `observe` (SPEC §4.7): read-only; on a generating field, its status and elapsed seconds. */
export function registerObserve(tools: ToolRegistrar, ctx: ToolContext): void {
  tools.registerTool(
    "observe",
    OBSERVE_TOOL,
    async (args) => {
      // The caller's machine is the perspective of every view (fog, frontier, the health of {agent}):
      // the field reads from the machine its token proves (and refuses a token that is not current); spectators send none.
      const header = await bearerOf(ctx);
      if (!header.ok) return header.result;
      const bearer = header.bearer;
      return readField(async () =>
        answer(noteCaller(ctx, await fieldStub(ctx.env, args.game_id).observe({ agent: args.agent, rect: args.rect, full: args.full, bearer })), (a) => {
          const o = (a.observation ?? {}) as Record<string, unknown>;
          if (o.scope === "header") {
            return `${args.game_id}: ${String(o.status)}, revision ${String(o.revision)}, ${String(o.tiles_total)} tiles on G=${String(o.G)}, too many to list: observe {agent} for your area or {rect: [x, y, w, h]}.`;
          }
          if (o.status === "generating") return `Field ${args.game_id} is generating (${String(o.seconds)} s so far); poll observe again until playing.`;
          if (o.status === "failed") return `Field ${args.game_id} failed: ${String(o.error)}. Start or pick another field.`;
          const tiles = Array.isArray(o.tiles) ? o.tiles.length : 0;
          // A spectator's view has no frontier of its own: name one only when the scope has it.
          const hasFrontier = Array.isArray(o.frontier) && (args.agent !== undefined || o.frontier.length > 0);
          const frontier = hasFrontier ? `; frontier: ${listIds(o.frontier)}` : "";
          const health = o.health as { state?: string } | undefined;
          const warn = health?.state && health.state !== "healthy" ? healthText(health) : "";
          return `${args.game_id}: ${String(o.status)}, revision ${String(o.revision)}, ${counted(tiles, "tile")} listed of ${String(o.tiles_total)}${frontier}.${warn}`;
        }),
      );
    },
  );
}
