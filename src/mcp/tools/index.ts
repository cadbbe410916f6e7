import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context";
import { registerListGames } from "./list-games";
import { registerCommit } from "./commit";
import { registerJoin } from "./join";
import { registerObserve } from "./observe";
import { registerRetract } from "./retract";
import { registerReveal } from "./reveal";
import { registerStartMosaic } from "./start-mosaic";
import { reportInvalidArguments } from "./invalid-arguments";
import { meterTools } from "../../live/usage-meter";

/**
 * Every tool of the MCP surface (SPEC §6), registered on a fresh server per request.
 * Each tool lives in its own file and receives the request's context.
 */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  reportInvalidArguments(server);
  // Calls and bytes per machine for the analysis (src/live/usage-meter.ts).
  meterTools(server, ctx);
  registerListGames(server, ctx);
  registerStartMosaic(server, ctx);
  registerJoin(server, ctx);
  registerObserve(server, ctx);
  registerReveal(server, ctx);
  registerCommit(server, ctx);
  registerRetract(server, ctx);
}
