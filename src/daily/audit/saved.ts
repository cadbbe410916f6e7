import { isRecord } from "../../referee/validate";

/**
 * What a watcher saved while the day ran (SPEC §9): heads noted as `HASH@REV`, the manifest
 * (`GET /api/games/:id`) and the tile hashes (`GET /api/games/:id/hashes`). Parsed leniently as
 * to wrapping (the bare answer or the answer under a key), strictly as to content.
 */

export interface NotedHead {
  hash: string;
  rev: number;
  /** Where it came from, for messages ("--head", "the saved manifest"). */
  from: string;
}

export interface SavedManifest {
  seed_commit?: string;
  hash_key_commit?: string;
  log_head?: { hash: string; rev: number };
  G?: number;
  tiles_total?: number;
  rings?: number;
  params?: Record<string, unknown>;
  /** The rules as published before play (the manifest keeps them beside `params`; the archive inside). */
  rules?: Record<string, unknown>;
  day?: string;
  game_id?: string;
}

export interface SavedInputs {
  heads?: NotedHead[];
  manifest?: SavedManifest;
  /** Tile id → hash, as published live. */
  hashes?: Map<number, string>;
  /** The game the saved hashes answer names (`game_id`), when it names one. */
  hashesGameId?: string;
}

/** `HASH@REV` → a head; throws a message on bad syntax. */
export function parseHead(text: string, from = "--head"): NotedHead {
  const m = /^([0-9a-fA-F]{64})@(\d{1,15})$/.exec(text.trim());
  if (!m) throw new Error(`${from} ${JSON.stringify(text)}: expected HASH@REV (64 hex digits, @, a revision)`);
  return { hash: m[1].toLowerCase(), rev: Number(m[2]), from };
}

/** A manifest as served (possibly under `manifest`); `log_head` may say `rev` or `revision`. */
export function parseManifest(doc: unknown): SavedManifest {
  const m = isRecord(doc) && isRecord(doc.manifest) ? doc.manifest : doc;
  if (!isRecord(m)) throw new Error("the saved manifest is not a JSON object");
  const out: SavedManifest = {};
  if (typeof m.seed_commit === "string") out.seed_commit = m.seed_commit;
  if (typeof m.hash_key_commit === "string") out.hash_key_commit = m.hash_key_commit;
  if (out.seed_commit === undefined && out.hash_key_commit === undefined) throw new Error("the saved manifest has neither seed_commit nor hash_key_commit");
  const head = m.log_head;
  if (isRecord(head)) {
    const rev = head.rev ?? head.revision;
    if (typeof head.hash !== "string" || typeof rev !== "number") throw new Error("the saved manifest's log_head is not {hash, rev}");
    out.log_head = { hash: head.hash, rev };
  }
  if (typeof m.G === "number") out.G = m.G;
  // Saved at the opening, while the field was still being generated, it counts no tiles yet: no count to hold the archive to.
  if (typeof m.tiles_total === "number" && m.status !== "generating") out.tiles_total = m.tiles_total;
  const rings = m.rings ?? m.grown;
  if (typeof rings === "number") out.rings = rings;
  if (isRecord(m.params)) out.params = m.params;
  const rules = isRecord(m.rules) ? m.rules : isRecord(m.params) && isRecord(m.params.rules) ? m.params.rules : undefined;
  if (rules) out.rules = rules;
  if (typeof m.day === "string") out.day = m.day;
  if (typeof m.game_id === "string") out.game_id = m.game_id;
  return out;
}

/** The hashes answer: `[{id, hash}]`, or that list under `hashes` or `tiles`. */
export function parseHashes(doc: unknown): Map<number, string> {
  const list = Array.isArray(doc) ? doc : isRecord(doc) ? (doc.hashes ?? doc.tiles) : undefined;
  if (!Array.isArray(list)) throw new Error("the saved hashes are not a list of {id, hash} (nor one under 'hashes')");
  const out = new Map<number, string>();
  list.forEach((row: unknown, i: number) => {
    if (!isRecord(row) || !Number.isSafeInteger(row.id) || typeof row.hash !== "string") throw new Error(`saved hashes[${i}] is not {id, hash}`);
    out.set(row.id as number, row.hash);
  });
  return out;
}

/** The game a saved hashes answer names (the route answers `{game_id, tiles_total, hashes}`), if any. */
export function hashesGameId(doc: unknown): string | undefined {
  return isRecord(doc) && typeof doc.game_id === "string" ? doc.game_id : undefined;
}
