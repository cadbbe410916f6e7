import type { ToolRegistrar } from "./registrar";
import { resolveParams } from "../../engine";
import type { FieldShape } from "../../game/field-object";
import type { GrowPolicy } from "../../game/growth";
import type { FieldRules } from "../../referee/types";
import type { ToolContext } from "../context";
import { toolError } from "../results";
import { answer, fieldStub } from "./play-common";
import { startMosaicArgs, type StartMosaicArgs } from "./play-schemas";
import { published } from "./published-schema";

/** Built once per isolate: only the handler, which closes over the request, is per request. */
const START_MOSAIC_TOOL = {
  title: "Start a field",
  description:
    "Create a new field; answers at once with game_id and status generating (poll observe {game_id} until playing, then join). Arguments a kind does not use are listed in ignored. Unjoined games expire after 30 minutes. Rules: mosaic://rules.",
  inputSchema: published(startMosaicArgs),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** `start_mosaic` (SPEC §6): creates a field and answers at once; generation runs in the field's object. */
export function registerStartMosaic(tools: ToolRegistrar, ctx: ToolContext): void {
  if (ctx.env.MOSAIC_DAILY === "1") return; // the hosted daily server plays one field a day (SPEC §9)
  tools.registerTool(
    "start_mosaic",
    START_MOSAIC_TOOL,
    async (args) => {
      const plan = planField(args);
      if (!plan.ok) return toolError("bad_input", plan.message);
      const gameId = crypto.randomUUID();
      const seed = args.seed ?? randomSeed();
      const outcome = await fieldStub(ctx.env, gameId).create({ gameId, params: plan.params, rules: plan.rules, G: plan.G, seed, grow: plan.grow });
      const spectator_url = `${new URL(ctx.request.url).origin}/?game=${gameId}`;
      const ignored = plan.ignored.length > 0 ? { ignored: plan.ignored } : {};
      return answer(
        outcome.ok ? { ok: true, answer: { game_id: gameId, status: "generating", kind: args.kind, G: plan.G, spectator_url, ...ignored } } : outcome,
        (a) =>
          `Started ${a.kind} field ${a.game_id} (G=${a.G}): generating. Poll observe {game_id} until status is playing, then join. Watch: ${a.spectator_url}` +
          (plan.ignored.length > 0 ? ` Ignored (not used by ${a.kind}): ${plan.ignored.join(", ")}.` : ""),
      );
    },
  );
}

export type FieldPlan =
  | { ok: true; params: FieldShape; rules: FieldRules; G: number; grow?: GrowPolicy; ignored: IgnorableArg[] }
  | { ok: false; message: string };

/** The arguments that apply to some kinds only; named in `ignored` when given to another. */
const IGNORABLE = ["G", "n", "chunks", "chunk_g", "grow"] as const;
type IgnorableArg = (typeof IGNORABLE)[number];

/**
 * Applies the defaults of SPEC §3. Every argument is accepted with every kind, as the reference
 * does: one that does not apply is ignored and named (SPEC §6), while values out of range are
 * still refused (by the schema, or by the engine's own parameter resolution, which decides the
 * side and the cross-field constraints so that edge and engine agree).
 */
export function planField(args: StartMosaicArgs): FieldPlan {
  const growing = args.kind === "field" && args.grow !== undefined && (args.grow.every_minutes !== undefined || args.grow.frontier_coverage !== undefined);
  const grow = growing ? args.grow : undefined;
  const applies: Record<IgnorableArg, boolean> = {
    // A growing field's G is its canvas, taken when >= 200 (else the 1000 default, SPEC §3).
    G: args.kind !== "field" || (growing && args.G !== undefined && args.G >= 200),
    n: args.kind === "grid",
    chunks: args.kind === "field",
    chunk_g: args.kind === "field",
    grow: growing,
  };
  const ignored = IGNORABLE.filter((k) => args[k] !== undefined && !applies[k]);
  const G = applies.G ? args.G : undefined;
  const rules: FieldRules = {
    guess: args.rules?.guess ?? "accept",
    depth: (args.rules?.depth ?? 0) as 0 | 1 | 2,
    fog: args.rules?.fog ?? growing,
  };
  const params: FieldShape =
    args.kind === "scatter"
      ? { kind: "scatter", G: G ?? 100 }
      : args.kind === "grid"
        ? { kind: "grid", n: args.n ?? 14, ...(G !== undefined ? { G } : {}) }
        : { kind: "field", chunks: args.chunks ?? 3, chunk_g: args.chunk_g ?? 60, ...(growing ? { grow: true, ...(G !== undefined ? { G } : {}) } : {}) };
  try {
    const resolved = resolveParams({ ...params, seed: "" });
    const withG: FieldShape = args.kind === "field" && !growing ? params : { ...params, G: resolved.G };
    const plan = { ok: true as const, params: withG, rules, G: resolved.G, ignored };
    return grow ? { ...plan, grow } : plan;
  } catch (err) {
    return { ok: false, message: `${args.kind}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function randomSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}
