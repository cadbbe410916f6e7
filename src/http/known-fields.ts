import type { Env } from "../env";
import type { FieldObject } from "../game/field-object";
import { gameExists } from "../game/registry";

/** A game id as SPEC §6 allows it. */
export const GAME_ID_RE = /^[a-zA-Z0-9_-]{1,80}$/;

/** Ids the registry confirmed recently, per Worker isolate: readers of one field need not ask it every time. */
const confirmed = new Map<string, number>();
const CONFIRMED_TTL_MS = 30_000;
const CONFIRMED_MAX = 1_000;

/**
 * The field's object when the field exists, else null — without creating anything: touching an
 * object creates its storage, so the registry is asked first (its answer kept for 30 s).
 */
export async function existingField(env: Env, gameId: string): Promise<DurableObjectStub<FieldObject> | null> {
  if (!GAME_ID_RE.test(gameId)) return null;
  const until = confirmed.get(gameId);
  if (until === undefined || until < Date.now()) {
    if (!(await gameExists(env, gameId))) {
      confirmed.delete(gameId);
      return null;
    }
    if (confirmed.size >= CONFIRMED_MAX) confirmed.clear();
    confirmed.set(gameId, Date.now() + CONFIRMED_TTL_MS);
  }
  return env.FIELDS.getByName(gameId);
}
