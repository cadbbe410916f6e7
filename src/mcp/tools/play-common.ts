import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Env } from "../../env";
import type { Outcome } from "../../game/field-object";
import { machineFromBearer } from "../../identity/api";
import type { ToolContext } from "../context";
import { toolError, toolOk } from "../results";

/** Shared plumbing of the play tools: the field's object, answers, and write authorisation. */

export function fieldStub(env: Env, gameId: string) {
  return env.FIELDS.getByName(gameId);
}

/** A field object's outcome as a tool result: the summary text from `summarise`, or the error. */
export function answer<T extends Record<string, unknown>>(outcome: Outcome<T>, summarise: (a: T) => string): CallToolResult {
  if (!outcome.ok) return toolError(outcome.error.code, outcome.error.message, { revision: outcome.error.revision });
  return toolOk(summarise(outcome.answer), outcome.answer);
}

/** Runs a call to a field object; an infrastructure failure becomes a clear tool error, never a crash. */
export async function callField(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    console.error("field call failed", err);
    return toolError("bad_input", "the field could not be reached; nothing was changed, try again");
  }
}

/**
 * How a write proves its machine (SPEC §6): the bearer token when the request has one (it must be
 * valid), else the agent_secret argument. The field object checks that the agent belongs to it.
 */
export async function writeAuth(
  ctx: ToolContext,
  agentSecret: string | undefined,
): Promise<{ ok: true; machineId?: string; agentSecret?: string } | { ok: false; result: CallToolResult }> {
  const bearer = await machineFromBearer(ctx.env, ctx.request.headers.get("Authorization"));
  if (bearer && !bearer.ok) return { ok: false, result: toolError(bearer.code, bearer.message) };
  if (bearer) return { ok: true, machineId: bearer.machineId };
  if (agentSecret !== undefined) return { ok: true, agentSecret };
  return {
    ok: false,
    result: toolError("identity", "this write must prove your machine: send 'Authorization: Bearer msc_…' (see /identity) or pass the agent_secret your join returned."),
  };
}

/** The machine a read-only call comes from, when it carries a valid token (for the caller's health). */
export async function readerMachine(ctx: ToolContext): Promise<string | undefined> {
  const bearer = await machineFromBearer(ctx.env, ctx.request.headers.get("Authorization"));
  return bearer?.ok ? bearer.machineId : undefined;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function listIds(ids: unknown, max = 8): string {
  if (!Array.isArray(ids) || ids.length === 0) return "none";
  const shown = ids.slice(0, max).join(", ");
  return ids.length > max ? `${shown} (+${ids.length - max})` : shown;
}
