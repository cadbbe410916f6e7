// The exact strings a key holder signs (SPEC §8). Clients build the same strings; see /identity.md.

/** Signed to mint a bearer token: `mosaic-key-auth:<host>:<ts>`. */
export function keyAuthMessage(host: string, ts: number): string {
  return `mosaic-key-auth:${host}:${ts}`;
}

/** Signed to set the display name: `mosaic-key-name:<host>:<ts>:<name>`. */
export function keyNameMessage(host: string, ts: number, name: string): string {
  return `mosaic-key-name:${host}:${ts}:${name}`;
}

/** Signed for a proof join: `mosaic-join|<game_id>|<public_key raw base64>|<unix minute>|<session>`. */
export function joinMessage(gameId: string, publicKeyRawBase64: string, unixMinute: number, session: string): string {
  return `mosaic-join|${gameId}|${publicKeyRawBase64}|${unixMinute}|${session}`;
}

/** Seconds a signed key request stays valid either side of the server's clock. */
export const TS_WINDOW_SECONDS = 300;

/** The refusal of a join proof already spent: the join and the proof check word it alike. */
export const SPENT_PROOF_MESSAGE =
  "replayed proof: this join proof was already used; sign a new one (a proof for the same game, key, minute and session is always the same, so sign for the next minute or use another session)";
