// A recording `fetch` for MCP clients: every tools/call that passes through it is logged with its
// arguments, how long its reply took to arrive in full (read by the tap before the caller handles
// it, so the caller's own work never counts), and what it said. The fault suites compare
// this record of answered writes with the server's event log; the load benchmark reads latencies
// and conflict counts from it. It sits below any client (SDK or reference agent), so what it
// records is what went over the wire, whoever made the call.

import { isRecord } from "../../src/referee/validate";

/** What became of one tool call. */
export type CallOutcome =
  /** The whole answer arrived: a tool result (possibly `isError`) or a JSON-RPC error. */
  | { kind: "answered"; isError: boolean; structured: Record<string, unknown> | undefined; errorCode: string | undefined }
  /** No complete answer: the connection failed, was cut, or the caller aborted. The write may or may not have been applied. */
  | { kind: "lost"; reason: string };

export interface TappedCall {
  /** Who made the call (the label given to `fetchFor`). */
  caller: string;
  tool: string;
  args: Record<string, unknown>;
  /** Sending the request, and the end of the reply to it (the body's end, or its SSE event's), on the performance.now clock. */
  startedAt: number;
  endedAt: number;
  outcome: CallOutcome;
}

export const WRITE_TOOLS: ReadonlySet<string> = new Set(["join", "reveal", "commit", "retract"]);

type Json = Record<string, unknown>;


/** The JSON-RPC messages of an answer body, JSON or SSE. */
export function messagesOfText(text: string, contentType: string): Json[] {
  if (contentType.startsWith("text/event-stream")) {
    const out: Json[] = [];
    for (const block of text.replace(/\r\n/g, "\n").split("\n\n")) {
      const data = block
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data) out.push(JSON.parse(data) as Json);
    }
    return out;
  }
  if (text.trim() === "") return [];
  const parsed = JSON.parse(text) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]) as Json[];
}

/** The tool call carried by a request body, if it is one. */
function toolCallOf(body: unknown): { id: unknown; tool: string; args: Json } | null {
  if (typeof body !== "string") return null;
  let message: unknown;
  try {
    message = JSON.parse(body.replace(/^\uFEFF/, ""));
  } catch {
    return null;
  }
  if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params)) return null;
  const { name, arguments: args } = message.params;
  if (typeof name !== "string") return null;
  return { id: message.id, tool: name, args: isRecord(args) ? args : {} };
}

/** Reads a tool call's answer out of its response messages. */
function outcomeOf(messages: Json[], id: unknown): CallOutcome {
  const reply = messages.find((m) => m.id === id && ("result" in m || "error" in m));
  if (!reply) return { kind: "lost", reason: "the answer held no reply to the call" };
  if (isRecord(reply.error)) return { kind: "answered", isError: true, structured: undefined, errorCode: `jsonrpc:${String(reply.error.code)}` };
  const result = isRecord(reply.result) ? reply.result : {};
  const structured = isRecord(result.structuredContent) ? result.structuredContent : undefined;
  const error = structured && isRecord(structured.error) ? structured.error : undefined;
  return { kind: "answered", isError: result.isError === true, structured, errorCode: typeof error?.code === "string" ? error.code : undefined };
}

/** What the tap read of an answer: the outcome, the bytes read so far, and the rest of the body. */
interface ReadReply {
  outcome: CallOutcome;
  /** When the last bytes of the reply arrived (performance.now), before the tap decoded or parsed them. */
  arrivedAt: number;
  read: Uint8Array[];
  rest: ReadableStreamDefaultReader<Uint8Array> | null;
  failure?: unknown;
}

/**
 * Reads a response until the reply to call `id` has arrived in full: a JSON body to its end, an SSE
 * stream event by event (the reply counts as answered when its event ends, even if the server then
 * kept the stream open). The reading happens before the caller sees the response, so the time
 * recorded is the wire's alone, never the caller's handling of an earlier chunk.
 */
async function readReply(res: Response, id: unknown): Promise<ReadReply> {
  const type = res.headers.get("content-type") ?? "";
  const read: Uint8Array[] = [];
  if (res.body === null) return { outcome: res.ok ? outcomeOf([], id) : { kind: "lost", reason: `HTTP ${res.status}` }, arrivedAt: performance.now(), read, rest: null };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const sse = type.startsWith("text/event-stream");
  let arrivedAt = performance.now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // The clock stops when the bytes arrive: decoding and parsing them is the client's work.
      arrivedAt = performance.now();
      if (value) {
        read.push(value);
        text += decoder.decode(value, { stream: true });
      }
      if (!sse) {
        if (!done) continue;
        const outcome = res.ok || text.trim().startsWith("{") ? outcomeOf(messagesOfText(text, type), id) : ({ kind: "lost", reason: `HTTP ${res.status}` } as const);
        return { outcome, arrivedAt, read, rest: null };
      }
      const lf = text.replace(/\r\n/g, "\n");
      const outcome = outcomeOf(messagesOfText(done ? lf : lf.slice(0, lf.lastIndexOf("\n\n") + 1), type), id);
      if (outcome.kind === "answered" || done) return { outcome, arrivedAt, read, rest: done ? null : reader };
    }
  } catch (err) {
    return { outcome: { kind: "lost", reason: err instanceof Error ? err.message : String(err) }, arrivedAt: performance.now(), read, rest: null, failure: err };
  }
}

/** The response as the caller would have received it: the bytes the tap read, then the rest (or the failure). */
function replay(res: Response, reply: ReadReply): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of reply.read) controller.enqueue(chunk);
      if (reply.failure !== undefined) controller.error(reply.failure);
      else if (reply.rest === null) controller.close();
    },
    async pull(controller) {
      if (reply.rest === null) return;
      try {
        const { done, value } = await reply.rest.read();
        if (value) controller.enqueue(value);
        if (done) controller.close();
      } catch (err) {
        controller.error(err);
      }
    },
    cancel(reason) {
      return reply.rest?.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export class WireTap {
  readonly calls: TappedCall[] = [];

  constructor(private readonly base: typeof fetch = globalThis.fetch.bind(globalThis)) {}

  /**
   * A fetch that records the tool calls of `caller` (all tools, or only `only`). The tap reads the
   * reply off the wire first, then hands the caller the same bytes (and the rest of the stream).
   */
  fetchFor(caller: string, only: ReadonlySet<string> | null = null): typeof fetch {
    const tapped: typeof fetch = async (input, init) => {
      const call = toolCallOf(init?.body);
      if (!call || (only && !only.has(call.tool))) return this.base(input, init);
      const entry: TappedCall = { caller, tool: call.tool, args: call.args, startedAt: performance.now(), endedAt: 0, outcome: { kind: "lost", reason: "pending" } };
      this.calls.push(entry);
      let res: Response;
      try {
        res = await this.base(input, init);
      } catch (err) {
        entry.endedAt = performance.now();
        entry.outcome = { kind: "lost", reason: err instanceof Error ? err.message : String(err) };
        throw err;
      }
      const reading = readReply(res, call.id);
      this.pending.add(reading);
      void reading.finally(() => this.pending.delete(reading));
      const reply = await reading;
      entry.endedAt = reply.arrivedAt;
      entry.outcome = reply.outcome;
      return replay(res, reply);
    };
    return tapped;
  }

  private readonly pending = new Set<Promise<unknown>>();

  /**
   * Puts the tap under every `fetch` of this process (clients that take no fetch option, such as
   * the reference agent, capture the global one when they connect); `callerOf` names the caller
   * from the request's headers. Returns the function that takes it out again.
   */
  install(callerOf: (headers: Headers) => string): () => void {
    const original = globalThis.fetch;
    const taps = new Map<string, typeof fetch>();
    globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const caller = callerOf(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)));
      let tapped = taps.get(caller);
      if (!tapped) taps.set(caller, (tapped = this.fetchFor(caller)));
      return tapped(input, init);
    }) as typeof fetch;
    return () => {
      globalThis.fetch = original;
    };
  }

  /**
   * Waits until every answer the tap is reading has been read to its end (or failed), at most
   * `timeoutMs`; answers still streaming then are marked lost ("never finished") and returned.
   */
  async settle(timeoutMs = 30_000): Promise<TappedCall[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.all([...this.pending]), new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())))]);
    }
    const unfinished = this.calls.filter((c) => c.endedAt === 0);
    for (const c of unfinished) c.outcome = { kind: "lost", reason: "the answer never finished" };
    return unfinished;
  }

  /** Calls whose whole answer arrived. */
  answered(tool?: string): Array<TappedCall & { outcome: Extract<CallOutcome, { kind: "answered" }> }> {
    return this.calls.filter((c) => c.outcome.kind === "answered" && (tool === undefined || c.tool === tool)) as Array<TappedCall & { outcome: Extract<CallOutcome, { kind: "answered" }> }>;
  }
}
