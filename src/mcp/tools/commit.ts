import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context";
import { toolError } from "../results";
import { answer, callField, fieldStub, listIds, writeAuth } from "./play-common";
import { commitArgs, MAX_COMMIT_CELLS } from "./play-schemas";

/** `commit` (SPEC §4.4): cell values judged in order against the hidden solution. */
export function registerCommit(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "commit",
    {
      title: "Commit cells",
      description:
        "Commit 1..512 [cell_id, 0|1] pairs in revealed frontier tiles, with a one-line intent (<= 160 chars, public). Wrong cells hurt your machine's health. Needs expected_revision. Rules: mosaic://rules.",
      inputSchema: commitArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      if (args.cells.length > MAX_COMMIT_CELLS) {
        return toolError("too_large", `batch too large: ${args.cells.length} cells; commit at most ${MAX_COMMIT_CELLS} per call`);
      }
      const auth = await writeAuth(ctx, args.agent_secret);
      if (!auth.ok) return auth.result;
      const cells = args.cells.map(([id, v]) => [id, v] as [number, 0 | 1]);
      const input = { type: "commit" as const, agent: args.agent, expectedRevision: args.expected_revision, cells, intent: args.intent };
      return callField(async () =>
        answer(await fieldStub(ctx.env, args.game_id).write({ input, machineId: auth.machineId, agentSecret: auth.agentSecret }), (a) => {
          const n = (k: string) => (Array.isArray(a[k]) ? (a[k] as unknown[]).length : 0);
          const health = a.health as { state?: string; rate?: number } | undefined;
          const solved = n("solved") ? ` Solved: ${listIds(a.solved)} (+${String(a.reward)}).` : "";
          const dead = n("unevaluated") ? ` ${n("unevaluated")} unevaluated.` : "";
          const meets = n("meets") ? ` Met ${n("meets")} group(s).` : "";
          return `Revision ${String(a.revision)}: ${n("accepted")} accepted, ${n("rejected")} rejected, ${n("ignored")} ignored.${dead}${solved}${meets} Health ${health?.state ?? "?"}.`;
        }),
      );
    },
  );
}
