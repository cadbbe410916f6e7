// The Content-Security-Policy of every HTML page of the site (SPEC §8.1): none may be framed by
// another site (`frame-ancestors 'none'`, so no page can be dressed up for clickjacking), and each
// runs only what it ships. The spectator's static pages get theirs from `public/_headers` (served
// before the Worker); every HTML answer of the Worker gets one here unless its route set its own
// (the consent page's is stricter).
import { JOIN_SCRIPT } from "../identity/account-page-script";
import { toBase64 } from "../text/encoding";

/**
 * The spectator site (public/_headers says the same, checked by a test): its module script, its
 * stylesheet (scripts set styles through the CSSOM, which CSP leaves alone), the audit's Web
 * Workers, the live feed's WebSocket and the API on its own origin, blob: and data: images.
 */
export const SITE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The inline scripts the Worker's own pages carry, by content: the account page's join form. */
const INLINE_SCRIPTS = [JOIN_SCRIPT];

async function scriptHash(tag: string): Promise<string> {
  const body = tag.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, "");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return `'sha256-${toBase64(new Uint8Array(digest))}'`;
}

let pageCsp: Promise<string> | undefined;

/**
 * The policy of the Worker's own pages (/identity, /account/<id>, the site's fallback): the site's,
 * plus their inline `<style>` and, by hash, their inline scripts.
 */
export function workerPageCsp(): Promise<string> {
  pageCsp ??= Promise.all(INLINE_SCRIPTS.map(scriptHash)).then((hashes) =>
    SITE_CSP.replace("script-src 'self'", `script-src 'self' ${hashes.join(" ")}`).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  );
  return pageCsp;
}
