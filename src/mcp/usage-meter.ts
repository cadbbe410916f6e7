import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Env } from "../env";
import type { UsageRow } from "../live/live-store";
import { MACHINE_ID_RE } from "../referee/agent-id";
import type { ToolContext } from "./context";
import type { ToolRegistrar } from "./tools/registrar";

/**
 * Tool calls and bytes served per machine and field, for the analysis (SPEC §11 efficiency
 * columns). Counted where calls are answered, in the Worker isolate, and sent to the field's
 * object in batches — one RPC per field per second at most, after the answers have left — so no
 * call waits for the counting or costs a round trip of its own. An answer's bytes (its JSON, as
 * UTF-8) are measured in that batch too, not while the caller waits.
 *
 * Whose call it is: the machine the request proved by its bearer token or a join proof
 * (`ctx.provenMachine`, noted by the tools when they resolve it, refusals included); else, for a write that succeeded, the machine of
 * the agent it named (the field checked the agent's secret); else, for a join that succeeded, the
 * machine of the seated agent. Calls that prove no machine are not counted per machine, so nobody
 * can inflate another machine's figures, and a field that does not exist is never sent anything.
 */

const FLUSH_AFTER_MS = 1000;
const WRITE_TOOLS = new Set(["reveal", "commit", "retract"]);
/** Refusals that say the field is not there (or not playable): nothing to count it against. */
const NO_FIELD = new Set(["missing", "generating", "failed"]);

/** Per field, per machine: the answers counted since the last flush (their bytes are measured at the flush, off the answer path). */
const pending = new Map<string, Map<string, CallToolResult[]>>();
const scheduled = new Set<string>();

/** A registrar that wraps every tool registered through it so that its answers are counted. */
export function meteredRegistrar(registrar: ToolRegistrar, ctx: ToolContext): ToolRegistrar {
  return {
    registerTool(name, config, handler) {
      registrar.registerTool(name, config, async (args) => {
        const result = await handler(args);
        try {
          count(ctx, name, args as Record<string, unknown>, result);
        } catch (err) {
          console.error("usage count failed", err);
        }
        return result;
      });
    },
  };
}

function count(ctx: ToolContext, tool: string, args: Record<string, unknown>, result: CallToolResult): void {
  const game = args?.game_id;
  if (typeof game !== "string") return;
  let machine: string | undefined = ctx.provenMachine;
  if (result.isError) {
    const code = (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
    if (code !== undefined && NO_FIELD.has(code)) return;
  } else if (!machine) {
    if (WRITE_TOOLS.has(tool)) machine = machineOf(args.agent);
    else if (tool === "join") machine = machineOf((result.structuredContent as { agent?: unknown } | undefined)?.agent);
  }
  if (!machine) return;
  let perGame = pending.get(game);
  if (!perGame) pending.set(game, (perGame = new Map()));
  const answers = perGame.get(machine);
  if (answers) answers.push(result);
  else perGame.set(machine, [result]);
  if (scheduled.has(game)) return;
  scheduled.add(game);
  const flushing = new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS)).then(() => flush(ctx.env, game));
  if (ctx.waitUntil) ctx.waitUntil(flushing);
}

/** The machine of an agent id `<machine_id>/<session>`, when it is one. */
function machineOf(agent: unknown): string | undefined {
  if (typeof agent !== "string") return undefined;
  const machine = agent.slice(0, Math.max(agent.indexOf("/"), 0));
  return MACHINE_ID_RE.test(machine) ? machine : undefined;
}

/** Sends a field's counted calls to its object (what arrives meanwhile waits for the next batch). */
export async function flush(env: Env, game: string): Promise<void> {
  scheduled.delete(game);
  const perGame = pending.get(game);
  pending.delete(game);
  if (!perGame || perGame.size === 0) return;
  const encoder = new TextEncoder();
  const rows: UsageRow[] = [...perGame].map(([machine, answers]) => ({
    machine,
    calls: answers.length,
    bytes: answers.reduce((sum, answer) => sum + encoder.encode(JSON.stringify(answer)).length, 0),
  }));
  try {
    await env.FIELDS.getByName(game).recordUsage(rows);
  } catch (err) {
    console.error("usage flush failed", game, err);
  }
}
