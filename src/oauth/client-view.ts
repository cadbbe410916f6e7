// Who asks for a sign-in, said truthfully (SPEC §8.1) in one place for the consent page, the
// public description the key-file CLI reads, and grant lists: a metadata-document client by the
// host that served its document (Mosaic fetched it there); a registered client as unverified,
// with the host it returns to as its own claim (anyone may register any name and callback).
import type { SignInRecord } from "../identity/oauth-store";
import { shownName } from "../text/display-name";

export type SignInClient = SignInRecord["client"];

/** The public description of a client: what a person approving may rely on, and what is only claimed. */
export interface ClientView {
  kind: SignInClient["kind"];
  /** True only for a metadata document's host: Mosaic fetched the document there. */
  verified: boolean;
  /** The metadata document's host; null for a registered client (it has none). */
  host: string | null;
  /** The host the client's redirect URI names: where the browser goes back with the code. */
  redirect_host: string;
  /** Its self-declared name, cleaned and cut (never to be trusted). */
  name: string | null;
  /** One line saying who asks, as the page and the CLI say it. */
  summary: string;
}

export function clientView(c: SignInClient): ClientView {
  const name = shownName(c.name);
  const said = name ? `; it calls itself "${name}" (self-declared, not verified)` : "";
  if (c.kind === "metadata-document") {
    return { kind: c.kind, verified: true, host: c.host, redirect_host: c.redirectHost, name, summary: `${c.host} (its metadata document's host)${said}` };
  }
  return { kind: c.kind, verified: false, host: null, redirect_host: c.redirectHost, name, summary: `an unverified client registered here, which says it returns to ${c.redirectHost}${said}` };
}

/** A stored client description with its name cleaned for display (grant lists). */
export function shownClient(c: SignInClient): SignInClient {
  return { ...c, name: shownName(c.name) };
}
