// Bearer tokens a field object may trust without asking the machine's identity object each time.
//
// Every write and every observe with a token would otherwise pay a round trip to the identity
// object before the field could act. Instead the field keeps, in memory, the identity object's
// answer for each token it has seen ("vouched": this hash is the machine's current token, at this
// epoch). The identity object records which fields asked; when the machine mints a new token, it
// tells each of them before the mint is answered, so a replaced token is refused everywhere from
// the moment the new one exists (SPEC §8). Epochs close the race where a vouch and a revocation
// cross: a vouch older than a revocation the field has already heard is not kept. A sign-in's
// access tokens (SPEC §8.1) are vouched the same way, with their expiry, and revoking the grant
// tells the same fields to forget them.

/** A bearer token as a field sees it: the machine its text names and its SHA-256 (the token never leaves the edge). */
export interface BearerClaim {
  machineId: string;
  tokenHash: string;
}

/**
 * The identity object's word on a token. `epoch` orders a machine's tokens (a later mint has a
 * larger one), so a revocation can say "everything before this one". `untilMs` is set for a token
 * that expires by itself (an OAuth access token, SPEC §8.1): no vouch for it outlives it.
 */
export type Vouch = { status: "current"; machineId: string; epoch: number; untilMs?: number } | { status: "replaced" | "unknown" };

/**
 * How long a field trusts a vouch without asking again. The identity object tells only the fields
 * that asked within this window (plus a margin) about a new token, so the list it keeps stays short.
 */
export const VOUCH_TTL_MS = 10 * 60_000;

/**
 * Tokens held per machine: its bearer token and the access tokens of its sign-ins (a refresh
 * brings a new one while the old one still lives), so that none of them pushes the others out.
 */
const HELD_PER_MACHINE = 4;

/** Above this many machines (or forgotten tokens), expired entries are swept before a new one is kept. */
const SWEEP_ABOVE = 4_096;

interface Held {
  tokenHash: string;
  epoch: number;
  until: number;
}

/** A field's memory of vouched tokens and of the revocations it was told about. Lost on eviction, which only costs a new vouch. */
export class VouchedTokens {
  private readonly held = new Map<string, Held[]>();
  /** Per machine: tokens with an epoch below this were replaced. */
  private readonly revokedBelow = new Map<string, number>();
  /** Tokens revoked one by one (a sign-in's grant), until they would have expired anyway. */
  private readonly forgotten = new Map<string, number>();

  /** The machine `claim` proves, when a fresh vouch for exactly this token is held. */
  lookup(claim: BearerClaim, nowMs: number): string | undefined {
    const list = this.held.get(claim.machineId);
    const held = list?.find((h) => h.tokenHash === claim.tokenHash);
    if (!list || !held) return undefined;
    if (held.until <= nowMs) {
      this.keep(claim.machineId, list.filter((h) => h !== held));
      return undefined;
    }
    return claim.machineId;
  }

  /**
   * Keeps a vouch the identity object gave for `claim`. False when a revocation at a later epoch
   * (or of this very token) was heard meanwhile: the token was replaced or revoked while the vouch
   * was on its way, and is refused.
   */
  remember(claim: BearerClaim, vouch: { machineId: string; epoch: number; untilMs?: number }, nowMs: number): boolean {
    if (vouch.machineId !== claim.machineId) return false;
    if (vouch.epoch < (this.revokedBelow.get(claim.machineId) ?? 0)) return false;
    if ((this.forgotten.get(claim.tokenHash) ?? 0) > nowMs) return false;
    const until = Math.min(nowMs + VOUCH_TTL_MS, vouch.untilMs ?? Infinity);
    if (until <= nowMs) return false;
    if (this.held.size >= SWEEP_ABOVE) this.sweep(nowMs);
    const others = (this.held.get(claim.machineId) ?? []).filter((h) => h.tokenHash !== claim.tokenHash && h.until > nowMs);
    this.held.set(claim.machineId, [...others.slice(-(HELD_PER_MACHINE - 1)), { tokenHash: claim.tokenHash, epoch: vouch.epoch, until }]);
    return true;
  }

  /** The identity object's word that `machineId` minted the token of `epoch`: every earlier one is replaced. */
  revoke(machineId: string, epoch: number): void {
    this.revokedBelow.set(machineId, Math.max(epoch, this.revokedBelow.get(machineId) ?? 0));
    const list = this.held.get(machineId);
    if (list) this.keep(machineId, list.filter((h) => h.epoch >= epoch));
  }

  /** The identity object's word that these tokens of `machineId` were revoked; none is accepted again before `untilMs`. */
  forget(machineId: string, tokenHashes: string[], untilMs: number, nowMs: number): void {
    if (this.forgotten.size >= SWEEP_ABOVE) this.sweep(nowMs);
    for (const hash of tokenHashes) this.forgotten.set(hash, Math.max(untilMs, this.forgotten.get(hash) ?? 0));
    const gone = new Set(tokenHashes);
    const list = this.held.get(machineId);
    if (list) this.keep(machineId, list.filter((h) => !gone.has(h.tokenHash)));
  }

  private keep(machineId: string, list: Held[]): void {
    if (list.length > 0) this.held.set(machineId, list);
    else this.held.delete(machineId);
  }

  private sweep(nowMs: number): void {
    for (const [machine, list] of this.held) this.keep(machine, list.filter((h) => h.until > nowMs));
    for (const [hash, until] of this.forgotten) if (until <= nowMs) this.forgotten.delete(hash);
  }
}
