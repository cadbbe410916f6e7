import type { LiveHost } from "./live-host";
import type { LiveStore } from "./live-store";

/**
 * The relays that hold this field's spectator sockets (docs/scale.md "The live feed"): each batch
 * goes once to each relay, which sends it on to its sockets, so the field's work per event does
 * not grow with the spectators. The list is stored, so it survives hibernation and eviction.
 *
 * Deliveries to one relay are chained, so batches arrive in order; a delivery that fails (a relay
 * reset mid-call) is not retried here: the relay finds the gap at its next batch and reads the
 * missing events back (RelayObject.deliver). A relay that answers with no socket open is dropped.
 */
export class RelaySubscribers {
  private names: string[] | null = null;
  private readonly chains = new Map<string, Promise<void>>();
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

  /** Sends a batch (its messages, the revisions it spans) to every relay, in order per relay. */
  deliver(gameId: string, messages: string[], first: number, last: number): void {
    for (const name of this.list()) {
      const previous = this.chains.get(name) ?? Promise.resolve();
      const next = previous
        .then(() => this.f.env.RELAYS.getByName(name).deliver(gameId, messages, first, last))
        .then(
          (answer) => {
            this.open.set(name, answer.open);
            if (answer.open === 0) this.remove(name);
          },
          (err: unknown) => console.error(`live relay ${name}: delivery of ${first}..${last} failed; it catches up at its next batch`, err),
        )
        .finally(() => {
          if (this.chains.get(name) === next) this.chains.delete(name);
        });
      this.chains.set(name, next);
      this.f.ctx.waitUntil(next);
    }
  }
}
