import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Env } from "../../env";
import type { Outcome } from "../../game/field-object";
import type { WriteArgs } from "../../game/field-types";
import type { XyCommit, XyRetract } from "../../referee/coordinates";
import { bearerClaimOf } from "../../identity/api";
import type { BearerClaim } from "../../identity/vouched-tokens";
import type { ToolContext } from "../context";
import { toolError, toolOk, type ModelReply } from "../results";
import { deathMargin, marginSentence, type DeathMargin } from "../../referee/health-margin";
import { MAX_COMMIT_CELLS, MAX_RETRACT_CELLS } from "../../referee/limits";
import { retryRead } from "../../game/object-failures";

/** Shared plumbing of the play tools: the field's object, answers, and write authorisation. */

export function fieldStub(env: Env, gameId: string) {
  return env.FIELDS.getByName(gameId);
}

/** A field object's outcome as a tool result: the summary text from `summarise`, or the error. */
export function answer<T extends Record<string, unknown>>(outcome: Outcome<T>, summarise: (a: T) => string | ModelReply): CallToolResult {
  if (!outcome.ok) {
    const { code, message, revision, tiles, cells, known } = outcome.error;
    return toolError(code, message, { revision, tiles, cells, known });
  }
  const reply = summarise(outcome.answer);
  return typeof reply === "string" ? toolOk(reply, outcome.answer) : toolOk(reply.text, reply.structured);
}

/**
 * A read of a field object, tried again (with a fresh stub, which `run` makes) after a failure
 * that is not an overload (src/game/object-failures.ts). Writes are never retried: a failure
 * escapes to the tools' guard, which answers `unavailable` (failure-guard.ts).
 */
export function readField(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  return retryRead(run);
}

/**
 * How a write proves its machine (SPEC §6): the bearer token when the request has one, else the
 * agent_secret argument. A header that cannot hold a token of ours is refused here; a token of our
 * form goes to the field, hashed, which checks it against the vouches it holds or the machine's
 * identity object (src/game/field-callers.ts) and checks that the agent belongs to that machine.
 */
export async function writeAuth(
  ctx: ToolContext,
  agentSecret: string | undefined,
): Promise<{ ok: true; bearer?: BearerClaim; agentSecret?: string } | { ok: false; result: CallToolResult }> {
  const header = await bearerOf(ctx);
  if (!header.ok) return header;
  if (header.bearer) return { ok: true, bearer: header.bearer };
  if (agentSecret !== undefined) return { ok: true, agentSecret };
  return {
    ok: false,
    result: toolError("identity", "this write must prove your machine: send 'Authorization: Bearer msc_…' (see /identity) or pass the agent_secret your join returned."),
  };
}

/** The arguments every write tool shares (SPEC §6). */
export interface WriteToolArgs {
  game_id: string;
  agent: string;
  expected_revision: number;
  intent: string;
  agent_secret?: string;
}

/**
 * What a write adds to the shared arguments: its type and its target (a tile, or cells by id or
 * by coordinates: exactly one of `cells` and `xy`).
 */
export type WriteDetail =
  | { type: "reveal"; tile: number }
  | { type: "commit"; cells?: Array<[number, 0 | 1]>; xy?: XyCommit }
  | { type: "retract"; cells?: number[]; xy?: XyRetract };

/**
 * One write tool call: refuse an oversized batch with `too_large`, prove the machine, send the
 * write to the field, and answer with `summarise`'s text.
 */
export async function playWrite(
  ctx: ToolContext,
  args: WriteToolArgs,
  detail: WriteDetail,
  summarise: (a: Record<string, unknown>) => string | ModelReply,
): Promise<CallToolResult> {
  let target: { tile: number } | { cells: Array<[number, 0 | 1]> | number[] } | { xy: XyCommit | XyRetract };
  if (detail.type === "reveal") target = { tile: detail.tile };
  else {
    const { cells, xy } = detail;
    const example = detail.type === "commit" ? "cells [[id, 0|1], …] or xy [[x, y, 0|1], …]" : "cells [id, …] or xy [[x, y], …]";
    if ((cells === undefined) === (xy === undefined)) {
      return toolError("bad_input", `${detail.type} takes exactly one of cells and xy (${cells === undefined ? "neither was sent" : "both were sent"}): ${example}; nothing changed.`);
    }
    const sent = (cells ?? xy)!.length;
    const max = detail.type === "commit" ? MAX_COMMIT_CELLS : MAX_RETRACT_CELLS;
    if (sent > max) return toolError("too_large", `batch too large: ${sent} cells; ${detail.type} at most ${max} per call`);
    target = cells !== undefined ? { cells } : { xy: xy! };
  }
  const auth = await writeAuth(ctx, args.agent_secret);
  if (!auth.ok) return auth.result;
  const input = { type: detail.type, ...target, agent: args.agent, expectedRevision: args.expected_revision, intent: args.intent } as WriteArgs["input"];
  // Never retried: the write may be stored with only its answer lost (failure-guard.ts).
  return answer(noteCaller(ctx, await fieldStub(ctx.env, args.game_id).write({ input, bearer: auth.bearer, agentSecret: auth.agentSecret })), summarise);
}

/**
 * The bearer token a call carries, hashed for the field to check (none: a spectator's read, or a
 * write proven by its agent_secret). A header that cannot hold a token of ours is refused, for
 * reads and writes alike (SPEC §8).
 */
export async function bearerOf(ctx: ToolContext): Promise<{ ok: true; bearer: BearerClaim | undefined } | { ok: false; result: CallToolResult }> {
  if (ctx.signedIn) return { ok: true, bearer: ctx.signedIn };
  const claim = await bearerClaimOf(ctx.request.headers.get("Authorization"));
  if (claim === null) return { ok: true, bearer: undefined };
  return claim.ok ? { ok: true, bearer: claim.claim } : { ok: false, result: toolError(claim.code, claim.message) };
}

/** Notes the machine a field found the call's token to prove (the usage meter counts the call for it). */
export function noteCaller<T extends { caller?: string } & ({ ok: true } | { ok: false; error: { code: string } })>(ctx: ToolContext, outcome: T): T {
  if (outcome.caller !== undefined) ctx.provenMachine = outcome.caller;
  // A field refuses a token with the code "token", and only before it changes anything.
  else if (!outcome.ok && outcome.error.code === "token") ctx.tokenRefused = true;
  return outcome;
}

/**
 * A health report as one short sentence for a text answer (SPEC §4.8: commit and observe answers
 * say when a machine is in warning): a model reading only the text learns how close death is.
 */
export function healthText(health: unknown): string {
  const h = health as { state?: string; wrong?: number; window?: number; rate_bp?: number; margin?: DeathMargin } | undefined;
  if (!h || typeof h.state !== "string") return "";
  if (h.state === "dead") return " Machine dead on this field: no more writes today.";
  if (h.state === "warning" && typeof h.wrong === "number" && typeof h.window === "number") {
    // The referee's margin is exact (it knows which cells a full window drops); from the counts alone, a lower bound.
    const margin = h.margin ?? deathMargin(h.wrong, h.window);
    const rate = typeof h.rate_bp === "number" ? ` (${(h.rate_bp / 100).toFixed(2)} %)` : "";
    return ` Health warning: ${h.wrong} wrong of ${h.window} counted${rate}; ${marginSentence(margin)}.`;
  }
  return ` Health ${h.state}.`;
}
