import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context";
import { registerListGames } from "./list-games";

/**
 * Every tool of the MCP surface (SPEC §6), registered on a fresh server per request.
 * Each tool lives in its own file and receives the request's context.
 */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  registerListGames(server, ctx);
}
