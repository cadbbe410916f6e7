import type { ToolContext } from "../context";
import { registerListGames } from "./list-games";
import { registerCommit } from "./commit";
import { registerJoin } from "./join";
import { registerObserve } from "./observe";
import { registerRetract } from "./retract";
import { registerReveal } from "./reveal";
import { registerStartMosaic } from "./start-mosaic";
import type { ToolRegistrar } from "./registrar";
import { meteredRegistrar } from "../usage-meter";
import { guardedRegistrar } from "./failure-guard";
import { withFieldView } from "../view/field-view";

/**
 * Every tool of the MCP surface (SPEC §6), registered per request (each handler closes over the
 * request's context). Each tool lives in its own file; the registrar is the SDK server or the
 * direct `tools/call` path's table (registrar.ts).
 */
export function registerTools(registrar: ToolRegistrar, ctx: ToolContext): void {
  // Calls and bytes per machine for the analysis (src/mcp/usage-meter.ts).
  // Failures under a tool answer as the tool error `unavailable` (failure-guard.ts).
  // join, observe, reveal and commit link to the MCP Apps view (SPEC §6.2; listing metadata only).
  const tools = guardedRegistrar(meteredRegistrar(withFieldView(registrar), ctx), ctx);
  registerListGames(tools, ctx);
  registerStartMosaic(tools, ctx);
  registerJoin(tools, ctx);
  registerObserve(tools, ctx);
  registerReveal(tools, ctx);
  registerCommit(tools, ctx);
  registerRetract(tools, ctx);
}
