/**
 * Check 4 (SPEC §9): the event log is one hash chain from `seed_commit` to `log_head`; revisions
 * rise by one from 1; exactly one `close`, the last event; every head noted during the day (and
 * the saved manifest's) lies on the chain.
 */
import { canonicalJson } from "../../engine/canonical-json";
import { webCryptoHashing, type Hashing } from "./hashing";
import { Breather } from "./abort";
import { growEvents, type AuditedArchive } from "./event-log";
import type { ArchiveEvent } from "../archive/format";
import { mismatch, type Progress } from "./mismatch";
import type { NotedHead, SavedManifest } from "./saved";
import { counted } from "../../text/wording";

const CHAIN_BATCH = 256;

export async function checkChain(
  archive: AuditedArchive,
  heads: NotedHead[] = [],
  manifest?: SavedManifest,
  progress?: Progress,
  hashing: Hashing = webCryptoHashing,
  signal?: AbortSignal,
): Promise<string> {
  const events = archive.events;
  const breather = new Breather(signal);
  if (events.length === 0) throw mismatch("the log is empty: a closed day ends with a close event", { field: "events" });
  let prev = archive.seed_commit;
  // Hashes are computed a batch at a time (WebCrypto may spread them over threads); every check
  // then runs in log order, so the first mismatch reported is the first in the log.
  for (let start = 0; start < events.length; start += CHAIN_BATCH) {
    const batch: Array<{ e: ArchiveEvent; text: string | null; error: string }> = [];
    for (let i = start; i < Math.min(events.length, start + CHAIN_BATCH); i++) {
      const e = events.at(i)!;
      const { hash: _hash, ...rest } = e;
      try {
        batch.push({ e, text: canonicalJson(rest), error: "" });
      } catch (err) {
        batch.push({ e, text: null, error: err instanceof Error ? err.message : String(err) });
      }
    }
    const digests = await Promise.all(batch.map((b) => (b.text === null ? null : hashing.sha256Hex(`${b.e.prev}|${b.text}`))));
    for (let k = 0; k < batch.length; k++) {
      const { e, error } = batch[k];
      const rev = start + k + 1;
      if (e.rev !== rev) throw mismatch(`event ${rev}: its rev is ${e.rev} (events dropped, repeated or reordered?)`, { rev, field: "rev" });
      if (e.prev !== prev) {
        throw mismatch(`event ${rev}: prev is ${e.prev}, the previous event's hash is ${prev}${rev === 1 ? " (seed_commit)" : ""}`, { rev, field: "prev" });
      }
      const computed = digests[k];
      if (computed === null) throw mismatch(`event ${rev}: not canonical JSON data (${error})`, { rev, field: "event" });
      if (computed !== e.hash) throw mismatch(`event ${rev} (${e.type}): hash differs: SHA-256(prev|event) is ${computed}, the archive says ${e.hash} (the event was edited)`, { rev, field: "hash" });
      if (e.type === "close" && rev !== events.length) throw mismatch(`event ${rev}: a close before the end of the log (${events.length} events)`, { rev, field: "type" });
      prev = e.hash;
    }
    progress?.("chain", start + batch.length, events.length);
    await breather.tick();
  }
  progress?.("chain", events.length, events.length);
  const last = events.at(events.length - 1)!;
  if (last.type !== "close") throw mismatch(`event ${last.rev}: the last event is a ${last.type}, not the close (truncated log?)`, { rev: last.rev, field: "type" });
  if (archive.log_head.rev !== last.rev || archive.log_head.hash !== last.hash) {
    throw mismatch(`log_head ${archive.log_head.hash}@${archive.log_head.rev} is not the last event ${last.hash}@${last.rev}`, { rev: archive.log_head.rev, field: "log_head" });
  }
  const grows = growEvents(events).length;
  if (grows !== archive.rings) throw mismatch(`rings is ${archive.rings} but the log has ${grows} grow events`, { field: "rings" });

  const noted = [...heads];
  if (manifest?.log_head) noted.push({ ...manifest.log_head, from: "the saved manifest's log_head" });
  for (const h of noted) {
    const onChain = h.rev === 0 ? archive.seed_commit : h.rev <= events.length ? events.at(h.rev - 1)?.hash : undefined;
    if (onChain === undefined) throw mismatch(`${h.from} ${h.hash}@${h.rev} is beyond the archived log (${events.length} events)`, { rev: h.rev, field: "head" });
    if (onChain !== h.hash) {
      throw mismatch(`${h.from} ${h.hash}@${h.rev} is not on the archived chain: its event ${h.rev} has hash ${onChain}`, { rev: h.rev, field: "head" });
    }
  }
  if (manifest?.log_head) checkManifestAt(archive, manifest, manifest.log_head.rev);
  const heads1 = noted.length === 0 ? "" : `; ${counted(noted.length, "noted head")} on it`;
  return `${events.length} events chained from seed_commit to ${last.hash.slice(0, 12)}…@${last.rev}, one close at the end${heads1}`;
}

/** The saved manifest's counts agree with the archive at its head's revision. */
function checkManifestAt(archive: AuditedArchive, manifest: SavedManifest, rev: number): void {
  if (manifest.G !== undefined && manifest.G !== archive.G) throw mismatch(`G is ${archive.G}, the saved manifest says ${manifest.G}`, { field: "G" });
  let tiles = archive.tiles.length;
  let rings = 0;
  const grows = growEvents(archive.events);
  if (grows.length > 0) tiles = grows[0].first_tile as number;
  for (const g of grows) {
    if (g.rev > rev) break;
    tiles += g.tiles as number;
    rings++;
  }
  if (manifest.tiles_total !== undefined && manifest.tiles_total !== tiles) {
    throw mismatch(`the saved manifest (at revision ${rev}) counts ${manifest.tiles_total} tiles, the archive had ${tiles} then`, { rev, field: "tiles_total" });
  }
  if (manifest.rings !== undefined && manifest.rings !== rings) {
    throw mismatch(`the saved manifest (at revision ${rev}) counts ${manifest.rings} rings, the archive had ${rings} then`, { rev, field: "rings" });
  }
  if (manifest.params) {
    // The parameters that decide the field and its verdicts (other keys may be shaped differently).
    for (const key of ["kind", "G", "n", "chunks", "chunk_g", "rules"]) {
      const mine = (archive.params as unknown as Record<string, unknown>)[key];
      const value = manifest.params[key];
      if (mine !== undefined && value !== undefined && JSON.stringify(sorted(mine)) !== JSON.stringify(sorted(value))) {
        throw mismatch(`params.${key} is ${JSON.stringify(mine)}, the saved manifest says ${JSON.stringify(value)}`, { field: `params.${key}` });
      }
    }
  }
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v === "object" && v !== null) {
    const r = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(r).sort().map((k) => [k, sorted(r[k])]));
  }
  return v;
}
