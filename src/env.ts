/**
 * Bindings declared in wrangler.toml; one place so every module agrees on them. The Durable Object
 * namespaces are typed by ambient names (src/worker-types.d.ts, as `wrangler types` declares them),
 * so this module imports no class and every folder may import `Env` without an import circle.
 */
export interface Env {
  FIELDS: FieldObjectNamespace;
  IDENTITY: IdentityObjectNamespace;
  REGISTRY: RegistryObjectNamespace;
  ARCHIVES: R2Bucket;
  ASSETS: Fetcher;
  /** "1" on the hosted daily server (SPEC §9). */
  MOSAIC_DAILY: string;
  /** Comma-separated extra origins allowed to call /mcp from a browser. */
  ALLOWED_ORIGINS: string;
  /** "1" only in local development: joins without a verified identity are allowed. */
  MOSAIC_DEV: string;
  /** "1" only in tests: the objects accept failure injection (src/game/fault-hook.ts). Unset elsewhere. */
  MOSAIC_FAULTS?: string;
}
