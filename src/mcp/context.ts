import { CLIENT_INFO_META_KEY } from "@modelcontextprotocol/server";
import type { Env } from "../env";
import { isRecord } from "../referee/validate";
import type { BearerClaim } from "../identity/vouched-tokens";
import { identifiesNothing } from "./generic-clients";

/** Where an agent's harness name came from (SPEC §6): recorded next to the name. */
export type HarnessSource = "transport" | "argument" | "unknown";

export interface Harness {
  name: string;
  version?: string;
  source: HarnessSource;
}

/**
 * Everything a tool handler may use about the request it serves. Built once per HTTP request,
 * before the MCP server for that request exists, and handed to every tool registration.
 */
export interface ToolContext {
  env: Env;
  request: Request;
  /** The harness as the transport reported it: `transport` or `unknown` (never `argument`). */
  harness: Harness;
  /** Work to finish after the answer is sent (logs, analysis); absent outside a Worker request. */
  waitUntil?: (p: Promise<unknown>) => void;
  /**
   * On the signed-in URL (SPEC §8.1): the machine the OAuth grant proves, in the form of a bearer
   * claim, so fields check it by the same vouch. The Authorization header then holds the OAuth token.
   */
  signedIn?: BearerClaim;
  /** The machine this request's bearer token proved, once a tool resolved it (usage counting). */
  provenMachine?: string;
  /** Set when a field refused the request's token (unknown, replaced, revoked or expired). */
  tokenRefused?: boolean;
  /** The request's id in the logs (`X-Request-Id`); set by the route. */
  requestId?: string;
  /** Set when a call failed under a tool and was logged: the route then returns the id in `X-Request-Id`. */
  failed?: boolean;
}

const UNKNOWN: Harness = { name: "unknown", source: "unknown" };
const MAX_NAME = 100;

/**
 * The harness a JSON-RPC message identifies through the transport. A 2026-07-28 client puts
 * `io.modelcontextprotocol/clientInfo` in every request's `params._meta`. A 2025-era client
 * sends its clientInfo only in `initialize`, which a stateless server does not keep, so its
 * later calls identify nothing here and the tool's `harness` argument decides. So does a client
 * whose name is the server's own or an SDK default (SPEC §6, `generic-clients.ts`).
 */
export function harnessFromMessage(message: unknown): Harness {
  const params = isRecord(message) ? message.params : undefined;
  const meta = isRecord(params) ? params._meta : undefined;
  const info = isRecord(meta) ? meta[CLIENT_INFO_META_KEY] : undefined;
  if (!isRecord(info)) return UNKNOWN;
  const name = cleanLabel(info.name);
  if (!name || identifiesNothing(name)) return UNKNOWN;
  const version = cleanLabel(info.version);
  return version ? { name, version, source: "transport" } : { name, source: "transport" };
}

/**
 * The harness to record for a tool call (SPEC §6): the transport's when the client identified
 * itself, else the tool's `harness` argument, else `unknown`.
 */
export function resolveHarness(ctx: Pick<ToolContext, "harness">, argument?: string | null): Harness {
  if (ctx.harness.source === "transport") return ctx.harness;
  const name = cleanLabel(argument);
  return name ? { name, source: "argument" } : UNKNOWN;
}

/** Self-reported labels end up on the leaderboard: trimmed, single-line, bounded. */
function cleanLabel(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return text ? text.slice(0, MAX_NAME) : undefined;
}
