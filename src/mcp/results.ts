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

/** A text and the structured answer beside it, when the text decides part of what that carries (a commit's redrawn tiles). */
export interface ModelReply {
  text: string;
  structured: Record<string, unknown>;
}

/**
 * A successful tool answer (SPEC §6 "What a model reads"): `content` is one text block written for
 * a model without code (a one-line summary, then what it acts on: pictures of tiles, cells by
 * coordinates; src/mcp/answers), and `structuredContent` holds the data for programs.
 */
export function toolOk(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/**
 * A failed tool call. Errors are results with `isError: true`, not protocol errors, so a model
 * reads the message (the whole text; a conflict's names the cells now known by coordinates) and
 * can correct itself; programs branch on `structuredContent.error.code`.
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
  return { isError: true, content: [{ type: "text", text: message }], structuredContent: structured };
}
