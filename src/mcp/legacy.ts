import { WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";

/**
 * The 2025-era leg (2025-03-26, 2025-06-18, 2025-11-25), stateless: a fresh server and transport
 * per request, no Mcp-Session-Id. It differs from the SDK's built-in stateless fallback in one
 * way: a client that accepts only `application/json` gets a plain JSON answer instead of 406
 * (SPEC §7), while a client that accepts `text/event-stream` gets one SSE frame (with keep-alive
 * comments while a long call runs).
 */
export async function serveLegacy(request: Request, message: unknown, server: McpServer, options: { keepAliveMs: number }): Promise<Response> {
  const wantsSse = accepts(request, "text/event-stream");
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !wantsSse,
    keepAliveMs: options.keepAliveMs,
  });
  await server.connect(transport);
  const teardown = (): void => {
    transport.close().catch(() => {});
    server.close().catch(() => {});
  };
  request.signal?.addEventListener("abort", teardown, { once: true });
  // The transport insists on both media types; the choice of shape was made above.
  const headers = new Headers(request.headers);
  headers.set("Accept", "application/json, text/event-stream");
  const forwarded = new Request(request.url, { method: "POST", headers, signal: request.signal });
  const response = await transport.handleRequest(forwarded, { parsedBody: message });
  if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    teardown();
    return response;
  }
  return new Response(untilDone(response.body, teardown), { status: response.status, headers: response.headers });
}

/** Whether the Accept header lists a media type (a missing header accepts JSON only). */
export function accepts(request: Request, mediaType: string): boolean {
  const accept = request.headers.get("accept");
  if (accept === null) return false;
  return accept
    .split(",")
    .map((part) => part.split(";")[0].trim().toLowerCase())
    .includes(mediaType);
}

/** Passes a stream through and runs `done` once it ends or the client goes away. */
function untilDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  const finish = (): void => {
    if (!finished) {
      finished = true;
      done();
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          finish();
          controller.close();
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason).catch(() => {});
    },
  });
}
