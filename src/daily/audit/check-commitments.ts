/** Check 1 (SPEC §9): the released seed and key match the commitments published before play. */
import { hashKeyCommit, hexToBytes, seedCommit } from "../../engine/commitments";
import type { AuditedArchive } from "./event-log";
import { canonicalJson } from "../../engine/canonical-json";
import { mismatch } from "./mismatch";
import type { SavedManifest } from "./saved";

export async function checkCommitments(archive: AuditedArchive, manifest?: SavedManifest): Promise<string> {
  // A daily field's id names its day: an archive relabelled to another day says two things.
  if (archive.game_id.startsWith("day-") && archive.game_id !== `day-${archive.day}`) {
    throw mismatch(`day is ${JSON.stringify(archive.day)} but game_id is ${archive.game_id}`, { field: "day" });
  }
  if (!/^[0-9a-f]{64}$/.test(archive.day_seed)) throw mismatch(`day_seed is not 64 lower-case hex digits`, { field: "day_seed" });
  if (!/^[0-9a-f]{64}$/.test(archive.day_key)) throw mismatch(`day_key is not 32 bytes of lower-case hex`, { field: "day_key" });
  const seed = await seedCommit(archive.day_seed);
  if (seed !== archive.seed_commit) {
    throw mismatch(`day_seed does not match seed_commit: SHA-256("mosaic-day-seed-v1|" + day_seed) is ${seed}, the archive's seed_commit is ${archive.seed_commit}`, { field: "day_seed" });
  }
  const key = await hashKeyCommit(hexToBytes(archive.day_key));
  if (key !== archive.hash_key_commit) {
    throw mismatch(`day_key does not match hash_key_commit: SHA-256(day_key) is ${key}, the archive's hash_key_commit is ${archive.hash_key_commit}`, { field: "day_key" });
  }
  let also = "";
  if (manifest) {
    if (manifest.seed_commit !== undefined && manifest.seed_commit !== archive.seed_commit) {
      throw mismatch(`seed_commit differs from the saved manifest's: archive ${archive.seed_commit}, manifest ${manifest.seed_commit}`, { field: "seed_commit" });
    }
    if (manifest.hash_key_commit !== undefined && manifest.hash_key_commit !== archive.hash_key_commit) {
      throw mismatch(`hash_key_commit differs from the saved manifest's: archive ${archive.hash_key_commit}, manifest ${manifest.hash_key_commit}`, { field: "hash_key_commit" });
    }
    // What the manifest published before play fixes besides the commitments: the field, its day and its rules.
    for (const [name, saved, archived] of [
      ["game_id", manifest.game_id, archive.game_id],
      ["day", manifest.day, archive.day],
      ["params.rules", manifest.rules === undefined ? undefined : canonicalJson(manifest.rules), canonicalJson(archive.params.rules)],
    ] as const) {
      if (saved !== undefined && saved !== archived) throw mismatch(`${name} is ${archived} in the archive, the saved manifest says ${saved}`, { field: name });
    }
    also = ", as in the saved manifest (and its game_id, day and rules)";
  }
  return `day_seed and day_key match seed_commit and hash_key_commit${also}`;
}
