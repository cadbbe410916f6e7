// Raw MCP wire helpers shared by the workers and e2e tests: request builders for both protocol
// eras and a parser for SSE answers. Pure code (fetch types only), so it runs in Node and workerd.

export const MODERN = "2026-07-28";
export const LEGACY_VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"] as const;
export const ACCEPT_BOTH = "application/json, text/event-stream";

export interface ClientIdentity {
  name: string;
  version?: string;
}

/** The 2026-07-28 per-request envelope carried in `params._meta`. */
export function envelope(client: ClientIdentity | null = { name: "wire-test", version: "1.0.0" }, version = MODERN): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  if (client) meta["io.modelcontextprotocol/clientInfo"] = client;
  return meta;
}

/** The name a 2026-07-28 request must repeat in `Mcp-Name`, when its method has one. */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === "tools/call" || method === "prompts/get") return typeof params.name === "string" ? params.name : undefined;
  if (method === "resources/read") return typeof params.uri === "string" ? params.uri : undefined;
  return undefined;
}

/** A well-formed 2026-07-28 request: envelope in the body, matching routing headers. */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: { id?: number | string; client?: ClientIdentity | null; headers?: Record<string, string>; accept?: string } = {},
): { headers: Record<string, string>; body: string } {
  const fullParams = { ...params, _meta: { ...envelope(options.client === undefined ? undefined : options.client), ...(params._meta as object | undefined) } };
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: options.accept ?? ACCEPT_BOTH,
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": method,
  };
  const name = nameOf(method, params);
  if (name !== undefined) headers["Mcp-Name"] = name;
  return { headers: { ...headers, ...options.headers }, body: JSON.stringify({ jsonrpc: "2.0", id: options.id ?? 1, method, params: fullParams }) };
}

/** A 2025-era request or notification (no envelope, no routing headers). */
export function legacyRequest(
  method: string,
  params?: Record<string, unknown>,
  options: { id?: number | string | null; accept?: string; version?: string; headers?: Record<string, string> } = {},
): { headers: Record<string, string>; body: string } {
  const message: Record<string, unknown> = { jsonrpc: "2.0", method };
  if (options.id !== null) message.id = options.id ?? 1;
  if (params !== undefined) message.params = params;
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: options.accept ?? ACCEPT_BOTH };
  if (options.version) headers["MCP-Protocol-Version"] = options.version;
  return { headers: { ...headers, ...options.headers }, body: JSON.stringify(message) };
}

export function initializeRequest(protocolVersion: string, options: { accept?: string; client?: ClientIdentity } = {}): { headers: Record<string, string>; body: string } {
  return legacyRequest(
    "initialize",
    { protocolVersion, capabilities: {}, clientInfo: options.client ?? { name: "wire-test", version: "1.0.0" } },
    { accept: options.accept },
  );
}

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** Splits an SSE body into events and comment lines (keep-alives start with ':'). */
export function parseSse(text: string): { events: SseEvent[]; comments: string[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  for (const block of text.replace(/\r\n/g, "\n").split("\n\n")) {
    const data: string[] = [];
    const event: Partial<SseEvent> = {};
    for (const line of block.split("\n")) {
      if (line === "") continue;
      if (line.startsWith(":")) comments.push(line.slice(1).trim());
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      else if (line.startsWith("event:")) event.event = line.slice(6).trim();
      else if (line.startsWith("id:")) event.id = line.slice(3).trim();
    }
    if (data.length > 0) events.push({ ...event, data: data.join("\n") });
  }
  return { events, comments };
}

/** The JSON-RPC messages of an answer, whether it came as JSON or as SSE frames. */
export async function messagesOf(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) return parseSse(text).events.map((e) => JSON.parse(e.data) as Record<string, unknown>);
  if (text === "") return [];
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : [parsed as Record<string, unknown>];
}

/** The one JSON-RPC message of an answer (fails loudly when there is not exactly one). */
export async function messageOf(res: Response): Promise<Record<string, unknown>> {
  const messages = await messagesOf(res);
  if (messages.length !== 1) throw new Error(`expected one JSON-RPC message, got ${messages.length}`);
  return messages[0];
}
