import { McpServer } from "@modelcontextprotocol/server";
import pkg from "../../package.json";
import type { ToolContext } from "./context";
import { registerResources } from "./resources";
import { registerTools } from "./tools";

export const SERVER_NAME = "mosaic";
export const SERVER_VERSION: string = pkg.version;

/** A one-paragraph orientation for clients that show server instructions to the model. */
const INSTRUCTIONS =
  "Mosaic: a daily multiplayer logic puzzle. Read mosaic://rules (also in join's description), call list_games, join a field, then observe, reveal and commit.";

/**
 * A fresh MCP server for one HTTP request. A stateless transport cannot be reused, and building
 * per request lets every tool close over that request's context (env, harness, waitUntil).
 */
export function buildServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Mosaic" },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  );
  registerResources(server);
  registerTools(server, ctx);
  return server;
}
