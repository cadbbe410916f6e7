import { dateOfGame } from "./day-dates";

/** The archives in R2 (SPEC §9 "After the close"): names, listing, one archive's object. */

/** `day-YYYY-MM-DD.json.gz` → its game id, or null for any other name. */
export function gameOfArchiveName(name: string): string | null {
  if (!name.endsWith(".json.gz")) return null;
  const gameId = name.slice(0, -".json.gz".length);
  return dateOfGame(gameId) === null ? null : gameId;
}

export interface ArchiveListing {
  day: string;
  game_id: string;
  url: string;
  bytes: number;
  log_head: { hash: string; rev: number };
}

/**
 * Every archive, newest day first. Each `url` is relative to the server, like the manifest's
 * `archive.url`: the listing is cached publicly, so it must not echo the request's Host.
 */
export async function listArchives(bucket: R2Bucket): Promise<ArchiveListing[]> {
  const out: ArchiveListing[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: "day-", include: ["customMetadata"], ...(cursor ? { cursor } : {}) });
    for (const obj of page.objects) {
      const gameId = gameOfArchiveName(obj.key);
      if (gameId === null) continue;
      const meta = obj.customMetadata ?? {};
      out.push({
        day: dateOfGame(gameId)!,
        game_id: gameId,
        url: `/api/archives/${obj.key}`,
        bytes: obj.size,
        log_head: { hash: meta.log_head_hash ?? "", rev: Number(meta.log_head_rev ?? 0) },
      });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
}
