import { createFieldGenerator, type FieldParams } from "../engine";
import { seedCommit } from "../engine/commitments";
import type { Field } from "../engine/types";
import { Referee } from "../referee";
import type { FieldContext } from "./field-context";
import { errorMessage, fail, type CreateArgs, type FieldShape, type Outcome } from "./field-types";
import { canGrow, growOnce, growthDue } from "./field-growth";
import { forgetMemory, refereeBase } from "./field-restore";
import { nextTimer, type GrowPolicy } from "./growth";
import { forgetGame } from "./registry";
import { storedStatus } from "./status-gate";
import { drawHashKey, hashesOf } from "./tile-hashes";

/**
 * A field's life outside play: creation, generation on the alarm, expiry of fields nobody joined,
 * and the one alarm that schedules all of it (and growth).
 */

/** Games nobody joins are removed this long after creation (SPEC §6). */
export const EXPIRY_MS = 30 * 60_000;

/** Registers a new field and schedules its generation; answers at once. */
export async function create(f: FieldContext, args: CreateArgs): Promise<Outcome<{ game_id: string; status: "generating"; G: number }>> {
  if (f.store.getMeta<string>("game_id") !== undefined) return fail("bad_input", `game ${args.gameId} already exists`);
  const commit = await seedCommit(args.seed);
  const key = await drawHashKey();
  if (f.store.getMeta<string>("game_id") !== undefined) return fail("bad_input", `game ${args.gameId} already exists`);
  const now = Date.now();
  f.ctx.storage.transactionSync(() => {
    // The tables come into being with the game (reads of unknown game_ids store nothing).
    f.store.migrate();
    f.store.setMeta("game_id", args.gameId);
    f.store.setMeta("params", args.params);
    f.store.setMeta("rules", args.rules);
    if (args.grow) f.store.setMeta("grow_policy", args.grow);
    f.store.setMeta("seed", args.seed);
    f.store.setMeta("seed_commit", commit);
    // The tile hashes' secret key (released with the archive) and its public commitment.
    f.store.setMeta("day_key", key.key);
    f.store.setMeta("hash_key_commit", key.commit);
    f.store.setMeta("created", now);
    if (args.day) {
      f.store.setMeta("day", args.day.date);
      if (args.day.closesAt !== null) f.store.setMeta("closes_at", args.day.closesAt);
    } else f.store.setMeta("expires_at", now + EXPIRY_MS);
    f.store.setMeta("G", args.G);
    f.store.setMeta("status", "generating");
  });
  f.head = { hash: commit, rev: 0 };
  await f.ctx.storage.setAlarm(now);
  await f.registry.now();
  return { ok: true, answer: { game_id: args.gameId, status: "generating", G: args.G } };
}

/**
 * One alarm serves every schedule (at-least-once, so each branch is idempotent): generation,
 * expiry of unjoined fields, and growth. It re-arms itself for the earliest next duty.
 */
export async function runAlarm(f: FieldContext): Promise<void> {
  const status = storedStatus(f);
  if (status === "missing") return;
  if (status === "generating") {
    f.generation ??= generate(f).finally(() => (f.generation = null));
    await f.generation;
  } else {
    if (await expireIfIdle(f)) return;
    if (growthDue(f)) await growOnce(f);
  }
  await armAlarm(f);
}

/** Sets the alarm for the earliest pending duty, or clears it. */
async function armAlarm(f: FieldContext): Promise<void> {
  const status = storedStatus(f);
  if (status === "missing") return;
  const now = Date.now();
  const times: number[] = [];
  if (status === "generating") times.push(now);
  const expiresAt = f.store.getMeta<number>("expires_at");
  if (status !== "generating" && expiresAt !== undefined && f.store.agentCount() === 0) times.push(expiresAt);
  // The daily field closes itself when its day ends (the cron is the backstop).
  const closesAt = f.store.getMeta<number>("closes_at");
  if (closesAt !== undefined && status === "playing" && f.store.getMeta("archive") === undefined) times.push(closesAt);
  if (canGrow(f)) {
    if (growthDue(f)) times.push(now);
    const next = f.store.getMeta<number>("next_grow_at");
    if (next !== undefined) times.push(next);
  }
  if (times.length > 0) await f.ctx.storage.setAlarm(Math.min(...times));
  else await f.ctx.storage.deleteAlarm();
}

/**
 * Generates the field. Idempotent: nothing is stored until the whole field is ready, and then
 * in one transaction that replaces anything a previous (interrupted) attempt left.
 */
async function generate(f: FieldContext): Promise<void> {
  const params: FieldParams = { ...f.store.getMeta<FieldShape>("params")!, seed: f.store.getMeta<string>("seed")! };
  let field: Field;
  let referee: Referee;
  let hashes: string[] | null;
  try {
    const generator = createFieldGenerator(params);
    f.progress = generator.progress();
    while (!(await generator.step())) {
      f.progress = generator.progress();
      // A macrotask yield: lets queued requests (observe: "generating") run between steps.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    field = generator.result();
    referee = new Referee({ ...refereeBase(f), field });
    hashes = await hashesOf(f, field.tiles, field.solution, field.G);
  } catch (err) {
    if (storedStatus(f) !== "generating") return;
    f.ctx.storage.transactionSync(() => {
      f.store.setMeta("status", "failed");
      f.store.setMeta("failure", `generation failed: ${errorMessage(err)}`);
    });
    await f.registry.now();
    return;
  }
  if (storedStatus(f) !== "generating") return;
  const policy = f.store.getMeta<GrowPolicy>("grow_policy");
  const now = Date.now();
  f.ctx.storage.transactionSync(() => {
    f.store.saveField(field, hashes);
    f.store.setMeta("G", field.G);
    f.store.setMeta("tiles_total", field.tiles.length);
    f.store.setMeta("initial_tiles", field.tiles.length);
    f.store.setMeta("generated_at", now);
    const next = policy ? nextTimer(policy, now) : undefined;
    if (next !== undefined) f.store.setMeta("next_grow_at", next);
    f.store.setMeta("status", "playing");
  });
  f.referee = referee;
  f.field = field;
  f.hashes = hashes ?? [];
  f.revealed = 0;
  await f.registry.now();
}

/** A field nobody joined within EXPIRY_MS is deleted and leaves the registry (never a daily field). True when it did. */
async function expireIfIdle(f: FieldContext): Promise<boolean> {
  const expiresAt = f.store.getMeta<number>("expires_at");
  if (expiresAt === undefined || f.store.agentCount() > 0) return false;
  if (Date.now() < expiresAt) return false;
  const gameId = f.store.getMeta<string>("game_id");
  await f.ctx.storage.deleteAll();
  f.store.forget();
  forgetMemory(f);
  if (gameId) await forgetGame(f.env, gameId);
  return true;
}
