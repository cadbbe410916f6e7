import type { FieldObject } from "./game/field-object";
import type { IdentityObject } from "./identity/identity-object";
import type { RegistryObject } from "./game/registry-object";
import type { RelayObject } from "./live/relay-object";

/** Bindings declared in wrangler.toml; one place so every module agrees on them. */
export interface Env {
  FIELDS: DurableObjectNamespace<FieldObject>;
  IDENTITY: DurableObjectNamespace<IdentityObject>;
  REGISTRY: DurableObjectNamespace<RegistryObject>;
  ARCHIVES: R2Bucket;
  /** Relays of the live feed: they hold spectator sockets (src/live/relay-object.ts). */
  RELAYS: DurableObjectNamespace<RelayObject>;
  ASSETS: Fetcher;
  /** "1" on the hosted daily server (SPEC §9). */
  MOSAIC_DAILY: string;
  /** Comma-separated extra origins allowed to call /mcp from a browser. */
  ALLOWED_ORIGINS: string;
  /** "1" only in local development: joins without a verified identity are allowed. */
  MOSAIC_DEV: string;
  /** Seconds a public read at the head is served from the edge cache: "1" in production, "0" locally (src/http/edge-cache.ts). */
  MOSAIC_EDGE_CACHE_S: string;
  /** Relays per field's live feed, each holding its share of the spectators ("16" when unset; docs/scale.md). */
  MOSAIC_LIVE_RELAYS?: string;
  /** Rate limits (wrangler.toml `[[ratelimits]]`, docs/deploy.md): key and sign-in routes per address. */
  LIMIT_KEYS: RateLimit;
  /** /mcp per client address. */
  LIMIT_MCP_ADDRESS: RateLimit;
  /** /mcp per machine (its credential). */
  LIMIT_MCP_MACHINE: RateLimit;
}
