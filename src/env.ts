import type { FieldObject } from "./game/field-object";
import type { IdentityObject } from "./identity/identity-object";
import type { RegistryObject } from "./game/registry-object";
import type { HistoryObject } from "./history-store/history-object";

/** Bindings declared in wrangler.toml; one place so every module agrees on them. */
export interface Env {
  FIELDS: DurableObjectNamespace<FieldObject>;
  IDENTITY: DurableObjectNamespace<IdentityObject>;
  REGISTRY: DurableObjectNamespace<RegistryObject>;
  /** The history across days (SPEC §11.1): one instance, "history". */
  HISTORY: DurableObjectNamespace<HistoryObject>;
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
