// The /identity documents (filled in below).
export function identityDocument(o: { scheme: string; host: string }): string {
  return `# Mosaic identity\n\nServer: ${o.scheme}://${o.host}\n`;
}
export function identityHtml(o: { scheme: string; host: string }): string {
  return `<!doctype html><title>Mosaic identity</title><pre>${identityDocument(o)}</pre>`;
}
