import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context";
import { answer, callField, fieldStub, listIds, writeAuth } from "./play-common";
import { revealArgs } from "./play-schemas";

/** `reveal` (SPEC §4.3): discloses a hidden tile on the caller's frontier. */
export function registerReveal(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "reveal",
    {
      title: "Reveal a tile",
      description:
        "Reveal a hidden tile on your frontier: its shape, givens [[cell,v]] and seam (cells already known). Needs expected_revision. Rules: mosaic://rules.",
      inputSchema: revealArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const auth = await writeAuth(ctx, args.agent_secret);
      if (!auth.ok) return auth.result;
      const input = { type: "reveal" as const, agent: args.agent, expectedRevision: args.expected_revision, tile: args.tile, intent: args.intent };
      return callField(async () =>
        answer(await fieldStub(ctx.env, args.game_id).write({ input, machineId: auth.machineId, agentSecret: auth.agentSecret }), (a) => {
          const givens = Array.isArray(a.givens) ? a.givens.length : 0;
          const seam = Array.isArray(a.seam) ? a.seam.length : 0;
          const solved = Array.isArray(a.solved) && a.solved.length ? ` Solved at once: ${listIds(a.solved)}.` : "";
          return `Revealed tile ${String(a.tile)} (${String(a.cells)} cells, m=${String(a.m)}): ${givens} givens, ${seam} seam cells. Revision ${String(a.revision)}.${solved}`;
        }),
      );
    },
  );
}
