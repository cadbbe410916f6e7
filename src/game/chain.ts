import { createHash } from "node:crypto";
import { canonicalJson } from "../engine/canonical-json";
import type { RefereeEvent } from "../referee/types";

/**
 * Chains one event onto the log (SPEC §9): `hash = hex(SHA-256(prev + "|" + canonical JSON of
 * the event without its hash))`, where the event carries `prev`. This is the same formula as
 * `chainEventHash` in the engine's commitments, computed synchronously (node:crypto) so that a
 * write's judge → chain → store sequence has no `await` in it: nothing can interleave, and the
 * memory state can never run ahead of storage.
 */
export function chainEvent(prev: string, event: RefereeEvent): { event: RefereeEvent & { prev: string; hash: string }; hash: string } {
  const withPrev = { ...event, prev };
  const hash = createHash("sha256").update(`${prev}|${canonicalJson(withPrev)}`, "utf8").digest("hex");
  return { event: { ...withPrev, hash }, hash };
}
