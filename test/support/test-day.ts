/**
 * A small real day for the auditor's tests: a 2×2 field of 40-cell chunks on a 200 canvas that
 * grows one ring, four machines (one careless enough to die), commits with wrong cells,
 * duplicates and known cells, retracts, a close — archived with the real writer. Plus what an
 * attacker would do after the release: re-sign tiles and re-chain events with the published key.
 */
import { canonicalJson } from "../../src/engine/canonical-json";
import { hexToBytes, sha256Hex } from "../../src/engine/commitments";
import type { Archive, ArchiveEvent, ArchiveParams } from "../../src/daily/archive/format";
import { archiveText } from "../../src/daily/archive/writer";
import { archiveTileEncoding } from "../../src/daily/audit/check-hashes";
import { hmacSha256Hex } from "../../src/engine/commitments";
import { generateField, generateRing } from "../../src/engine";
import { syntheticDay, type FieldSource, type SyntheticDay } from "./synthetic-day";

export const TEST_PARAMS: ArchiveParams = {
  kind: "field",
  chunks: 2,
  chunk_g: 40,
  G: 200,
  grow: true,
  rules: { guess: "accept", depth: 0, fog: true },
  growth: { every_minutes: 30, frontier_coverage: 0.5 },
};

export interface TestDay {
  day: SyntheticDay;
  /** The archive's JSON text as the writer wrote it. */
  text: string;
}

export async function buildTestDay(options: { params?: ArchiveParams; maxWrites?: number; machines?: number; playSeed?: string; fields?: FieldSource } = {}): Promise<TestDay> {
  const day = await syntheticDay({
    gameId: "day-2031-01-01",
    daySeed: "5eed".repeat(16),
    dayKey: new Uint8Array(32).map((_, i) => (i * 37 + 11) & 255),
    params: options.params ?? TEST_PARAMS,
    machines: options.machines ?? 4,
    maxWrites: options.maxWrites ?? 1200,
    batch: [1, 16],
    playSeed: options.playSeed,
    fields: options.fields,
  });
  return { day, text: archiveText(await day.archiveSource()) };
}

/** A deep copy to tamper with. */
export function copy(archive: Archive): Archive {
  return structuredClone(archive);
}

/** Recomputes every event's `prev`/`hash` from index `from` on, and the head (an attacker's edit). */
export async function rechain(archive: Archive, from = 0): Promise<void> {
  let prev = from === 0 ? archive.seed_commit : archive.events[from - 1].hash;
  for (let i = from; i < archive.events.length; i++) {
    const { hash: _old, ...rest } = archive.events[i];
    const e = { ...rest, prev } as Omit<ArchiveEvent, "hash">;
    const hash = await sha256Hex(`${prev}|${canonicalJson(e)}`);
    archive.events[i] = { ...e, hash } as ArchiveEvent;
    prev = hash;
  }
  const last = archive.events[archive.events.length - 1];
  archive.log_head = { hash: last.hash, rev: last.rev };
}

/** Re-signs a tile's hash with the released key (an attacker's edit after the release). */
export async function resign(archive: Archive, tileId: number): Promise<void> {
  const t = archive.tiles[tileId];
  t.hash = await hmacSha256Hex(hexToBytes(archive.day_key), archiveTileEncoding(archive.game_id, t));
}

/**
 * A field from another seed, played as if it were the day's: what a server that cherry-picked its
 * field (and then committed, hashed, chained and judged honestly) would publish. Only the
 * regeneration can tell.
 */
export function fieldsOfSeed(seed: string): FieldSource {
  return {
    initial: (params) => generateField({ ...params, seed }),
    ring: (params, ring, field) => generateRing(seed, { ...params, seed }, ring, field),
  };
}
