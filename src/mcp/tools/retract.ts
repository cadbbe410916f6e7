import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context";
import { toolError } from "../results";
import { answer, callField, fieldStub, writeAuth } from "./play-common";
import { MAX_RETRACT_CELLS, retractArgs } from "./play-schemas";

/** `retract` (SPEC §4.6): withdraws cells the caller's machine committed. */
export function registerRetract(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "retract",
    {
      title: "Retract cells",
      description:
        "Withdraw 1..8192 cells your machine committed (not givens, not cells of solved tiles, not other machines' cells). Needs expected_revision. Rules: mosaic://rules.",
      inputSchema: retractArgs,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      if (args.cells.length > MAX_RETRACT_CELLS) {
        return toolError("too_large", `batch too large: ${args.cells.length} cells; retract at most ${MAX_RETRACT_CELLS} per call`);
      }
      const auth = await writeAuth(ctx, args.agent_secret);
      if (!auth.ok) return auth.result;
      const input = { type: "retract" as const, agent: args.agent, expectedRevision: args.expected_revision, cells: args.cells, intent: args.intent };
      return callField(async () =>
        answer(await fieldStub(ctx.env, args.game_id).write({ input, machineId: auth.machineId, agentSecret: auth.agentSecret }), (a) => {
          const retracted = Array.isArray(a.retracted) ? a.retracted.length : 0;
          const ignored = Array.isArray(a.ignored) ? a.ignored.length : 0;
          return `Revision ${String(a.revision)}: ${retracted} retracted, ${ignored} ignored.`;
        }),
      );
    },
  );
}
