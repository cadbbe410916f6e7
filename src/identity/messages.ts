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

/** Signed to approve a sign-in from a hosted client (SPEC §8.1): `mosaic-oauth-approve:<host>:<request id>:<ts>`. */
export function oauthApproveMessage(host: string, requestId: string, ts: number): string {
  return `mosaic-oauth-approve:${host}:${requestId}:${ts}`;
}

/** Signed to list the machine's sign-in grants: `mosaic-oauth-grants:<host>:<ts>`. */
export function oauthGrantsMessage(host: string, ts: number): string {
  return `mosaic-oauth-grants:${host}:${ts}`;
}

/** Signed to revoke one grant: `mosaic-oauth-revoke:<host>:<ts>:<grant id>`. */
export function oauthRevokeMessage(host: string, ts: number, grantId: string): string {
  return `mosaic-oauth-revoke:${host}:${ts}:${grantId}`;
}

/** Seconds a signed key request stays valid either side of the server's clock. */
export const TS_WINDOW_SECONDS = 300;

/** The refusal of a join proof already spent: the join and the proof check word it alike. */
export const SPENT_PROOF_MESSAGE =
  "replayed proof: this join proof was already used; sign a new one (a proof for the same game, key, minute and session is always the same, so sign for the next minute or use another session)";
