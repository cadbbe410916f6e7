import { classifyInboundRequest, isJsonContentType, SERVER_INFO_META_KEY, type CallToolResult } from "@modelcontextprotocol/server";
import type { ToolContext } from "./context";
import { accepts } from "./legacy";
import { SERVER_INFO } from "./server";
import { registerTools } from "./tools";
import { toolErrorFromMessage } from "./tools/invalid-arguments";
import { toolTable } from "./tools/registrar";

/** The one revision the direct path answers: the SDK's modern revision (its other traffic stays with it). */
export const DIRECT_REVISION = "2026-07-28";

/**
 * A 2026-07-28 `tools/call` answered straight from the tool table, without building an SDK server,
 * transport and protocol layer for the request: that machinery costs more of the Worker's CPU per
 * call (~1.5 ms in workerd) than the call's own work, and every move of every agent is one call.
 *
 * Only the plain case comes this way: a well-formed modern request whose headers agree with its
 * body, naming a tool of the product with arguments its schema accepts. Anything else (2025-era
 * traffic, other methods, a header, envelope or media type the SDK would refuse, an unknown tool,
 * arguments the schema refuses) gets `undefined` and is served by the SDK, whose answer stays the
 * reference: a differential test sends every tool's calls both ways and compares the bytes
 * (test/workers/mcp-direct-call.test.ts). The answer is built as the SDK builds it: the tool's
 * result in the result schema's key order, `resultType`, the server's identity in `_meta`; one JSON
 * body, or with SSE accepted the one message frame (streamed behind keep-alive comments when the
 * call outlasts the first one's due time).
 */
export function directToolCall(request: Request, message: Record<string, unknown>, ctx: ToolContext, keepAliveMs: number): Promise<Response> | undefined {
  const call = plainModernCall(request, message);
  return call ? answerPlainCall(call, request, ctx, keepAliveMs) : undefined;
}

/** A plain call's answer from the tool table, or `undefined` for the SDK to serve (an unknown tool, arguments its schema refuses). */
export function answerPlainCall(call: PlainCall, request: Request, ctx: ToolContext, keepAliveMs: number): Promise<Response> | undefined {
  const tool = toolTable((registrar) => registerTools(registrar, ctx)).get(call.name);
  if (!tool) return undefined;
  const parsed = tool.config.inputSchema.safeParse(call.args);
  if (!parsed.success) return undefined;
  const answer = runTool(() => tool.handler(parsed.data)).then((result) => jsonRpcAnswer(call.id, result));
  if (accepts(request, "text/event-stream")) return sseAnswer(answer, keepAliveMs);
  return answer.then((body) => new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } }));
}

/** A modern `tools/call` that the SDK would route to its handler with nothing to refuse. */
export interface PlainCall {
  id: string | number;
  name: string;
  args: unknown;
}

/**
 * The call, when the SDK would route it to its modern `tools/call` handler with nothing to refuse.
 * Such a request carries the modern envelope, so it is never legacy traffic either: the handler
 * skips the SDK's own era check for it (handler.ts).
 */
export function plainModernCall(request: Request, message: Record<string, unknown>): PlainCall | undefined {
  if (message.method !== "tools/call") return undefined;
  const id = message.id;
  const params = message.params;
  if ((typeof id !== "string" && typeof id !== "number") || typeof params !== "object" || params === null) return undefined;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") return undefined;
  if (!isJsonContentType(request.headers.get("content-type"))) return undefined;
  const versionHeader = request.headers.get("mcp-protocol-version");
  const methodHeader = request.headers.get("mcp-method");
  const nameHeader = request.headers.get("mcp-name");
  if (versionHeader === null || methodHeader === null || nameHeader === null) return undefined;
  // The name header must say the body's name in plain text (an encoded value is the SDK's to decode).
  const plainName = nameHeader.trim();
  if (plainName !== name || plainName.startsWith("=?")) return undefined;
  const route = classifyInboundRequest({ httpMethod: "POST", protocolVersionHeader: versionHeader, mcpMethodHeader: methodHeader, mcpNameHeader: nameHeader, body: message });
  if (route.kind !== "modern" || route.messageKind !== "request" || route.classification.revision !== DIRECT_REVISION) return undefined;
  return { id, name, args: args ?? {} };
}

/** A handler that throws answers as the SDK answers it: a refusal carrying the error's message. */
async function runTool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolErrorFromMessage(error instanceof Error ? error.message : String(error));
  }
}

/** The JSON-RPC response, keys in the order the SDK's result schema and encoder give them. */
function jsonRpcAnswer(id: string | number, result: CallToolResult): Record<string, unknown> {
  const { content, structuredContent, isError, ...rest } = result;
  const ordered: Record<string, unknown> = { content };
  if (structuredContent !== undefined) ordered.structuredContent = structuredContent;
  if (isError !== undefined) ordered.isError = isError;
  return { result: { ...ordered, ...rest, resultType: "complete", _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } }, jsonrpc: "2.0", id };
}

const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" };

/**
 * One JSON-RPC message as an SSE answer, with the bytes the SDK's streamed mode sends. Nothing
 * needs to go out before the first keep-alive comment is due, so a message ready by then (almost
 * every call) goes as one whole body: each proxy in front of the Worker passes it in one piece,
 * where an open stream costs it a chunk per write (~0.5 ms per call under `wrangler dev`). A call
 * still running then opens the stream with that comment, sends one every `keepAliveMs`, then the
 * message frame, then ends.
 */
export async function sseAnswer(message: Promise<Record<string, unknown>>, keepAliveMs: number): Promise<Response> {
  const early = await settledWithin(message, keepAliveMs);
  if (early) return new Response(sseFrame(early.value), { status: 200, headers: SSE_HEADERS });
  return sseStream(message, keepAliveMs);
}

function sseFrame(message: Record<string, unknown>): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** The message's value when it resolves within `ms`; undefined when it takes longer or fails (the stream reports those). */
function settledWithin<T>(value: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  if (!Number.isFinite(ms) || ms < 1) return value.then((v) => ({ value: v }), () => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([value.then((v) => ({ value: v }), () => undefined), late]).finally(() => clearTimeout(timer));
}

/** The streamed form: a keep-alive comment at once and every `keepAliveMs`, then the message frame. */
function sseStream(message: Promise<Record<string, unknown>>, keepAliveMs: number): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  let open = true;
  const stop = (): void => {
    open = false;
    if (timer !== undefined) clearInterval(timer);
  };
  const keepAlive = encoder.encode(": keepalive\n\n");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (Number.isFinite(keepAliveMs) && keepAliveMs >= 1) {
        controller.enqueue(keepAlive);
        timer = setInterval(() => {
          if (open) controller.enqueue(keepAlive);
        }, keepAliveMs);
      }
      message.then(
        (value) => {
          if (!open) return;
          stop();
          controller.enqueue(encoder.encode(sseFrame(value)));
          controller.close();
        },
        (error: unknown) => {
          if (!open) return;
          stop();
          controller.error(error);
        },
      );
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
