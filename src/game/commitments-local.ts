// Temporary stand-in until the engine's commitments module lands; same formulas (SPEC §9).
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function seedCommit(daySeed: string): Promise<string> {
  return sha256Hex(`mosaic-day-seed-v1|${daySeed}`);
}

export async function chainEventHash(prevHash: string, eventWithoutHash: Record<string, unknown>): Promise<string> {
  return sha256Hex(`${prevHash}|${canonicalJson(eventWithoutHash)}`);
}
