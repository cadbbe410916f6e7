/** Agent secrets handed out by proof joins (SPEC §6): random, shown once, stored only as SHA-256. */

export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return "as_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
