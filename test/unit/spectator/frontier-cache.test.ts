import { describe, expect, it, vi } from "vitest";
import { generateField } from "../../../src/engine";
import { modelAtStart, SpectatorModel, type TileGeometry } from "../../../src/spectator";
import { FrontierTracker } from "../../../src/site/field/frontier";
import type { FieldRules } from "../../../src/referee/types";
import { playDay } from "./play-day";

/**
 * The live page keeps each tile's neighbour list between overlay refreshes. Under fog, geometry
 * arrives with most batches; dropping every list then made each refresh recompute the neighbours
 * of every solved tile. Only the lists the new geometry changes may be dropped, and the frontier
 * must stay the one a tracker with nothing cached finds.
 */
describe("site: the frontier overlay's neighbour cache", () => {
  it("follows a fogged, growing day batch by batch, equal to a fresh tracker, recomputing only the lists new geometry touches", async () => {
    const whole = await generateField({ kind: "scatter", G: 60, seed: "frontier-cache" });
    const rules: FieldRules = { guess: "accept", depth: 1, fog: true };
    const initial = Math.floor(whole.tiles.length * 0.6);
    const day = playDay(whole, { rules, steps: 900, seed: 5, rings: [initial, whole.tiles.length] });
    const archive = { game_id: "frontier-cache", G: whole.G, params: { rules }, seed_commit: day.seedCommit, tiles: whole.tiles, events: day.events };
    // The server knows every tile; the page learns geometry only as the feed sends it.
    const server = modelAtStart(archive);
    const page = new SpectatorModel({ gameId: archive.game_id, G: whole.G, fog: true, tilesTotal: server.tilesTotal, rules });
    const tracker = new FrontierTracker();
    const neighbours = vi.spyOn(page, "neighbours");
    let grown = 0;
    let checked = 0;
    for (const e of day.events) {
      const geometry = server.apply(e).map((id) => server.tile(id)).filter((g): g is TileGeometry => g !== undefined);
      page.addTiles(geometry);
      page.apply(e);
      if (e.type === "grow") {
        grown++;
        tracker.forget();
      } else tracker.learnt(page, geometry.map((g) => g.id));
      neighbours.mockClear();
      const seeds = new Set<number>();
      const frontier = new Set<number>();
      tracker.refresh(page, seeds, frontier);
      const recomputed = neighbours.mock.calls.length;
      const fresh = { seeds: new Set<number>(), frontier: new Set<number>() };
      new FrontierTracker().refresh(page, fresh.seeds, fresh.frontier);
      expect([...frontier].sort((a, b) => a - b), `frontier at revision ${e.rev}`).toEqual([...fresh.frontier].sort((a, b) => a - b));
      expect(seeds).toEqual(fresh.seeds);
      // A batch that brought no ring recomputes at most the new tiles' lists and their neighbours'.
      if (e.type !== "grow" && page.solvedCount > 20) {
        expect(recomputed, `lists recomputed at revision ${e.rev}`).toBeLessThanOrEqual(geometry.length * 12);
        checked++;
      }
    }
    expect(grown).toBe(1);
    expect(checked).toBeGreaterThan(100);
  });
});
