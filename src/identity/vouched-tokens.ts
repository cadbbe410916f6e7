// Bearer tokens a field object may trust without asking the machine's identity object each time.
//
// Every write and every observe with a token would otherwise pay a round trip to the identity
// object before the field could act. Instead the field keeps, in memory, the identity object's
// answer for each token it has seen ("vouched": this hash is the machine's current token, at this
// epoch). The identity object records which fields asked; when the machine mints a new token, it
// tells each of them before the mint is answered, so a replaced token is refused everywhere from
// the moment the new one exists (SPEC §8). Epochs close the race where a vouch and a revocation
// cross: a vouch older than a revocation the field has already heard is not kept.

/** A bearer token as a field sees it: the machine its text names and its SHA-256 (the token never leaves the edge). */
export interface BearerClaim {
  machineId: string;
  tokenHash: string;
}

/**
 * The identity object's word on a token. `epoch` orders a machine's tokens (a later mint has a
 * larger one), so a revocation can say "everything before this one".
 */
export type Vouch = { status: "current"; machineId: string; epoch: number } | { status: "replaced" | "unknown" };

/**
 * How long a field trusts a vouch without asking again. The identity object tells only the fields
 * that asked within this window (plus a margin) about a new token, so the list it keeps stays short.
 */
export const VOUCH_TTL_MS = 10 * 60_000;

/** Above this many machines, expired entries are swept before a new one is kept. */
const SWEEP_ABOVE = 4_096;

interface Held {
  tokenHash: string;
  epoch: number;
  until: number;
}

/** A field's memory of vouched tokens and of the revocations it was told about. Lost on eviction, which only costs a new vouch. */
export class VouchedTokens {
  private readonly held = new Map<string, Held>();
  /** Per machine: tokens with an epoch below this were replaced. */
  private readonly revokedBelow = new Map<string, number>();

  /** The machine `claim` proves, when a fresh vouch for exactly this token is held. */
  lookup(claim: BearerClaim, nowMs: number): string | undefined {
    const held = this.held.get(claim.machineId);
    if (!held || held.tokenHash !== claim.tokenHash) return undefined;
    if (held.until <= nowMs) {
      this.held.delete(claim.machineId);
      return undefined;
    }
    return claim.machineId;
  }

  /**
   * Keeps a vouch the identity object gave for `claim`. False when a revocation at a later epoch
   * was heard meanwhile: the token was replaced while the vouch was on its way, and is refused.
   */
  remember(claim: BearerClaim, vouch: { machineId: string; epoch: number }, nowMs: number): boolean {
    if (vouch.machineId !== claim.machineId) return false;
    if (vouch.epoch < (this.revokedBelow.get(claim.machineId) ?? 0)) return false;
    if (this.held.size >= SWEEP_ABOVE) this.sweep(nowMs);
    this.held.set(claim.machineId, { tokenHash: claim.tokenHash, epoch: vouch.epoch, until: nowMs + VOUCH_TTL_MS });
    return true;
  }

  /** The identity object's word that `machineId` minted the token of `epoch`: every earlier one is replaced. */
  revoke(machineId: string, epoch: number): void {
    this.revokedBelow.set(machineId, Math.max(epoch, this.revokedBelow.get(machineId) ?? 0));
    const held = this.held.get(machineId);
    if (held && held.epoch < epoch) this.held.delete(machineId);
  }

  private sweep(nowMs: number): void {
    for (const [machine, held] of this.held) if (held.until <= nowMs) this.held.delete(machine);
  }
}
