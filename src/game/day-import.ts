import { hashKeyCommit, hexToBytes, seedCommit } from "../engine/commitments";
import { shapeCellIds } from "../engine/geometry";
import type { Rect, SolutionCount, Tile } from "../engine/types";
import type { FieldContext } from "./field-context";
import type { StoredInput } from "./field-store";
import { fail, type FieldShape, type Outcome } from "./field-types";
import { safeRestore } from "./field-restore";
import type { GrowPolicy } from "./growth";
import type { FieldRules } from "../referee/types";

/**
 * Development only (`MOSAIC_DEV=1`): loads a day played elsewhere — a synthetic full day built in
 * Node for the close benchmark — into an empty field object, part by part, exactly as the object
 * itself would have stored it (meta, tiles with their hashes, solution, chained events, a referee
 * snapshot). At `end` the object restores from it like after an eviction. Nothing is checked
 * beyond what restore checks (the snapshot's digest, the stored revisions): it is a test bench.
 */
export type ImportPart =
  | {
      kind: "begin";
      gameId: string;
      day: string;
      params: FieldShape;
      rules: FieldRules;
      grow?: GrowPolicy;
      seed: string;
      dayKey: string;
      G: number;
      initialTiles: number;
      created: number;
    }
  | { kind: "tiles"; tiles: Array<{ id: number; x0: number; y0: number; w: number; h: number; rects: Rect[]; m: number; givens: number[] }>; hashes: string[] }
  | { kind: "solution"; base64: string }
  | { kind: "events"; rows: Array<{ rev: number; at: number; input: StoredInput; event: Record<string, unknown>; hash: string }> }
  | { kind: "snapshot"; rev: number; text: string }
  | { kind: "end" };

export async function importPart(f: FieldContext, part: ImportPart): Promise<Outcome<{ status: string; revision: number }>> {
  const started = f.store.getMeta<string>("game_id");
  if (part.kind === "begin") {
    if (started !== undefined) return fail("bad_input", `this object already holds ${started}`);
    const seedCommitment = await seedCommit(part.seed);
    const keyCommitment = await hashKeyCommit(hexToBytes(part.dayKey));
    f.ctx.storage.transactionSync(() => {
      // The tables are created with the game, as `create` does (field-store.ts).
      f.store.migrate();
      const meta: Record<string, unknown> = {
        game_id: part.gameId, day: part.day, params: part.params, rules: part.rules, seed: part.seed, seed_commit: seedCommitment,
        day_key: part.dayKey, hash_key_commit: keyCommitment, created: part.created, G: part.G, initial_tiles: part.initialTiles,
        generated_at: part.created, status: "importing",
      };
      if (part.grow) meta.grow_policy = part.grow;
      for (const [k, v] of Object.entries(meta)) f.store.setMeta(k, v);
    });
    return { ok: true, answer: { status: "importing", revision: 0 } };
  }
  if (started === undefined || f.store.getMeta<string>("status") !== "importing") return fail("bad_input", "begin an import first");
  const G = f.store.getMeta<number>("G")!;
  switch (part.kind) {
    case "tiles": {
      const tiles: Tile[] = part.tiles.map((t) => ({ ...t, m: t.m as SolutionCount, cellIds: shapeCellIds(t, G) }));
      f.ctx.storage.transactionSync(() => f.store.appendTiles(tiles, part.hashes));
      break;
    }
    case "solution":
      f.store.saveSolution(Uint8Array.from(atob(part.base64), (c) => c.charCodeAt(0)));
      break;
    case "events":
      f.ctx.storage.transactionSync(() => {
        for (const r of part.rows) f.store.appendEvent(r);
      });
      break;
    case "snapshot":
      f.store.saveSnapshot(part.rev, new TextEncoder().encode(part.text));
      break;
    case "end": {
      f.ctx.storage.transactionSync(() => {
        f.store.setMeta("tiles_total", f.store.tileHashes().length);
        f.store.setMeta("status", "playing");
      });
      safeRestore(f);
      await f.registry.now();
      break;
    }
  }
  return { ok: true, answer: { status: f.store.getMeta<string>("status")!, revision: f.head.rev } };
}
