import { SERVER_NAME } from "./server-name";

/**
 * Client names that identify no harness (SPEC §6). Some SDKs put the user's label for the
 * server in `clientInfo.name` (Mastra always, OpenAI Agents when the user names the server), so
 * a client called `mosaic` says nothing about who plays; others send the same default for every
 * program built on them. Each entry names where that default comes from.
 */
const GENERIC_NAMES = new Set([
  SERVER_NAME, // Mastra (`MCPClient({servers: {mosaic: …}})`), OpenAI Agents (`name: "mosaic"`)
  "ai-sdk-mcp-client", // Vercel AI SDK, createMCPClient without `name`
  "@langchain/mcp-adapters", // LangChain.js adapters: their own package name, for every caller
  "mcp", // the Python SDK's ClientSession default (and so FastMCP, langchain-mcp-adapters in Python)
  "mcp-use", // mcp-use's default clientInfo
  "rmcp", // the Rust SDK's default implementation name
  "mcp-remote-fallback-test", // mcp-remote's connection probe
  // Placeholders copied from SDK examples.
  "client",
  "mcp-client",
  "my-client",
  "example-client",
  "test-client",
  "unknown",
]);

/** OpenAI Agents' default server label when the user gives none: `streamable-http: <url>` and so on. */
const OPENAI_AGENTS_DEFAULT = /^(streamable-http|sse|stdio): /i;

/** mcp-remote appends `(via mcp-remote <version>)` to the desktop host's own name. */
const VIA_MCP_REMOTE = /\s*\(via mcp-remote[^)]*\)$/i;

/** True when a clientInfo name identifies no harness, so the `harness` argument decides. */
export function identifiesNothing(clientName: string): boolean {
  const name = clientName.replace(VIA_MCP_REMOTE, "").trim();
  return name === "" || GENERIC_NAMES.has(name.toLowerCase()) || OPENAI_AGENTS_DEFAULT.test(name);
}
