import type { Field } from "../engine/types";
import type { Env } from "../env";
import type { Referee } from "../referee";

/**
 * What the spectator duties read of the field object that holds them: its state and storage, the
 * game rebuilt from them, and the stored log. The object's `FieldContext` (src/game) is one; the
 * duties name only what they use, so this folder never imports the object's own.
 */
export interface LiveHost {
  readonly ctx: DurableObjectState;
  readonly env: Env;
  /** Null before generation, after expiry, or when the log could not be restored. */
  readonly referee: Referee | null;
  readonly field: Field | null;
  /** Why the stored log could not be restored, when it could not. */
  readonly loadError: string | null;
  readonly store: {
    /** Stored events with `rev > afterRev`, at most `limit`, in order. */
    events(afterRev: number, limit: number): Array<Record<string, unknown>>;
  };
  /** A stored meta value (synchronous). */
  meta<T>(key: string): T | undefined;
}
