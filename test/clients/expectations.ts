// What every client must let a model see: enough of each answer, in what it shows the model, to
// play without code (SPEC §6 "What a model reads"), checked against the field's public log.
import { expect } from "vitest";
import type { ScriptedModel } from "./scripted-model";

export const TOOL_NAMES = ["commit", "join", "list_games", "observe", "retract", "reveal", "start_mosaic"];

/** Who the server recorded as the harness (SPEC §6): the transport's client name, or the `harness` argument when that name identifies nothing. */
export interface ExpectedHarness {
  name: string;
  source: "transport" | "argument";
}

type LogEvent = Record<string, unknown> & { type: string; rev: number };

/** The field's public log (every event; a matrix field holds a handful). */
async function events(base: string, gameId: string): Promise<LogEvent[]> {
  const res = await fetch(`${base}/api/games/${gameId}/events?from=1`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: LogEvent[] }).events;
}

/**
 * The scripted model played start → poll → join → observe → reveal → commit → refusal from what
 * its client showed it alone: the field it read is the one it started, its seed tile's picture
 * holds the givens the log records at their coordinates, the counts it read of its commit are the
 * log's, and the refusal reached it with its reason.
 */
export async function expectPlayedFromText(model: ScriptedModel, machineId: string, harness: ExpectedHarness, base: string, pictureFrom: "text" | "structured" = "text"): Promise<void> {
  expect(model.done, model.turns.map((t) => `${t.step}: ${t.text.slice(0, 300)}`).join("\n")).toBe(true);
  const read = model.read;
  expect(read.gameId).toMatch(/^[0-9a-f-]{36}$/);
  expect(read.status).toBe("playing");
  const log = await events(base, read.gameId);

  const join = log.find((e) => e.type === "join" && e.agent === read.agent);
  expect(join, `the model read its agent id ${read.agent}`).toBeDefined();
  expect(read.agent).toBe(`${machineId}/${String(join!.session)}`);
  expect(read.seedTile).toBe(join!.seed_tile);
  // A client that names itself after the server ("mosaic") or sends an SDK default identifies nothing.
  expect(join!.harness).not.toMatch(/^mosaic(\/|$)/);
  expect(join!.harness).toBe(harness.name);
  expect(join!.harness_source).toBe(harness.source);

  // The seed's picture: read from where this client shows it, every given at its coordinates.
  const reveal = log.find((e) => e.type === "reveal" && e.tile === read.seedTile);
  expect(reveal).toBeDefined();
  expect(read.pictureFrom).toBe(pictureFrom);
  const picture = read.picture!;
  const givens = reveal!.givens as Array<[number, number]>;
  expect(givens.length).toBeGreaterThan(0);
  const G = Number(model.turns.find((t) => t.step === "start")?.call.args.G);
  for (const [c, v] of givens) expect(picture.cells.find((p) => p.x === c % G && p.y === Math.floor(c / G))?.v, `given ${c}`).toBe(v);

  // The commit: ids the model computed from the picture's coordinates; the counts it read are the log's.
  const commit = log.find((e) => e.type === "commit" && e.agent === read.agent);
  expect(commit).toBeDefined();
  expect(commit!.cells).toEqual(model.sent.map(([c]) => c));
  expect(read.accepted).toBe((commit!.accepted as unknown[]).length);
  expect(read.rejected).toBe((commit!.rejected as unknown[]).length);
  // Proven cells are all right; only a lone guess may miss.
  if (!model.guessed) {
    expect(read.rejected).toBe(0);
    expect(read.accepted).toBeGreaterThan(0);
  }
  expect(read.commitRevision).toBe(commit!.rev);
  expect(read.health).toBe("healthy");

  // A refusal reaches the model with its reason.
  expect(read.refusal).toMatch(/not on your group's frontier/);
}
