// The OAuth 2.1 authorization server of the signed-in MCP URL (SPEC §8.1), made of
// @cloudflare/workers-oauth-provider: authorization code + PKCE S256, RFC 8707 resources, rotating
// refresh tokens, Dynamic Client Registration, RFC 8414 and RFC 9728 metadata, every token and
// code kept in KV only as a hash. Mosaic writes the consent page and the Client ID Metadata
// Document fetch (cimd.ts); docs/signin.md says why.
import { getOAuthApi, OAuthProvider, type OAuthHelpers, type OAuthProviderOptions } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env";

/** The signed-in MCP URL's path: beside /mcp, so a person sees which of the two they paste. */
export const SIGNED_IN_PATH = "/mcp/signed-in";
export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
/** The one scope: play as the machine that approved (SPEC §8.1). */
export const PLAY_SCOPE = "play";
/** Access tokens are short-lived; refresh tokens rotate and live 30 days (the library's default). */
export const DEFAULT_ACCESS_TTL_S = 900;

/** What a grant's tokens unwrap to: the machine, and the secret whose hash its identity object holds. */
export interface GrantProps {
  machineId: string;
  ref: string;
  secret: string;
}

/** The handler of the signed-in URL, called by the provider with a valid token's props. */
export type SignedInHandler = ExportedHandler<Env> & Pick<Required<ExportedHandler<Env>>, "fetch">;

/** The server's own origin as clients see it (the issuer and the resource are built on it). */
export function originOf(request: Request): string {
  return new URL(request.url).origin;
}

/** A server reached on a loopback name is a local one: http metadata documents and callbacks are allowed. */
export function isLocalOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function options(origin: string, env: Env, apiHandler: SignedInHandler): OAuthProviderOptions<Env> {
  const ttl = Number(env.MOSAIC_OAUTH_ACCESS_TTL);
  return {
    apiRoute: `${origin}${SIGNED_IN_PATH}`,
    apiHandler,
    // Everything else is routed by Mosaic's own router before it gets here.
    defaultHandler: { fetch: () => Response.json({ error: "not_found" }, { status: 404 }) },
    authorizeEndpoint: `${origin}${AUTHORIZE_PATH}`,
    tokenEndpoint: `${origin}${TOKEN_PATH}`,
    clientRegistrationEndpoint: `${origin}${REGISTER_PATH}`,
    scopesSupported: [PLAY_SCOPE],
    resourceMetadata: { resource: `${origin}${SIGNED_IN_PATH}`, authorization_servers: [origin], resource_name: "Mosaic (signed in)" },
    // KV expires records no sooner than 60 s, so the library takes no shorter lifetime.
    accessTokenTTL: Number.isInteger(ttl) && ttl >= 60 ? ttl : DEFAULT_ACCESS_TTL_S,
    // Metadata documents are fetched by cimd.ts (SSRF guards, local http) and stored as clients.
    clientIdMetadataDocumentEnabled: false,
    // Public clients (no secret) are what MCP hosts are; they must use PKCE S256.
    disallowPublicClientRegistration: false,
    onError: ({ code, description, status }) => {
      if (status >= 500) console.error(`oauth ${status} ${code}: ${description}`);
    },
  };
}

/** The provider for `origin` (the issuer and the resource URL name it), cached by the caller. */
export function providerFor(cache: Map<string, OAuthProvider<Env>>, origin: string, env: Env, apiHandler: SignedInHandler): OAuthProvider<Env> {
  let provider = cache.get(origin);
  if (!provider) {
    provider = new OAuthProvider(options(origin, env, apiHandler));
    cache.set(origin, provider);
  }
  return provider;
}

const noApi: SignedInHandler = { fetch: () => new Response(null, { status: 404 }) };

/** The provider's helpers (parse and complete authorization, clients, grants) for `origin`. */
export function oauthApi(origin: string, env: Env): OAuthHelpers {
  return getOAuthApi(options(origin, env, noApi), env);
}
