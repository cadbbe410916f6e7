import type { FieldParams } from "../engine";
import type { FieldContext } from "./field-context";
import { errorMessage, type FieldShape } from "./field-types";
import { generateRingYielding, growthReason, nextTimer, type GrowPolicy, type GrowthReason } from "./growth";
import { commitEvent, recover } from "./write-path";
import { hashesOf } from "./tile-hashes";

/**
 * Growth of a growing field inside its object (SPEC §5): whether it may and should grow, and
 * growing one ring as a write. The policy itself (when a field is due) is in `growth.ts`.
 */

export function canGrow(f: FieldContext): boolean {
  return (
    f.referee !== null &&
    f.referee.status !== "closed" &&
    f.store.getMeta<GrowPolicy>("grow_policy") !== undefined &&
    f.store.getMeta<string>("growth_ended") === undefined
  );
}

/** Why the field should grow now, if it should. */
export function growthDue(f: FieldContext): GrowthReason | null {
  if (!canGrow(f)) return null;
  return growthReason(f.store.getMeta<GrowPolicy>("grow_policy")!, {
    now: Date.now(),
    nextGrowAt: f.store.getMeta<number>("next_grow_at"),
    revealed: f.revealed,
    tilesTotal: f.field!.tiles.length,
    allSolved: f.referee!.status === "solved",
  });
}

/** Coverage or completion can make a growing field due after a write: the alarm then grows it now. */
export function growWhenDue(f: FieldContext): void {
  if (growthDue(f)) f.ctx.storage.setAlarm(Date.now()).catch((err) => console.error("setAlarm failed", err));
}

/** Grows one ring unless another invocation is already growing it (alarms may overlap). */
export function growOnce(f: FieldContext): Promise<void> {
  f.growing ??= growRing(f).finally(() => (f.growing = null));
  return f.growing;
}

/**
 * Grows one ring. The ring is a pure function of (seed, parameters, ring index, field so far),
 * so a retried alarm regenerates the same ring; it is applied and stored in one synchronous
 * block, like a write, and replayed on wake at the same position in the log.
 */
async function growRing(f: FieldContext): Promise<void> {
  const referee = f.referee!;
  const field = f.field!;
  const ring = referee.grown + 1;
  const params: FieldParams = { ...f.store.getMeta<FieldShape>("params")!, seed: f.store.getMeta<string>("seed")! };
  let result: Awaited<ReturnType<typeof generateRingYielding>>;
  try {
    result = await generateRingYielding(params.seed, params, ring, field);
  } catch (err) {
    f.store.setMeta("growth_ended", `ring ${ring} failed: ${errorMessage(err)}`);
    console.error("ring generation failed", err);
    return;
  }
  // Hashed before the synchronous store (a failure throws: the alarm is retried).
  const hashes = await hashesOf(f, result.tiles, result.solution, field.G);
  // Something may have changed while the ring was generated (a restore, the field closed).
  if (f.referee !== referee || referee.grown + 1 !== ring || referee.status === "closed") return;
  if (result.tiles.length === 0) {
    f.store.setMeta("growth_ended", `ring ${ring}: no room on the canvas`);
    f.registry.soon();
    return;
  }
  const at = Date.now();
  const statusBefore = referee.status;
  try {
    const grown = referee.grow({ ring, tiles: result.tiles, solution: result.solution }, at);
    if (!grown.ok) {
      f.store.setMeta("growth_ended", `ring ${ring} refused: ${grown.error.message}`);
      return;
    }
    const first = field.tiles.length;
    const policy = f.store.getMeta<GrowPolicy>("grow_policy")!;
    commitEvent(f, {
      input: { type: "grow", ring, first, count: result.tiles.length },
      event: grown.event,
      at,
      alsoStore: () => {
        f.store.appendTiles(result.tiles, hashes);
        f.store.saveSolution(result.solution);
        f.store.setMeta("tiles_total", first + result.tiles.length);
        const next = nextTimer(policy, at);
        if (next !== undefined) f.store.setMeta("next_grow_at", next);
        if (!result.room) f.store.setMeta("growth_ended", `ring ${ring}: the canvas is full`);
      },
      remember: () => {
        f.field = { G: field.G, tiles: [...field.tiles, ...result.tiles], solution: result.solution };
        f.hashes = [...f.hashes, ...(hashes ?? result.tiles.map(() => ""))];
      },
    });
  } catch (err) {
    recover(f, err);
    return;
  }
  if (referee.status !== statusBefore) f.registry.soon();
  else f.registry.batched();
}
