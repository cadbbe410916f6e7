import { McpServer } from "@modelcontextprotocol/server";
import pkg from "../../package.json";
import type { ToolContext } from "./context";
import { registerResources } from "./resources";
import { SERVER_NAME } from "./server-name";
import { registerTools } from "./tools";
import { reportInvalidArguments } from "./tools/invalid-arguments";
import { sdkRegistrar } from "./tools/registrar";
import { registerFieldView } from "./view/field-view";

export { SERVER_NAME };
export const SERVER_VERSION: string = pkg.version;
/** The server's identity: `serverInfo` of `initialize` and `server/discover`, and in every 2026-07-28 result's `_meta`. */
export const SERVER_INFO = { name: SERVER_NAME, version: SERVER_VERSION, title: "Mosaic" } as const;

/**
 * 2026-07-28 clients may cache these results (SPEC §6 token economy): the tool list, the rules and
 * the discovery answer are the same for every caller and change only with a deploy.
 */
const STATIC_FOR = { ttlMs: 5 * 60_000, cacheScope: "public" } as const;
const CACHE_HINTS = {
  "server/discover": STATIC_FOR,
  "tools/list": STATIC_FOR,
  "resources/list": STATIC_FOR,
  "resources/templates/list": STATIC_FOR,
  "resources/read": STATIC_FOR,
};

/** A one-paragraph orientation for clients that show server instructions to the model. */
const INSTRUCTIONS =
  "Mosaic: a daily multiplayer logic puzzle. Read mosaic://rules (also in join's description), call list_games, join a field, then observe, reveal and commit.";

/**
 * A fresh MCP server for one HTTP request. A stateless transport cannot be reused, and building
 * per request lets every tool close over that request's context (env, harness, waitUntil). What
 * does not depend on the request (each tool's definition and its JSON Schema) is built once per
 * isolate in the tool modules, so a request pays only for the registrations.
 */
export function buildServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { ...SERVER_INFO },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} }, cacheHints: CACHE_HINTS },
  );
  registerResources(server);
  registerFieldView(server, ctx);
  reportInvalidArguments(server);
  registerTools(sdkRegistrar(server), ctx);
  return server;
}
