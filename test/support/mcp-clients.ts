// Connect the official MCP SDK clients to a running server, in every flavour SPEC §7 names:
// SDK v1 (`@modelcontextprotocol/sdk`, speaks up to 2025-11-25), SDK v2 in the legacy handshake,
// and SDK v2 on the 2026-07-28 revision. Scripted agents in the play and identity tests use this.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";

export type ClientFlavour = "v1" | "v2-legacy" | "v2-modern";
export const CLIENT_FLAVOURS: readonly ClientFlavour[] = ["v1", "v2-legacy", "v2-modern"];

export interface ConnectOptions {
  flavour?: ClientFlavour;
  /** Extra HTTP headers on every request, e.g. `{ Authorization: "Bearer msc_…" }`. */
  headers?: Record<string, string>;
  /** The client's clientInfo (the harness the server records for 2026-07-28 clients). */
  clientInfo?: { name: string; version: string };
  /** v2-modern only: pin this revision instead of negotiating (`versionNegotiation: {mode: {pin}}`). */
  pin?: string;
  /** Request timeout in milliseconds (SDK default 60 s). */
  timeoutMs?: number;
  /** The fetch the transport uses (a recording one in the fault suites); the global one by default. */
  fetch?: typeof fetch;
}

/** What a tool call returned, flattened for assertions. */
export interface ToolCallResult {
  isError: boolean;
  text: string;
  structuredContent: Record<string, unknown> | undefined;
}

/** One connected client, whatever its flavour. */
export interface McpClient {
  flavour: ClientFlavour;
  /** The protocol revision the connection settled on. */
  protocolVersion: string | undefined;
  serverName: string | undefined;
  listTools(): Promise<Array<{ name: string; description?: string; inputSchema: unknown }>>;
  readResource(uri: string): Promise<Array<{ uri: string; mimeType?: string; text?: string }>>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  close(): Promise<void>;
}

interface CallToolShape {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
}

function flatten(result: CallToolShape): ToolCallResult {
  const content = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
  return {
    isError: result.isError === true,
    text: content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n"),
    structuredContent: result.structuredContent as Record<string, unknown> | undefined,
  };
}

function mcpUrl(baseUrl: string): URL {
  return new URL(baseUrl.endsWith("/mcp") ? baseUrl : `${baseUrl.replace(/\/+$/, "")}/mcp`);
}

/** Connects one client flavour to a server (`baseUrl` may be the origin or the /mcp URL). */
export async function connectClient(baseUrl: string, options: ConnectOptions = {}): Promise<McpClient> {
  const flavour = options.flavour ?? "v2-modern";
  const clientInfo = options.clientInfo ?? { name: `mosaic-test-${flavour}`, version: "1.0.0" };
  const requestInit: RequestInit = { headers: options.headers ?? {} };
  const timeout = options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs };
  const url = mcpUrl(baseUrl);

  if (flavour === "v1") {
    const client = new ClientV1(clientInfo, { capabilities: {} });
    const transport = new TransportV1(url, { requestInit, ...(options.fetch ? { fetch: options.fetch } : {}) });
    await client.connect(transport, timeout);
    return {
      flavour,
      protocolVersion: transport.protocolVersion,
      serverName: client.getServerVersion()?.name,
      listTools: async () => (await client.listTools(undefined, timeout)).tools,
      readResource: async (uri) => (await client.readResource({ uri }, timeout)).contents as Array<{ uri: string; mimeType?: string; text?: string }>,
      callTool: async (name, args = {}) => flatten((await client.callTool({ name, arguments: args }, undefined, timeout)) as CallToolShape),
      close: () => client.close(),
    };
  }

  const client = new ClientV2(clientInfo, {
    capabilities: {},
    ...(flavour === "v2-modern" ? { versionNegotiation: { mode: options.pin ? { pin: options.pin } : ("auto" as const) } } : {}),
  });
  const transport = new TransportV2(url, { requestInit, ...(options.fetch ? { fetch: options.fetch } : {}) });
  await client.connect(transport, timeout);
  return {
    flavour,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverName: client.getServerVersion()?.name,
    listTools: async () => (await client.listTools(undefined, timeout)).tools,
    readResource: async (uri) => (await client.readResource({ uri }, timeout)).contents as Array<{ uri: string; mimeType?: string; text?: string }>,
    callTool: async (name, args = {}) => flatten((await client.callTool({ name, arguments: args }, timeout)) as CallToolShape),
    close: () => client.close(),
  };
}

/** Calls a tool and returns its structuredContent, failing loudly on an error result. */
export async function callToolStructured<T = Record<string, unknown>>(client: McpClient, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.text}`);
  if (result.structuredContent === undefined) throw new Error(`${name} returned no structuredContent: ${result.text}`);
  return result.structuredContent as T;
}

/** Connects, runs `fn`, and always closes the client. */
export async function withClient<T>(baseUrl: string, options: ConnectOptions, fn: (client: McpClient) => Promise<T>): Promise<T> {
  const client = await connectClient(baseUrl, options);
  try {
    return await fn(client);
  } finally {
    await client.close().catch(() => {});
  }
}
