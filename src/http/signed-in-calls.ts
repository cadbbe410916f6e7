// How a call at the signed-in URL (SPEC §8.1) proves its machine.
//
// The provider's way reads the token's KV record and decrypts the grant's props on every call.
// The fast way treats an access token as a bearer token: its hash (recorded by the machine's
// identity object when the token was issued, access-sync.ts) goes to the field, which checks it
// against the vouches it holds, with the token's expiry, or asks the identity object, which tells
// it when the grant is revoked. Only the play tools that prove their claim at a field before doing
// anything take it; whatever the field or the identity object does not accept goes to the provider,
// so every 401, its WWW-Authenticate and every refusal stay the provider's.
import type { Context } from "hono";
import type { Env } from "../env";
import type { GrantProps } from "../oauth/provider";
import { accessClaimOf, bearerTokenOf, isFieldProvenCall, type AccessClaim } from "../oauth/access-tokens";
import { identityStub } from "../identity/stub";
import { sha256Hex } from "../text/encoding";
import type { ToolContext } from "../mcp/context";
import type { SignedInCall } from "./mcp-route";
import type { AppEnv } from "./types";

/** The fast way's props: the claim, the provider to hand the request to (with its body), and whether the MCP chain reached its tools. */
interface FastProps {
  fast: AccessClaim;
  viaProvider: (body: string | null) => Promise<Response>;
  reached: boolean;
}

type SignedInProps = GrantProps | FastProps;

type Handler = (request: Request, env: Env, ec: ExecutionContext) => Response | Promise<Response>;

/**
 * Serves a signed-in request: the fast way when it carries an access token of the provider's form,
 * else (no token, another form, another method) the provider's way. `mcp` is the MCP chain, `provider`
 * the OAuth provider that serves it the slow way.
 */
export async function serveSignedIn(request: Request, env: Env, ec: ExecutionContext, resource: string, mcp: Handler, provider: Handler): Promise<Response> {
  const token = request.method === "POST" ? bearerTokenOf(request.headers.get("Authorization")) : null;
  const claim = token ? await accessClaimOf(resource, token) : null;
  if (!claim) return provider(request, env, ec);
  const props: FastProps = { fast: claim, viaProvider: async (body) => provider(again(request, body, ec), env, ec), reached: false };
  // Where the provider puts a grant's props (it sets them the same way).
  (ec as { props: SignedInProps }).props = props;
  const response = await mcp(request, env, ec);
  if (props.reached) return response;
  // Refused at the edge (body, JSON, origin, rate limit) before any tool ran: the refusal stands for
  // a token the identity object knows; any other token is the provider's to refuse first.
  if (await knows(env, claim)) return response;
  return props.viaProvider(null);
}

/** Requests (by their execution context) the MCP chain already counted against the rate limits before handing them to the provider. */
const counted = new WeakSet<ExecutionContext>();

/** Whether the MCP chain counted this request already (mcp-route.ts): a call is counted once. */
export function countedBefore(c: Context<AppEnv>): boolean {
  try {
    return counted.has(c.executionCtx as ExecutionContext);
  } catch {
    return false; // no execution context: not a Worker request
  }
}

/** The request once more for the provider: with the body the MCP chain read (then it was counted), or without. */
function again(request: Request, body: string | null, ec: ExecutionContext): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  if (body !== null) counted.add(ec);
  return new Request(request.url, { method: request.method, headers, body });
}

/** Whether the machine's identity object records the claim's access token as current. */
async function knows(env: Env, claim: { machineId: string; tokenHash: string }): Promise<boolean> {
  const vouch = await identityStub(env, claim.machineId).resolveToken(claim.tokenHash);
  return vouch.status === "current" && vouch.machineId === claim.machineId;
}

/** The MCP chain's `signedIn`: what proves the machine of this request (mcp-route.ts). */
export async function signedInCall(c: Context<AppEnv>): Promise<SignedInCall> {
  const props = (c.executionCtx as ExecutionContext<SignedInProps>).props;
  // The provider's way: it validated the token and unwrapped the grant's props.
  if (!("fast" in props)) return { claim: { machineId: props.machineId, tokenHash: await sha256Hex(props.secret) } };
  props.reached = true;
  const viaProvider = () => props.viaProvider(c.get("bodyText"));
  if (!isFieldProvenCall(c.get("message"))) return { answer: await viaProvider() };
  const claim = { machineId: props.fast.machineId, tokenHash: props.fast.tokenHash };
  return { claim, settle: (ctx) => settle(c.env, ctx, claim, viaProvider) };
}

/**
 * After the tools ran on the fast way: the answer stands when a field proved the claim. A field
 * that refused it changed nothing, so the provider serves the request (its 401, or a token it knows
 * and we do not). A call that never reached a field (bad arguments) stands if the identity object
 * knows the token.
 */
async function settle(env: Env, ctx: ToolContext, claim: { machineId: string; tokenHash: string }, viaProvider: () => Promise<Response>): Promise<Response | null> {
  if (ctx.provenMachine === claim.machineId) return null;
  if (!ctx.tokenRefused && (await knows(env, claim))) return null;
  return viaProvider();
}
