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
  "conflict",
  "too_large",
  "bad_input",
  "dead",
  "closed",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The `structuredContent` of every failed tool call. */
export interface ToolErrorPayload {
  error: { code: ErrorCode; message: string; revision?: number };
}

/**
 * A successful tool answer: a short human summary in `content` (agents pay for every byte,
 * so keep it to a few hundred characters) and the full data in `structuredContent`.
 */
export function toolOk(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/**
 * A failed tool call. Errors are results with `isError: true`, not protocol errors, so a model
 * sees the message and can correct itself; programs branch on `structuredContent.error.code`.
 */
export function toolError(code: ErrorCode, message: string, extra: { revision?: number } = {}): CallToolResult {
  const error: ToolErrorPayload["error"] = { code, message };
  if (extra.revision !== undefined) error.revision = extra.revision;
  return { isError: true, content: [{ type: "text", text: message }], structuredContent: { error } };
}
