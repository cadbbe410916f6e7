/**
 * Bindings declared in wrangler.toml; one place so every module agrees on them. The Durable Object
 * namespaces are typed by ambient names (src/worker-types.d.ts, as `wrangler types` declares them),
 * so this module imports no class and every folder may import `Env` without an import circle.
 */
export interface Env {
  FIELDS: FieldObjectNamespace;
  IDENTITY: IdentityObjectNamespace;
  REGISTRY: RegistryObjectNamespace;
  /** The history across days (SPEC §11.1): one instance, "history". */
  HISTORY: HistoryObjectNamespace;
  ARCHIVES: R2Bucket;
  /** Relays of the live feed: they hold spectator sockets (src/live/relay-object.ts). */
  RELAYS: RelayObjectNamespace;
  ASSETS: Fetcher;
  /** "1" on the hosted daily server (SPEC §9). */
  MOSAIC_DAILY: string;
  /** Comma-separated extra origins allowed to call /mcp from a browser. */
  ALLOWED_ORIGINS: string;
  /** "1" only in local development: joins without a verified identity are allowed. */
  MOSAIC_DEV: string;
  /** "1" only in tests: the objects accept failure injection (src/game/fault-hook.ts). Unset elsewhere. */
  MOSAIC_FAULTS?: string;
  /** OAuth clients, grants and hashed tokens of the signed-in MCP URL (SPEC §8.1). */
  OAUTH_KV: KVNamespace;
  /** Seconds an OAuth access token lives (default 900, at least 60); tests shorten it. */
  MOSAIC_OAUTH_ACCESS_TTL?: string;
  /** Seconds a public read at the head is served from the edge cache: "1" in production, "0" locally (src/http/edge-cache.ts). */
  MOSAIC_EDGE_CACHE_S: string;
  /** Relays per field's live feed, each holding its share of the spectators ("16" when unset; docs/scale.md). */
  MOSAIC_LIVE_RELAYS?: string;
  /** Rate limits (wrangler.toml `[[ratelimits]]`, docs/deploy.md): key and sign-in routes per address. */
  LIMIT_KEYS: RateLimit;
  /** The account routes' signed requests (POST /api/accounts…) per address. */
  LIMIT_ACCOUNTS: RateLimit;
  /** /mcp per client address. */
  LIMIT_MCP_ADDRESS: RateLimit;
  /** /mcp per machine (its credential). */
  LIMIT_MCP_MACHINE: RateLimit;
  /** The consent page's status polls per address, apart from LIMIT_KEYS (SPEC §8.1). */
  LIMIT_SIGNIN_WAIT: RateLimit;
}
