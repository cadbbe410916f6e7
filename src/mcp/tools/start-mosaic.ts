import type { McpServer } from "@modelcontextprotocol/server";
import { resolveParams } from "../../engine";
import type { FieldShape } from "../../game/field-object";
import type { GrowPolicy } from "../../game/growth";
import type { FieldRules } from "../../referee/types";
import type { ToolContext } from "../context";
import { toolError } from "../results";
import { answer, callField, fieldStub } from "./play-common";
import { startMosaicArgs, type StartMosaicArgs } from "./play-schemas";

/** `start_mosaic` (SPEC §6): creates a field and answers at once; generation runs in the field's object. */
export function registerStartMosaic(server: McpServer, ctx: ToolContext): void {
  if (ctx.env.MOSAIC_DAILY === "1") return; // the hosted daily server plays one field a day (SPEC §9)
  server.registerTool(
    "start_mosaic",
    {
      title: "Start a field",
      description:
        "Create a new field; answers at once with game_id and status generating (poll observe until playing, then join). Unjoined games expire after 30 minutes. Rules: mosaic://rules.",
      inputSchema: startMosaicArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const plan = planField(args);
      if (!plan.ok) return toolError("bad_input", plan.message);
      const gameId = crypto.randomUUID();
      const seed = args.seed ?? randomSeed();
      return callField(async () => {
        const outcome = await fieldStub(ctx.env, gameId).create({ gameId, params: plan.params, rules: plan.rules, G: plan.G, seed, grow: plan.grow });
        const spectator_url = `${new URL(ctx.request.url).origin}/?game=${gameId}`;
        return answer(
          outcome.ok ? { ok: true, answer: { game_id: gameId, status: "generating", kind: args.kind, G: plan.G, spectator_url } } : outcome,
          (a) => `Started ${a.kind} field ${a.game_id} (G=${a.G}): generating. Poll observe {game_id} until status is playing, then join. Watch: ${a.spectator_url}`,
        );
      });
    },
  );
}

export type FieldPlan = { ok: true; params: FieldShape; rules: FieldRules; G: number; grow?: GrowPolicy } | { ok: false; message: string };

/**
 * Applies the defaults of SPEC §3. The engine's own parameter resolution decides the side and
 * the cross-field constraints (grid G-1 a multiple of n-1, canvas size), so edge and engine agree.
 */
export function planField(args: StartMosaicArgs): FieldPlan {
  const grow = args.grow && (args.grow.every_minutes !== undefined || args.grow.frontier_coverage !== undefined) ? args.grow : undefined;
  if (grow && args.kind !== "field") return { ok: false, message: "grow applies to kind field only" };
  const foreign = foreignParams(args, grow !== undefined);
  if (foreign.length > 0) return { ok: false, message: `${args.kind}: ${foreign.join(", ")} ${foreign.length === 1 ? "does" : "do"} not apply (${KIND_PARAMS[args.kind]})` };
  const rules: FieldRules = {
    guess: args.rules?.guess ?? "accept",
    depth: (args.rules?.depth ?? 0) as 0 | 1 | 2,
    fog: args.rules?.fog ?? grow !== undefined,
  };
  const params: FieldShape =
    args.kind === "scatter"
      ? { kind: "scatter", G: args.G ?? 100 }
      : args.kind === "grid"
        ? { kind: "grid", n: args.n ?? 14, ...(args.G !== undefined ? { G: args.G } : {}) }
        : { kind: "field", chunks: args.chunks ?? 3, chunk_g: args.chunk_g ?? 60, ...(grow ? { grow: true, ...(args.G !== undefined ? { G: args.G } : {}) } : {}) };
  try {
    const resolved = resolveParams({ ...params, seed: "" });
    const withG: FieldShape = args.kind === "field" && !grow ? params : { ...params, G: resolved.G };
    return grow ? { ok: true, params: withG, rules, G: resolved.G, grow } : { ok: true, params: withG, rules, G: resolved.G };
  } catch (err) {
    return { ok: false, message: `${args.kind}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** What each kind takes (SPEC §3); anything else would be silently dropped, so it is refused. */
const KIND_PARAMS = {
  scatter: "scatter takes G",
  grid: "grid takes n and G",
  field: "field takes chunks and chunk_g; G only as the canvas of a growing field",
} as const;

function foreignParams(args: StartMosaicArgs, growing: boolean): string[] {
  const given = (["G", "n", "chunks", "chunk_g"] as const).filter((k) => args[k] !== undefined);
  const allowed: ReadonlyArray<string> =
    args.kind === "scatter" ? ["G"] : args.kind === "grid" ? ["G", "n"] : growing ? ["G", "chunks", "chunk_g"] : ["chunks", "chunk_g"];
  return given.filter((k) => !allowed.includes(k));
}

function randomSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}
