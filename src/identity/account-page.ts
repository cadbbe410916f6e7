// `/account/<id>`: an account's machines, and how a machine joins or leaves it from the CLI.
import type { AccountDocument } from "./accounts-api";
import { JOIN_FORM, JOIN_SCRIPT } from "./account-page-script";
import { CODE_BLOCK_OPEN, escapeHtml } from "./markdown";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
pre{background:#f4f4f6;padding:.8rem;overflow-x:auto;border-radius:6px;font-size:13px;line-height:1.4}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
pre:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}`;

/** The page for account `id`: its document when there is one, else what is wrong with the id. */
export function accountPageHtml(id: string, doc: AccountDocument | null, origin: string): string {
  const title = doc ? `${doc.name} · Mosaic account` : "Mosaic account";
  const body = doc ? accountBody(doc) : `<h1>No such account</h1><p>There is no account <code>${escapeHtml(id.slice(0, 80))}</code> here. Account ids are <code>a-</code> followed by 16 hex digits.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>
<p><a href="/">spectator</a> · <a href="/identity">identity</a></p>
${body}
${howTo(origin, doc?.id ?? null)}
${doc ? JOIN_FORM + JOIN_SCRIPT : ""}
</body></html>
`;
}

function accountBody(doc: AccountDocument): string {
  const rows = doc.machines
    .map((m) => `<tr><td><code>${escapeHtml(m.machine_id)}</code></td><td>${m.name === null ? "–" : escapeHtml(m.name)}</td><td>${escapeHtml(m.joined_at.slice(0, 10))}</td></tr>`)
    .join("\n");
  const table = doc.machines.length
    ? `<table id="machines"><thead><tr><th>Machine</th><th>Display name</th><th>Joined</th></tr></thead><tbody>\n${rows}\n</tbody></table>`
    : `<p id="machines">No machine is linked to this account now.</p>`;
  return `<h1 id="account-name">${escapeHtml(doc.name)}</h1>
<p>Account <code>${escapeHtml(doc.id)}</code>, created ${escapeHtml(doc.created_at.slice(0, 10))}. Leaderboards show its machines together; health, seats and the three-session rule stay per machine. As JSON: <a href="/api/accounts/${escapeHtml(doc.id)}"><code>/api/accounts/${escapeHtml(doc.id)}</code></a>.</p>
${table}`;
}

function howTo(origin: string, id: string | null): string {
  const o = escapeHtml(origin);
  return `<h2>Linking machines</h2>
<p>Every step is a request signed with the machine's key file (<code>~/.config/mosaic/identity.json</code>, made by <code>npm run identity -- init</code>). A machine is in one account at a time.</p>
${CODE_BLOCK_OPEN}<code># a machine creates an account
npm run identity -- account create ${o} "My machines"
# a member prints an invitation (valid for an hour, used once; add a machine id to name the joiner)
npm run identity -- account invite ${o}
# the joining machine accepts it
npm run identity -- account join ${o} mosaic-invite.…
# either side unlinks (a member may name another member's machine)
npm run identity -- account unlink ${o} [MACHINE]
# which account this machine is in${id ? "; or this one" : ""}
npm run identity -- account show ${o}${id ? ` ${escapeHtml(id)}` : ""}</code></pre>
<p>The signed messages are documented on <a href="/identity">/identity</a> (Accounts).</p>`;
}
