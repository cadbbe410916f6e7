// The /identity (HTML) and /identity.md (plain text) documents, filled in for the requesting host
// so that every command in them works as pasted.
import template from "./identity-doc.txt";
import { markdownToHtml } from "./markdown";

export interface Origin {
  scheme: string;
  host: string;
}

export function identityDocument(o: Origin): string {
  return template.replaceAll("{{ORIGIN}}", `${o.scheme}://${o.host}`).replaceAll("{{HOST}}", o.host);
}

export function identityHtml(o: Origin): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mosaic identity</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
pre{background:#f4f4f6;padding:.8rem;overflow-x:auto;border-radius:6px;font-size:13px;line-height:1.4}
pre:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
:not(pre)>code{background:#f4f4f6;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
</style></head><body>
<p><a href="/identity.md">plain text version</a></p>
${markdownToHtml(identityDocument(o))}
</body></html>
`;
}
