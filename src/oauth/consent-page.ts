// The consent page of a sign-in (SPEC §8.1): who asks, what it may do, and the three ways to
// approve as a machine. Served whole by the Worker with its script from the site's own bundle
// (/app/signin.js): no request leaves this origin. Every client-supplied string is escaped.
import { escapeHtml } from "../identity/markdown";
import type { SignInRecord } from "../identity/oauth-store";
import { shownName } from "../text/display-name";
import { showRequestId } from "./signin-requests";

export interface ConsentView {
  record: SignInRecord;
  origin: string;
  /** The page's secret: only the page holding it learns the sign-in's outcome and its redirect. */
  secret: string;
  /** Where "Cancel" goes: the client's redirect URI with `error=access_denied`. */
  denyUrl: string;
}

/** Content-Security-Policy of the page: its own script and style only, and calls to its own origin. */
export const CONSENT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

export function consentHtml(v: ConsentView): string {
  const { record: r } = v;
  const code = showRequestId(r.id);
  const who =
    r.client.kind === "metadata-document"
      ? `<strong>${escapeHtml(r.client.host)}</strong> <span class="muted">(its metadata document's host)</span>`
      : `An <strong>unverified</strong> client, which <strong>says it returns to ${escapeHtml(r.client.redirectHost)}</strong> <span class="muted">(a client registered here, sending you back to ${escapeHtml(r.client.redirectHost)}: anyone can register one under any name and address)</span>`;
  // Cleaned again at display: records stored before names were cleaned at registration.
  const name = shownName(r.client.name);
  const named = name ? `<p class="muted">It calls itself “${escapeHtml(name)}” (self-declared, not verified).</p>` : "";
  const command = `npm run identity -- approve ${code} ${v.origin}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sign in to Mosaic</title>
<style>
*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:38rem;margin:0 auto;padding:1.2rem 1rem 3rem}h1{font-size:1.4rem;margin:.2rem 0 .8rem}
section{background:#fff;border:1px solid #ddd;border-radius:10px;padding:1rem;margin:1rem 0}
h2{font-size:1.05rem;margin:0 0 .5rem}.muted{color:#666;font-size:.92rem}
button{font:inherit;padding:.55rem 1rem;border-radius:8px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;min-height:44px}
button.secondary{background:#fff;color:#1d4ed8}button:disabled{opacity:.5;cursor:default}
input[type=text],input[type=password]{font:inherit;width:100%;padding:.5rem;border:1px solid #bbb;border-radius:8px;min-height:44px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}pre{background:#f4f4f6;padding:.6rem;border-radius:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.code{font-size:1.6rem;letter-spacing:.12em;font-weight:600}label{display:block;margin:.5rem 0}
#status{min-height:1.5em;font-weight:600}#status.error{color:#b91c1c}.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
a{color:#1d4ed8}
</style></head>
<body data-request="${escapeHtml(r.id)}" data-origin="${escapeHtml(v.origin)}" data-secret="${escapeHtml(v.secret)}">
<main>
<h1>Sign in to Mosaic</h1>
<p>${who} asks to <strong>play Mosaic as one of your machines</strong>: join fields, reveal tiles and commit cells under that machine's name, until you revoke it.</p>
${named}
<p class="muted">Sign-in code <span class="code" id="code">${escapeHtml(code)}</span> · expires in 10 minutes</p>
<p id="status" role="status" aria-live="polite"></p>

<section id="way-browser">
<h2>1 · This browser's key</h2>
<p class="muted" id="browser-key-state">Looking for a key kept in this browser…</p>
<label id="downloadable-label" hidden><input type="checkbox" id="downloadable"> Let me download it as <code>identity.json</code> (for the CLI and the reference agent; otherwise it can never leave this browser)</label>
<label>Display name of the machine (optional) <input type="text" id="name" maxlength="40" autocomplete="off"></label>
<div class="row"><button id="approve-browser" disabled>Approve with this browser's key</button><button class="secondary" id="download" hidden>Download identity.json</button></div>
</section>

<section id="way-file">
<h2>2 · My key file</h2>
<p>Run this where your <code>identity.json</code> is; it shows who asks and asks you to confirm, and this page continues by itself. Approve only a sign-in you started yourself, never a code someone sent you.</p>
<pre id="command">${escapeHtml(command)}</pre>
</section>

<section id="way-token">
<h2>3 · A token I minted</h2>
<label>The machine's <code>msc_…</code> token <input type="password" id="token" autocomplete="off" spellcheck="false"></label>
<button id="approve-token">Approve with this token</button>
</section>

<p><a href="${escapeHtml(v.denyUrl)}" id="deny">Cancel: don't sign in</a></p>
</main>
<script type="module" src="/app/signin.js"></script>
</body></html>
`;
}

/** A sign-in that cannot go on (a bad client, an expired code), said on the page: never a redirect. */
export function signInErrorHtml(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Mosaic sign-in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:38rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/identity">How machines sign in to Mosaic</a></p></body></html>
`;
}
