/**
 * The agent's MCP connection: the official SDK client over streamable HTTP with the bearer
 * token, every call bounded by a timeout and counted, every answer reduced to its data
 * (`structuredContent`, else the compact JSON line of the text block) or its coded refusal.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export type ToolOutcome<T> = { ok: true; data: T; text: string } | { ok: false; code: string; message: string; revision?: number };

export interface ConnectionOptions {
  url: URL;
  token: string;
  /** Per-call timeout in milliseconds. */
  timeoutMs: number;
  /** How long a dropped connection is retried, in milliseconds: a server restarting comes back within it. */
  retryMs: number;
  /** Stops retrying (the run was aborted). */
  signal?: AbortSignal;
  /** Told once per retry: what failed and how long the call has been retried. */
  onRetry?: (message: string, retriedMs: number) => void;
  clientName?: string;
  clientVersion?: string;
}

/** The /mcp endpoint of a server given as an origin or as the endpoint itself. */
export function mcpEndpoint(url: URL): URL {
  if (url.pathname.replace(/\/+$/, "").endsWith("/mcp")) return url;
  return new URL(`${url.pathname.replace(/\/+$/, "")}/mcp`, url);
}

/**
 * A result's data: structuredContent (the program's view; the text is written for a model, with
 * pictures and coordinates, and carries no JSON since SPEC §6 "What a model reads").
 */
export function resultData(result: { content?: unknown; structuredContent?: unknown }): { data: Record<string, unknown> | undefined; text: string } {
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  const text = blocks.filter((b) => b.type === "text").map((b) => b.text ?? "").join("\n");
  if (result.structuredContent && typeof result.structuredContent === "object") return { data: result.structuredContent as Record<string, unknown>, text };
  return { data: undefined, text };
}

const TRANSIENT = /ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|terminated|other side closed/i;

export class Connection {
  /** Tool calls made (retries of a transport failure included). */
  calls = 0;
  /** Wall time of every answered call, in milliseconds. */
  readonly durations: number[] = [];
  private constructor(
    private readonly client: Client,
    private readonly options: ConnectionOptions,
  ) {}

  static async open(options: ConnectionOptions): Promise<Connection> {
    const client = new Client(
      { name: options.clientName ?? "mosaic-reference-agent", version: options.clientVersion ?? "1.0.0" },
      { capabilities: {}, versionNegotiation: { mode: "auto" } },
    );
    const transport = new StreamableHTTPClientTransport(mcpEndpoint(options.url), { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } });
    await client.connect(transport, { timeout: options.timeoutMs });
    return new Connection(client, options);
  }

  /** Calls a tool; a refused call comes back as `{ok: false, code, message}`, never as a throw. */
  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<ToolOutcome<T>> {
    let firstFailure = 0;
    for (let attempt = 0; ; attempt++) {
      this.calls++;
      try {
        const t0 = performance.now();
        const result = await this.client.callTool({ name, arguments: args }, { timeout: this.options.timeoutMs });
        this.durations.push(performance.now() - t0);
        const { data, text } = resultData(result);
        if (result.isError) {
          const error = (data?.error ?? {}) as { code?: unknown; message?: unknown; revision?: unknown };
          return {
            ok: false,
            code: typeof error.code === "string" ? error.code : "error",
            message: typeof error.message === "string" ? error.message : text,
            ...(typeof error.revision === "number" ? { revision: error.revision } : {}),
          };
        }
        if (!data) return { ok: false, code: "bad_answer", message: `${name} answered no data: ${text.slice(0, 200)}` };
        return { ok: true, data: data as T, text };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        // A dropped connection is retried, with growing pauses, for as long as a server takes to
        // restart (a repeated write is harmless: a re-reveal is a read, a re-committed cell is
        // ignored as known); anything else is the caller's to handle.
        firstFailure ||= performance.now();
        const retried = performance.now() - firstFailure;
        if (TRANSIENT.test(message + String((err as { cause?: unknown }).cause ?? "")) && retried < this.options.retryMs && !this.options.signal?.aborted) {
          this.options.onRetry?.(message, retried);
          await new Promise((r) => setTimeout(r, Math.min(4000, 250 * 2 ** attempt)));
          continue;
        }
        return { ok: false, code: /timed? ?out/i.test(message) ? "timeout" : "transport", message };
      }
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
  }
}
