import { beforeAll, describe, expect, it } from "vitest";
import { generateField } from "../../../src/engine";
import type { FieldRules } from "../../../src/referee/types";
import { modelAtStart, SpectatorModel, type SpectatorSnapshot } from "../../../src/spectator";
import type { FieldMarker } from "../../../src/site/field/marks";
import { colourMachines } from "../../../src/site/palette";
import { playDay, type PlayedDay } from "./play-day";
import { provideImageData } from "./node-image-data";

/**
 * Growth rings, meetings and deaths are marked on the field. A page opened late (or on a closed
 * day) must mark what a page that watched the whole day marks: the rings from the snapshot, the
 * meetings and deaths from the few events the snapshot names.
 */


type Markers = typeof import("../../../src/site/live/markers");
type ModelScene = typeof import("../../../src/site/field/model-scene");
let markers: Markers;
let modelScene: ModelScene;

beforeAll(async () => {
  provideImageData();
  markers = await import("../../../src/site/live/markers");
  modelScene = await import("../../../src/site/field/model-scene");
});

const placed = (m: FieldMarker[]) => m.map(({ since: _since, ...rest }) => rest).sort((a, b) => a.rev - b.rev || a.label.localeCompare(b.label));

describe("site: marks of a day seen live or opened later", () => {
  let day: PlayedDay;
  let archive: Parameters<typeof modelAtStart>[0];
  const rules: FieldRules = { guess: "accept", depth: 1, fog: true };

  beforeAll(async () => {
    const whole = await generateField({ kind: "scatter", G: 60, seed: "past-markers" });
    const n = whole.tiles.length;
    day = playDay(whole, { rules, rings: [Math.floor(n / 2), Math.floor((3 * n) / 4), n], steps: 1200, seed: 31 });
    archive = { game_id: "past-markers", G: whole.G, params: { rules }, seed_commit: day.seedCommit, tiles: whole.tiles, events: day.events };
    colourMachines([...new Set(day.events.flatMap((e) => (e.type === "join" ? [e.machine] : [])))]);
  }, 120_000);

  it("a page opened at the end marks the same rings, meetings and deaths as one that watched every event", () => {
    const nameOf = (m: string) => m;
    // Watching: every event applied and marked as it arrives, as the live page does.
    const watched = modelAtStart(archive);
    const scene = modelScene.sceneFromModel(watched);
    const seen: FieldMarker[] = [];
    for (const e of day.events) {
      const newly = watched.apply(e);
      modelScene.syncEvent(scene, watched, e, newly);
      modelScene.syncTiles(scene, watched, watched.candidateTiles(e));
      seen.push(...markers.markersFor(watched, scene, e, nameOf));
    }
    const seenRings = markers.ringBoxes(watched, scene);

    // Opened late: the public snapshot (through JSON), then the events it names.
    const snapshot = JSON.parse(JSON.stringify(watched.snapshot("public"))) as SpectatorSnapshot;
    const fresh = SpectatorModel.fromSnapshot(snapshot);
    const freshScene = modelScene.sceneFromModel(fresh);
    const fetched = markers.markedRevisions(fresh).map((rev) => day.events[rev - 1]);
    const late = markers.pastMarkers(fresh, freshScene, fetched, nameOf);

    // The day must hold what is being compared.
    expect(seenRings.length).toBe(2);
    expect(seen.some((m) => m.kind === "meet")).toBe(true);
    expect(seen.some((m) => m.kind === "death")).toBe(true);

    expect(markers.ringBoxes(fresh, freshScene)).toEqual(seenRings);
    expect(placed(late)).toEqual(placed(seen));
    // Old marks are aged by the log's clock: they do not pulse as if they had just happened.
    const now = performance.now();
    for (const m of late) expect(now - m.since).toBeGreaterThanOrEqual(fresh.updatedAt - day.events[m.rev - 1].at - 1);
  });
});
