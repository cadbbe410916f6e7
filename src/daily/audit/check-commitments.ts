/** Check 1 (SPEC §9): the released seed and key match the commitments published before play. */
import { hashKeyCommit, hexToBytes, seedCommit } from "../../engine/commitments";
import type { AuditedArchive } from "./event-log";
import { mismatch } from "./mismatch";
import type { SavedManifest } from "./saved";

export async function checkCommitments(archive: AuditedArchive, manifest?: SavedManifest): Promise<string> {
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
    also = ", as in the saved manifest";
  }
  return `day_seed and day_key match seed_commit and hash_key_commit${also}`;
}
