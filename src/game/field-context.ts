import type { Field } from "../engine/types";
import type { Env } from "../env";
import { VouchedTokens } from "../identity/vouched-tokens";
import type { Referee } from "../referee";
import type { ChainedEvent } from "../referee/types";
import type { FieldStore } from "./field-store";
import type { LogHead } from "./field-types";
import type { RegistryReporter } from "./registry-reporter";

export type { ChainedEvent };

/**
 * Called after each durable write, ring and close with the chained event, in revision order.
 * Runs synchronously right after the transaction (the output gate still holds every answer and
 * message until it is durable); a listener must not throw into the write and must not await.
 */
export type CommitListener = (event: ChainedEvent) => void;

/**
 * What the duties of one field (lifecycle, growth, writes, reads, restore) share: the object's
 * state and storage, and the in-memory game rebuilt from that storage. Memory never runs ahead of
 * storage: only the write path and restore change `referee`, `field`, `revealed` and `head`.
 */
export class FieldContext {
  /** The referee (null before generation, after expiry, or when the log could not be restored). */
  referee: Referee | null = null;
  /** The field as generated and grown so far (tiles of every ring, the whole solution). */
  field: Field | null = null;
  /** Tiles revealed so far (a tile is revealed once; solved tiles were revealed first). */
  revealed = 0;
  head: LogHead = { hash: "", rev: 0 };
  /** Every tile's published hash, in id order (as stored with the tiles). */
  hashes: string[] = [];
  /** The public `hashes` list as JSON text, cached until tiles are added. */
  hashesText: { count: number; text: string } | null = null;
  /** Revision of the newest stored referee snapshot (0: none). */
  snapshotRev = 0;
  /** The timer that works out the last writes' pending propagation, if set (field-settle.ts). */
  settling: ReturnType<typeof setTimeout> | null = null;
  /** The snapshot being taken in the background, if any (field-snapshots.ts). */
  snapshotting: Promise<void> | null = null;
  /** Why the stored log could not be restored, when it could not. */
  loadError: string | null = null;
  /** Generation progress, for `observe` while generating. */
  progress = { done: 0, total: 0 };
  /** In-flight generation and growth, shared by concurrent alarm invocations. */
  generation: Promise<void> | null = null;
  growing: Promise<void> | null = null;
  /** The archive being written (a close repeated meanwhile waits for the same one). */
  archiving: Promise<unknown> | null = null;
  /** Bearer tokens the identity object vouched for, trusted here until it says otherwise (vouched-tokens.ts). */
  readonly vouched = new VouchedTokens();
  readonly registry: RegistryReporter;
  private readonly listeners: CommitListener[] = [];

  constructor(
    readonly ctx: DurableObjectState,
    readonly env: Env,
    readonly store: FieldStore,
    registry: (context: FieldContext) => RegistryReporter,
  ) {
    this.registry = registry(this);
  }

  /** Subscribes to committed events (the live feed, growth scheduling, …); returns the unsubscribe. */
  onCommitted(listener: CommitListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Tells every listener about an event that is now stored; a failing listener is logged, never fatal. */
  emitCommitted(event: ChainedEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        console.error("commit listener failed", err);
      }
    }
  }

  /** Stored meta value (synchronous). */
  meta<T>(key: string): T | undefined {
    return this.store.getMeta<T>(key);
  }
}
