import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { toolError, type ErrorCode } from "../results";

/**
 * Arguments that fail a tool's input schema are refused by the SDK before the tool runs, as a bare
 * `isError` text. Agents branch on `structuredContent.error.code` (SPEC §6.1), so those refusals get
 * the same shape as every other one: `too_large` when a string or list is over its limit (an intent
 * over 160 characters, as the referee answers), else `bad_input`. The SDK builds that result in
 * its (private) `createToolError`, which is the only hook between validation and the answer; a
 * test pins the behaviour so an SDK change cannot remove it unnoticed.
 */
export function reportInvalidArguments(server: McpServer): void {
  const hook = server as unknown as { createToolError?: (message: string) => CallToolResult };
  if (typeof hook.createToolError !== "function") return;
  hook.createToolError = toolErrorFromMessage;
}

/** The refusal for an argument-validation message or a handler's thrown error: the SDK's path and the direct one answer alike. */
export function toolErrorFromMessage(message: string): CallToolResult {
  const sdk = SDK_VALIDATION.exec(message);
  const text = sdk ? `${sdk[1]} refused its arguments, nothing changed: ${message.slice(sdk[0].length)}` : message;
  return toolError(codeOf(text), text);
}

/** The SDK's wording of a schema refusal, which names the tool before zod's issues. */
const SDK_VALIDATION = /^Input validation error: Invalid arguments for tool ([\w-]+): /;

function codeOf(message: string): ErrorCode {
  return /Too big: expected (string|array)|: too long: /.test(message) ? "too_large" : "bad_input";
}
