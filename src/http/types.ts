import type { Env } from "../env";

/** Values the edge middleware hands down the chain. */
export interface McpVariables {
  /** The request body as received, read once under the size limit (`bodyLimit`). */
  bodyBytes: Uint8Array;
  /** The /mcp request body as UTF-8 text. */
  bodyText: string;
  /** The body parsed as JSON, before its shape is checked. */
  parsedBody: unknown;
  /** The one JSON-RPC message of the request (batches are refused at the edge). */
  message: Record<string, unknown>;
}

/** The Hono environment of this Worker's router. */
export interface AppEnv {
  Bindings: Env;
  Variables: McpVariables;
}
