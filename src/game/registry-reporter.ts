import type { Env } from "../env";
import { recordGame } from "./registry";
import type { RegistryEntry } from "./registry-object";

/** Revision reports are batched to at most one per this interval. */
const INTERVAL_MS = 2_000;

/**
 * How a field keeps its registry row current without slowing its writes: status changes and new
 * seats are reported at once, revision changes at most every INTERVAL_MS (the last one always
 * sent). Reports run after the answer; a missed one is repaired by the next.
 */
export class RegistryReporter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = 0;

  constructor(
    private readonly env: Env,
    private readonly summary: () => RegistryEntry | null,
    private readonly waitUntil: (p: Promise<unknown>) => void,
  ) {}

  /** Reports now and resolves when done (creation, generation). */
  async now(): Promise<void> {
    const entry = this.summary();
    if (!entry) return;
    this.last = Date.now();
    try {
      await recordGame(this.env, entry);
    } catch (err) {
      // The registry is a listing, not the truth.
      console.error("registry update failed", err);
    }
  }

  /** Reports soon, without holding the caller (status changes, new seats). */
  soon(): void {
    this.waitUntil(this.now());
  }

  /** Reports a revision change, batched. */
  batched(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.last + INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.now();
    }, wait);
  }
}
