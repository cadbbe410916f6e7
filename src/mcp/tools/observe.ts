import type { ToolRegistrar } from "./registrar";
import type { ToolContext } from "../context";
import { answer, readField, fieldStub, noteCaller, bearerOf } from "./play-common";
import { observeText } from "../answers/observe-text";
import { observeArgs } from "./play-schemas";
import { published } from "./published-schema";
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
        answer(noteCaller(ctx, await fieldStub(ctx.env, args.game_id).observe({ agent: args.agent, rect: args.rect, full: args.full, bearer })), (a) =>
          observeText(args.game_id, (a.observation ?? {}) as Record<string, unknown>, args.agent !== undefined),
        ),
      );
    },
  );
}
