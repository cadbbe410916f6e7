import type { LiveHost } from "./live-host";
import type { LiveStore } from "./live-store";

/**
 * The relays that hold this field's spectator sockets (docs/scale.md "The live feed"). Each batch
 * goes in one call to the field's hub (a relay that holds no socket, `relayHubName`), which passes
 * it on to every relay, which sends it to its sockets: the field's work per batch is one call,
 * whatever the number of spectators or of relays in use. The list is stored, so it survives
 * hibernation and eviction, and travels with each batch, so the hub keeps nothing.
 *
 * Batches go to the hub one after another, each after the hub has passed the previous one to every
 * relay, so every relay gets them in order. A delivery that fails (the hub or a relay reset
 * mid-call) is not retried here: the relay finds the gap at its next batch and reads the missing
 * events back (RelayObject.deliver). A relay that answers with no socket open is dropped.
 */
export class RelaySubscribers {
  private names: string[] | null = null;
  /** The delivery under way to the hub, if any: the next waits for it. */
  private chain: Promise<void> | null = null;
  /** Sockets each relay said it held at its last delivery (in memory: a wake-up starts afresh). */
  private readonly open = new Map<string, number>();

  constructor(
    private readonly f: LiveHost,
    private readonly store: LiveStore,
  ) {}

  private list(): string[] {
    this.names ??= this.store.getMeta<string[]>("relays") ?? [];
    return this.names;
  }

  count(): number {
    return this.list().length;
  }

  /** The most sockets one relay holds, as last reported: it sets the batching window (live-feed.ts). */
  largest(): number {
    let most = 0;
    for (const n of this.open.values()) most = Math.max(most, n);
    return most;
  }

  add(name: string): void {
    const names = this.list();
    if (names.includes(name)) return;
    this.names = [...names, name];
    this.store.setMeta("relays", this.names);
  }

  remove(name: string): void {
    const names = this.list();
    if (!names.includes(name)) return;
    this.names = names.filter((n) => n !== name);
    this.open.delete(name);
    this.store.setMeta("relays", this.names);
  }

  /** Sends a batch (its messages, the revisions it spans) to every relay through the hub, in order. */
  deliver(gameId: string, messages: string[], first: number, last: number): void {
    const names = this.list();
    if (names.length === 0) return;
    const next = (this.chain ?? Promise.resolve())
      .then(() => this.f.env.RELAYS.getByName(relayHubName(gameId)).fanOut(gameId, names, messages, first, last))
      .then(
        (answer) => {
          for (const { relay, open } of answer.open) {
            this.open.set(relay, open);
            if (open === 0) this.remove(relay);
          }
        },
        (err: unknown) => console.error(`live relay hub of ${gameId}: delivery of ${first}..${last} failed; each relay catches up at its next batch`, err),
      )
      .finally(() => {
        if (this.chain === next) this.chain = null;
      });
    this.chain = next;
    this.f.ctx.waitUntil(next);
  }
}

/** The name of a field's hub: a relay that passes each batch on to the field's relays (no socket picks it). */
export function relayHubName(gameId: string): string {
  return `${gameId}#hub`;
}
