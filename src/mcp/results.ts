import type { CallToolResult } from "@modelcontextprotocol/server";

/** The error codes of SPEC §6.1: the names agents branch on. */
export const ERROR_CODES = [
  "missing",
  "generating",
  "failed",
  "identity",
  "token",
  "proof",
  "not_seated",
  "not_your_agent",
  "off_frontier",
  "solved",
  "conflict",
  "too_large",
  "bad_input",
  "dead",
  "closed",
  // Over a rate limit: wait `retry_after` seconds (SPEC §13.1).
  "rate_limited",
  // The service failed under the call (an object reset or overloaded, a storage error): retry
  // after `retry_after` seconds; a write's outcome is unknown, so observe before resending it.
  "unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The `structuredContent` of every failed tool call. */
export interface ToolErrorPayload {
  error: { code: ErrorCode; message: string; revision?: number; tiles?: number[]; cells?: number[]; known?: number[][]; retry_after?: number; request_id?: string };
}

/**
 * What an error may carry besides its code and message: a conflict's current revision and what
 * changed (SPEC §4.9); the seconds to wait and the request's id in the logs (`rate_limited`, `unavailable`).
 */
export interface ToolErrorExtra {
  revision?: number;
  tiles?: number[];
  cells?: number[];
  known?: number[][];
  retry_after?: number;
  request_id?: string;
}

/**
 * The one text block of every answer (SPEC §6 "What a model reads"): the one-line summary, a
 * newline, then the compact JSON of the very same `structuredContent`. Several agent SDKs show
 * their model only `content`, so the data must be there too; the JSON line parses back to
 * exactly the structured object.
 */
export function modelText(summary: string, structured: Record<string, unknown>): string {
  return `${oneLine(summary)}\n${JSON.stringify(structured)}`;
}

/** The summary stays one line, so a reader can split the text at its first newline. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

/**
 * A successful tool answer: a short human summary (a few hundred characters at most) plus the
 * data, both in `content`, and the data again in `structuredContent` for programs.
 */
export function toolOk(summary: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: modelText(summary, structured) }], structuredContent: structured };
}

/**
 * A failed tool call. Errors are results with `isError: true`, not protocol errors, so a model
 * sees the message (the text's first line) and can correct itself; programs branch on
 * `structuredContent.error.code`, which the text's JSON line carries as well.
 */
export function toolError(code: ErrorCode, message: string, extra: ToolErrorExtra = {}): CallToolResult {
  const error: ToolErrorPayload["error"] = { code, message };
  if (extra.revision !== undefined) error.revision = extra.revision;
  if (extra.tiles !== undefined) error.tiles = extra.tiles;
  if (extra.cells !== undefined) error.cells = extra.cells;
  if (extra.known !== undefined) error.known = extra.known;
  if (extra.retry_after !== undefined) error.retry_after = extra.retry_after;
  if (extra.request_id !== undefined) error.request_id = extra.request_id;
  const structured = { error };
  return { isError: true, content: [{ type: "text", text: modelText(message, structured) }], structuredContent: structured };
}
