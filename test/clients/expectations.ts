// What every client must let a model see: the data of each answer, in the text it shows.
import { expect } from "vitest";
import type { ScriptedModel } from "./scripted-model";

export const TOOL_NAMES = ["commit", "join", "list_games", "observe", "retract", "reveal", "start_mosaic"];

/** Who the server recorded as the harness (SPEC §6): the transport's client name, or the `harness` argument when that name identifies nothing. */
export interface ExpectedHarness {
  name: string;
  source: "transport" | "argument";
}

/** The scripted model played start → poll → join → observe → reveal → commit → refusal from its texts alone. */
export function expectPlayedFromText(model: ScriptedModel, machineId: string, harness: ExpectedHarness): void {
  expect(model.done, model.turns.map((t) => `${t.step}: ${t.text.slice(0, 200)}`).join("\n")).toBe(true);
  for (const turn of model.turns) expect(turn.data, `${turn.step} ${turn.call.name}: the model can read the data in ${turn.text.slice(0, 300)}`).toBeDefined();

  const [start] = model.of("start");
  expect(start.data).toMatchObject({ status: "generating", game_id: model.gameId });
  expect(start.text).toContain(model.gameId);

  const polls = model.of("poll");
  expect((polls.at(-1)?.data?.observation as { status?: string }).status).toBe("playing");

  const [join] = model.of("join");
  expect(join.data?.agent).toBe(`${machineId}/${model.agent.split("/")[1]}`);
  expect(join.data?.seed_tile).toBeTypeOf("number");
  expect((join.data?.seed as { id?: number } | undefined)?.id).toBe(model.seedTile);
  // A client that names itself after the server ("mosaic") or sends an SDK default identifies nothing.
  expect(join.data?.harness).not.toMatch(/^mosaic(\/|$)/);
  expect(join.data?.harness).toBe(harness.name);
  expect(join.data?.harness_source).toBe(harness.source);

  const [observe] = model.of("observe");
  const o = observe.data?.observation as { frontier: number[]; known: { gaps: number[]; values: string }; tiles: Array<{ id: number; rects: unknown[] }> };
  expect(o.frontier).toContain(model.seedTile);
  expect(o.tiles.find((t) => t.id === model.seedTile)?.rects.length).toBeGreaterThan(0);
  expect(o.known).toEqual({ gaps: expect.any(Array), values: expect.any(String) });

  const [reveal] = model.of("reveal");
  expect(reveal.data?.tile).toBe(model.seedTile);
  expect((reveal.data?.givens as unknown[]).length).toBeGreaterThan(0);
  expect(reveal.data?.seam).toEqual(expect.any(Array));

  const [commit] = model.of("commit");
  const sent = (commit.call.args.cells as unknown[]).length;
  const c = commit.data as { revision: number; accepted: unknown[]; rejected: Array<{ reason: string }>; ignored: unknown[]; unevaluated: unknown[]; health: { state: string } };
  expect(c.accepted.length + c.rejected.length + c.ignored.length + c.unevaluated.length).toBe(sent);
  // Proven cells are all right; only a lone guess may miss.
  if (!model.guessed) expect(c.rejected).toEqual([]);
  expect(c.accepted.length).toBeGreaterThan(model.guessed ? -1 : 0);
  expect(c.revision).toBeGreaterThan(Number(reveal.data?.revision));
  expect(c.health.state).toBe("healthy");

  // A refusal reaches the model with its reason (and, in the JSON, its code).
  const [refused] = model.of("refused");
  expect(refused.text).toMatch(/frontier/i);
  expect((refused.data?.error as { code?: string } | undefined)?.code).toBe("off_frontier");
}
