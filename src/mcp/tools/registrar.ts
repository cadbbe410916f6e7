import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import type { z } from "zod";

/** What a tool declares besides its name: the same object `tools/list` publishes. */
export interface ToolConfig<S extends z.ZodType> {
  title: string;
  description: string;
  inputSchema: S;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Listing metadata: the MCP Apps view a tool's answers are drawn in (src/mcp/view/field-view.ts). */
  _meta?: { ui?: { resourceUri: string } } & Record<string, unknown>;
}

/** A tool's handler for one request: arguments already validated by its schema. */
export type ToolHandler<A> = (args: A) => Promise<CallToolResult>;

/** A tool as registered: its config, and its handler with the argument type erased. */
export interface RegisteredTool {
  config: ToolConfig<z.ZodType>;
  handler: ToolHandler<unknown>;
}

/**
 * Where the tool modules register themselves. Two implementations read the same registrations:
 * the SDK server (`sdkRegistrar`, for every method and both eras) and the table of the direct
 * `tools/call` path (`toolTable`, src/mcp/direct-call.ts), so a tool is written once.
 */
export interface ToolRegistrar {
  registerTool<S extends z.ZodType>(name: string, config: ToolConfig<S>, handler: ToolHandler<z.output<S>>): void;
}

/** Registrations go to an SDK server. */
export function sdkRegistrar(server: McpServer): ToolRegistrar {
  return {
    registerTool(name, config, handler) {
      // The SDK validates the arguments against the schema before the handler sees them.
      const erased: ToolConfig<z.ZodType> = config;
      const run = handler as ToolHandler<unknown>;
      server.registerTool(name, erased, (args) => run(args));
    },
  };
}

/** Registrations are kept in a map by name (a name registered twice is a programming error). */
export function toolTable(register: (registrar: ToolRegistrar) => void): Map<string, RegisteredTool> {
  const table = new Map<string, RegisteredTool>();
  register({
    registerTool(name, config, handler) {
      if (table.has(name)) throw new Error(`tool ${name} registered twice`);
      table.set(name, { config, handler: handler as ToolHandler<unknown> });
    },
  });
  return table;
}
