import { chainEventHash, hashKeyCommit, hexToBytes, seedCommit, tileHash } from "../../engine/commitments";

/** The parts of a `mosaic-archive-v1` document (SPEC §9) that the page checks. */
export interface ArchiveForCheck {
  format: string;
  game_id: string;
  seed_commit: string;
  hash_key_commit: string;
  day_seed: string;
  day_key: string;
  tiles: Array<{ id: number; x0: number; y0: number; w: number; h: number; rects: Array<[number, number, number, number]>; solution: string; givens: string; hash: string }>;
  events: Array<{ rev: number; prev: string; hash: string; [k: string]: unknown }>;
  log_head: { hash: string; rev: number };
}

export interface CheckResult {
  ok: boolean;
  /** What does not match, first ones first (a few at most). */
  problems: string[];
  events: number;
  tiles: number;
}

const MAX_PROBLEMS = 6;
const BATCH = 256;

/**
 * Checks an archive in the browser with WebCrypto, as an auditor would (SPEC §9 steps 1, 3, 4):
 * both commitments against the released seed and key, every event's link and hash from
 * `seed_commit` to `log_head`, and every tile's HMAC. (Regenerating the field and re-judging the
 * log is the auditor command's job.) Reports progress as it goes.
 */
export async function checkArchive(a: ArchiveForCheck, progress: (stage: string, done: number, total: number) => void): Promise<CheckResult> {
  const problems: string[] = [];
  const problem = (p: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  if (a.format !== "mosaic-archive-v1") problem(`unknown format ${String(a.format)}`);

  progress("commitments", 0, 2);
  if ((await seedCommit(a.day_seed)) !== a.seed_commit) problem("seed_commit does not match the released day_seed");
  let key: Uint8Array | null = null;
  try {
    key = hexToBytes(a.day_key);
    if ((await hashKeyCommit(key)) !== a.hash_key_commit) problem("hash_key_commit does not match the released day_key");
  } catch {
    problem("day_key is not hex");
  }

  const events = a.events;
  let prev = a.seed_commit;
  for (let i = 0; i < events.length; i += BATCH) {
    progress("hash chain", i, events.length);
    const batch = events.slice(i, i + BATCH);
    const hashes = await Promise.all(
      batch.map((e) => {
        const { hash: _hash, ...rest } = e;
        return chainEventHash(e.prev, rest);
      }),
    );
    for (let k = 0; k < batch.length; k++) {
      const e = batch[k];
      if (e.rev !== i + k + 1) problem(`event ${i + k + 1} has rev ${e.rev}`);
      if (e.prev !== prev) problem(`event rev ${e.rev}: prev does not link to the event before it`);
      if (hashes[k] !== e.hash) problem(`event rev ${e.rev}: its hash does not match its content`);
      prev = e.hash;
    }
  }
  const last = events[events.length - 1];
  if (!last || a.log_head.rev !== last.rev || a.log_head.hash !== last.hash) problem("log_head is not the last event of the chain");

  if (key) {
    const k = key;
    for (let i = 0; i < a.tiles.length; i += BATCH) {
      progress("tile hashes", i, a.tiles.length);
      const batch = a.tiles.slice(i, i + BATCH);
      const hashes = await Promise.all(batch.map((t) => tileHash(k, tileEncoding(a.game_id, t))));
      for (let j = 0; j < batch.length; j++) if (hashes[j] !== batch[j].hash) problem(`tile ${batch[j].id}: its hash does not match its geometry, solution and givens`);
    }
  }
  progress("done", 1, 1);
  return { ok: problems.length === 0, problems, events: events.length, tiles: a.tiles.length };
}

/** mosaic-tile-v1 (SPEC §9) from an archived tile's own fields. */
function tileEncoding(gameId: string, t: ArchiveForCheck["tiles"][number]): string {
  const rects = t.rects.map((r) => r.join(",")).join(";");
  return `mosaic-tile-v1|${gameId}|${t.id}|${t.x0},${t.y0},${t.w},${t.h}|${rects}|${t.solution}|${t.givens}`;
}
