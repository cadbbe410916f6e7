/**
 * The view's side of the MCP Apps protocol (SEP-1865): JSON-RPC 2.0 messages exchanged with the
 * host over a port (the parent window, see host-frame.ts). Only what the field view uses: the
 * `ui/initialize` handshake, the host's tool input, tool result and context notifications, its
 * ping and teardown requests, and the view's own `tools/call`, `ui/open-link` and size reports.
 * No DOM and no dependency, so it runs in plain Node against a fake port.
 */

/** The MCP Apps revision this view speaks: ext-apps 2.0.4's latest, which hosts echo back. */
export const APPS_PROTOCOL_VERSION = "2026-01-26";
/** How long a request waits for its answer before it fails (the MCP SDK's default too). */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
}

/** What the host offers; the view reads `serverTools` (tool calls proxied) and `openLinks`. */
export interface HostCapabilities {
  serverTools?: { listChanged?: boolean };
  openLinks?: Record<string, never>;
  [key: string]: unknown;
}

/** The host's environment; the view reads its theme and the frame's height limit. */
export interface HostContext {
  theme?: "light" | "dark";
  displayMode?: string;
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  [key: string]: unknown;
}

export interface ContentBlock {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** An MCP `tools/call` result, as the host hands it over or returns it. */
export interface ToolResult {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

export interface InitializeResult {
  protocolVersion: string;
  hostInfo?: Implementation;
  hostCapabilities: HostCapabilities;
  hostContext: HostContext;
}

/** Where the link writes messages and hears them: the host's window in a browser, a fake in tests. */
export interface Port {
  post(message: JsonRpcMessage): void;
  /** Calls `receive` with every message from the host; returns the unsubscribe. */
  listen(receive: (data: unknown) => void): () => void;
}

export type JsonRpcId = string | number;
export type JsonRpcMessage =
  | { jsonrpc: "2.0"; id: JsonRpcId; method: string; params?: Record<string, unknown> }
  | { jsonrpc: "2.0"; method: string; params?: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: JsonRpcId; result: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: JsonRpcId; error: { code: number; message: string; data?: unknown } };

/** What the view does with the host's notifications. */
export interface HostHandlers {
  onToolInput?(args: Record<string, unknown>): void;
  onToolResult?(result: ToolResult): void;
  /** Called with the merged context after each change (the notification carries only what changed). */
  onHostContextChanged?(context: HostContext): void;
}

/** A JSON-RPC error answer from the host (or the server behind it), or a request that timed out. */
export class HostError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "HostError";
  }
}

const METHOD_NOT_FOUND = -32601;
const REQUEST_TIMEOUT = -32001;

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId => typeof v === "string" || typeof v === "number";

export class HostLink {
  hostCapabilities: HostCapabilities | undefined;
  hostInfo: Implementation | undefined;
  hostContext: HostContext | undefined;
  private nextId = 0;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private stop: (() => void) | null = null;

  constructor(
    private readonly app: Implementation,
    private readonly port: Port,
    private readonly handlers: HostHandlers = {},
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  /** Listens, sends `ui/initialize`, keeps the host's answer, then notifies `ui/notifications/initialized`. */
  async connect(): Promise<InitializeResult> {
    if (this.stop) throw new Error("already connected to the host");
    this.stop = this.port.listen((data) => this.receive(data));
    try {
      const answer = await this.request("ui/initialize", { appInfo: this.app, appCapabilities: {}, protocolVersion: APPS_PROTOCOL_VERSION });
      const result: InitializeResult = {
        protocolVersion: typeof answer.protocolVersion === "string" ? answer.protocolVersion : APPS_PROTOCOL_VERSION,
        hostInfo: isRecord(answer.hostInfo) ? (answer.hostInfo as unknown as Implementation) : undefined,
        hostCapabilities: isRecord(answer.hostCapabilities) ? answer.hostCapabilities : {},
        hostContext: isRecord(answer.hostContext) ? answer.hostContext : {},
      };
      this.hostCapabilities = result.hostCapabilities;
      this.hostInfo = result.hostInfo;
      this.hostContext = result.hostContext;
      this.notify("ui/notifications/initialized");
      return result;
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Stops listening; requests still waiting fail. */
  close(): void {
    this.stop?.();
    this.stop = null;
    for (const [id, p] of this.pending) this.settle(id, p, () => p.reject(new Error("the link to the host closed")));
  }

  /** Calls a tool of the MCP server through the host (its `serverTools`). */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request("tools/call", { name, arguments: args })) as ToolResult;
  }

  /** Asks the host to open a URL outside the sandbox; `isError` when it would not. */
  async openLink(url: string): Promise<{ isError?: boolean }> {
    const result = await this.request("ui/open-link", { url });
    return { isError: result.isError === true };
  }

  /** Tells the host the document's size, so it can size the frame. */
  sizeChanged(width: number, height: number): void {
    this.notify("ui/notifications/size-changed", { width, height });
  }

  /** Sends a request and waits for its answer: the result, or a HostError from an error answer or the timeout. */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const p = this.pending.get(id);
        if (!p) return;
        // The host may drop work it was doing for us; the answer, if it ever comes, is ignored.
        this.settle(id, p, () => p.reject(new HostError(`${method} timed out after ${this.timeoutMs} ms`, REQUEST_TIMEOUT)));
        this.notify("notifications/cancelled", { requestId: id, reason: "timed out" });
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.port.post({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.port.post(params ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", method });
  }

  private settle(id: JsonRpcId, p: Pending, done: () => void): void {
    clearTimeout(p.timer);
    this.pending.delete(id);
    done();
  }

  /** Routes one message from the host: an answer to a request of ours, a request, or a notification. */
  receive(data: unknown): void {
    if (!isRecord(data) || data.jsonrpc !== "2.0") return;
    const params = isRecord(data.params) ? data.params : {};
    if (typeof data.method === "string") {
      if (isId(data.id)) this.answer(data.id, data.method);
      else this.notified(data.method, params);
      return;
    }
    if (!isId(data.id)) return;
    const p = this.pending.get(data.id);
    if (!p) return;
    if (isRecord(data.error)) {
      const { code, message, data: detail } = data.error;
      this.settle(data.id, p, () => p.reject(new HostError(typeof message === "string" ? message : "the host refused the request", typeof code === "number" ? code : 0, detail)));
    } else {
      const result = isRecord(data.result) ? data.result : {};
      this.settle(data.id, p, () => p.resolve(result));
    }
  }

  /** The host's requests: ping and teardown are answered (the view holds nothing to release); the rest are unknown. */
  private answer(id: JsonRpcId, method: string): void {
    if (method === "ping" || method === "ui/resource-teardown") this.port.post({ jsonrpc: "2.0", id, result: {} });
    else this.port.post({ jsonrpc: "2.0", id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } });
  }

  private notified(method: string, params: Record<string, unknown>): void {
    if (method === "ui/notifications/tool-input") this.handlers.onToolInput?.(isRecord(params.arguments) ? params.arguments : {});
    else if (method === "ui/notifications/tool-result") this.handlers.onToolResult?.(params as ToolResult);
    else if (method === "ui/notifications/host-context-changed") {
      this.hostContext = { ...this.hostContext, ...params };
      this.handlers.onHostContextChanged?.(this.hostContext);
    }
    // Partial input, cancellations and anything newer change nothing the view shows.
  }
}
