import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateRing, type FieldParams } from "../../src/engine";
import { createPlaying, ok, ScriptedPlayers, type Stub } from "./game-helpers";

/** Growth on alarms (SPEC §5): rings appended as logged state changes, replayed on wake. */

const PARAMS = { kind: "field" as const, chunks: 2, chunk_g: 40, grow: true, G: 200 };
const FOG = { guess: "accept" as const, depth: 0 as const, fog: true };

async function header(stub: Stub) {
  return ok(await stub.observe({ rect: [0, 0, 1, 1] })).observation as { grown: number; tiles_total: number; revision: number; status: string };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function snapshot(stub: Stub) {
  return {
    manifest: ok(await stub.manifest()),
    events: ok(await stub.events(0)).events,
    view: ok(await stub.observe({ rect: [40, 40, 120, 120] })),
  };
}

describe("growth", () => {
  it("grows a ring when the revealed share reaches frontier_coverage, logs it, and replays it after eviction", async () => {
    const { stub, raw, field, seed } = await createPlaying(PARAMS, 200, { rules: FOG, grow: { frontier_coverage: 0.1 } });
    const initial = field.tiles.length;
    expect(await header(stub)).toMatchObject({ grown: 0, tiles_total: initial });
    const manifest = ok(await stub.manifest());
    expect(manifest.growth).toMatchObject({ policy: { frontier_coverage: 0.1 } });
    expect(manifest.rules.fog).toBe(true);

    const players = new ScriptedPlayers(stub, field);
    await players.join();
    // Reveal (and solve) tiles until a tenth of the tiles are revealed: the write arms the alarm.
    while ((await header(stub)).grown === 0 && players.revision < 200) {
      if ((await players.pass(1)) === 0) await players.join();
      await runDurableObjectAlarm(raw);
    }
    await until(async () => (await header(stub)).grown === 1, "the first ring");

    const ring = await generateRing(seed, { ...PARAMS, seed } as FieldParams, 1, field);
    expect(ring.tiles.length).toBeGreaterThan(0);
    const h = await header(stub);
    expect(h.tiles_total).toBe(initial + ring.tiles.length);
    const events = ok(await stub.events(0)).events;
    const growEvent = events.find((e) => e.type === "grow");
    expect(growEvent).toMatchObject({ ring: 1, first_tile: initial, tiles: ring.tiles.length });
    expect(ok(await stub.manifest()).grown).toBe(1);

    // Evicted and woken: the grown tiles and every event come back exactly.
    const before = await snapshot(stub);
    await evictDurableObject(raw);
    expect(await snapshot(stub)).toEqual(before);

    // The new tiles are playable: the agents play on through the ring's tiles on their frontier.
    const grownField = { G: field.G, tiles: [...field.tiles, ...ring.tiles], solution: ring.solution };
    const more = new ScriptedPlayers(stub, grownField, 50);
    await more.join();
    await more.pass(2);
    expect((await header(stub)).revision).toBeGreaterThan(before.manifest.log_head.rev);
  });

  it("grows on its timer, and stops for good when the canvas has no room", async () => {
    const { stub, raw, field } = await createPlaying(PARAMS, 200, { rules: FOG, grow: { every_minutes: 60 } });
    const next = ok(await stub.manifest()).growth?.next_at;
    expect(next).toBeGreaterThan(Date.now() + 59 * 60_000);
    const players = new ScriptedPlayers(stub, field);
    await players.join(); // a seated field does not expire; only the timer is pending
    const fire = async () => {
      await runInDurableObject(raw, (_i, state) => {
        state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'next_grow_at'", JSON.stringify(Date.now() - 1));
      });
      await runDurableObjectAlarm(raw);
      await until(async () => {
        const m = ok(await stub.manifest());
        return (m.growth?.next_at ?? 0) > Date.now() || m.growth?.ended !== undefined;
      }, "the timer growth");
    };
    await fire();
    expect((await header(stub)).grown).toBe(1);
    // Keep firing the timer: the 200-cell canvas fills up, growth ends and nothing more changes.
    for (let i = 0; i < 4 && ok(await stub.manifest()).growth?.ended === undefined; i++) await fire();
    const m = ok(await stub.manifest());
    expect(m.growth?.ended).toMatch(/no room|full/);
    const frozen = await snapshot(stub);
    await runDurableObjectAlarm(raw);
    expect(await snapshot(stub)).toEqual(frozen);
  });
});
