import type { CallToolResult } from "@modelcontextprotocol/server";
import { objectFailure, requestIdOf, retryAfterSeconds } from "../../game/object-failures";
import type { ToolContext } from "../context";
import { toolError } from "../results";
import type { ToolRegistrar } from "./registrar";

/** Tools whose call changes state: never retried here, and their outcome is unknown after a failure. */
const WRITES = new Set(["start_mosaic", "join", "reveal", "commit", "retract"]);

/**
 * Every tool's handler behind one guard: a failure escaping it (an object reset or overloaded
 * under the call, a storage error, a bug) becomes the tool error `unavailable` with the seconds
 * to wait and the request's id, logged with that id, instead of a text the agent cannot parse.
 * Reads were already retried where they reach an object (`retryRead`); writes never are.
 */
export function guardedRegistrar(inner: ToolRegistrar, ctx: ToolContext): ToolRegistrar {
  return {
    registerTool(name, config, handler) {
      inner.registerTool(name, config, async (args) => {
        try {
          return await handler(args);
        } catch (err) {
          return failedCall(ctx, name, err);
        }
      });
    },
  };
}

/** The `unavailable` answer of a tool call that failed, logged with the request's id. */
export function failedCall(ctx: ToolContext, tool: string, err: unknown): CallToolResult {
  const id = (ctx.requestId ??= requestIdOf(ctx.request));
  ctx.failed = true;
  const failure = objectFailure(err);
  const wait = retryAfterSeconds(failure);
  console.error(JSON.stringify({ event: "tool_failed", request_id: id, tool, ...failure }));
  const cause = failure.overloaded ? "the field is overloaded" : failure.reset ? "the field's object was reset" : "the service failed";
  let message: string;
  if (!WRITES.has(tool)) message = `${tool} failed: ${cause}; nothing was changed. Retry after ${wait} s (request ${id}).`;
  else if (tool === "join") message = `join interrupted: ${cause} before answering; you may be seated. Join again with the same session after ${wait} s: it answers the same seat (request ${id}).`;
  else {
    message =
      `${tool} interrupted: ${cause} before answering, so it may or may not have been applied. ` +
      `Do not resend it blindly: observe {agent} first (the revision, your cells), then retry after ${wait} s if it is missing (request ${id}).`;
  }
  return toolError("unavailable", message, { retry_after: wait, request_id: id });
}
