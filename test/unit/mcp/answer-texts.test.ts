import { describe, expect, it } from "vitest";
import { observeText } from "../../../src/mcp/answers/observe-text";
import { commitReply, joinText, retractText, revealText } from "../../../src/mcp/answers/write-texts";
import { healthText } from "../../../src/mcp/tools/play-common";
import type { Referee } from "../../../src/referee/referee";
import { parsePicture, parsePictures } from "../../../src/text/tile-picture";
import { chainField, gridField } from "../referee/fixtures";
import { commit, joinInput, makeReferee, ok, retract, reveal } from "../referee/helpers";

/** What a model reads must never be JSON: no object or pair-list syntax. */
function expectNoJson(text: string): void {
  expect(text).not.toMatch(/\{"|\[\[|"id"/);
}

function answerOf(r: ReturnType<Referee["apply"]>): Record<string, unknown> {
  if (!r.ok) throw new Error(r.error.message);
  return r.answer;
}

/** A commit's text, as a model on a content-only client reads it. */
const commitText = (a: Record<string, unknown>): string => commitReply(a).text;

describe("the texts a model reads (SPEC §6)", () => {
  const field = gridField(4, 3, { givenEvery: 3 });
  const G = field.G;
  const at = (c: number): string => `(${c % G},${Math.floor(c / G)})`;

  it("join draws the seed's shape; reveal draws givens and seam in, with size, m and what to do next", () => {
    const ref = makeReferee(field);
    const joined = ok(ref, joinInput("m-a"));
    const seed = joined.seed_tile as number;
    const join = joinText(`Seated as ${String(joined.agent)} at revision 1; seed tile ${seed}.`, { ...joined, rules: { guess: "accept", depth: 0, fog: false } });
    expectNoJson(join);
    expect(join).toContain("rules: guess accept, depth 0, fog off");
    const shape = parsePictures(join);
    expect(shape).toHaveLength(1);
    expect(shape[0].cells.map((c) => c.y * G + c.x)).toEqual(field.tiles[seed].cellIds);
    expect(shape[0].cells.every((c) => c.v === -1)).toBe(true);

    const revealed = answerOf(reveal(ref, String(joined.agent), seed));
    const text = revealText(revealed);
    expectNoJson(text);
    expect(text.split("\n")[0]).toMatch(new RegExp(`^Revealed tile ${seed}: \\d+ givens and \\d+ seam cells, drawn in the picture`));
    expect(text.split("\n")[1]).toMatch(new RegExp(`^tile ${seed}: x \\d+\\.\\.\\d+, y \\d+\\.\\.\\d+, ${field.tiles[seed].cellIds.length} cells, m=${field.tiles[seed].m}$`));
    expect(text).toContain(`xy triples [x, y, v] (coordinates as drawn), expected_revision ${String(revealed.revision)}`);
    const [picture] = parsePictures(text);
    expect(picture).toEqual(parsePicture((revealed.pictures as Record<string, string>)[String(seed)]));
    for (const c of field.tiles[seed].givens) expect(picture.cells.find((p) => p.y * G + p.x === c)?.v).toBe(field.solution[c]);
    // Shared cells are marked, and only those.
    const covered = new Map<number, number>();
    for (const t of field.tiles) for (const c of t.cellIds) covered.set(c, (covered.get(c) ?? 0) + 1);
    for (const p of picture.cells) expect(p.shared).toBe((covered.get(p.y * G + p.x) ?? 0) > 1);
  });

  it("commit counts accepted cells by class and rule and names by coordinates only what the model acts on", () => {
    const ref = makeReferee(field, { guess: "accept" });
    const agent = String(ok(ref, joinInput("m-a")).agent);
    const seed = ref.frontier(agent)![0];
    answerOf(reveal(ref, agent, seed));
    const open = field.tiles[seed].cellIds.filter((c) => ref.cell(c)?.value === -1);
    const given = field.tiles[seed].givens[0];
    const [wrong, ...rest] = open;
    const batch: Array<[number, 0 | 1]> = [[wrong, (1 - field.solution[wrong]) as 0 | 1], ...rest.map((c): [number, 0 | 1] => [c, field.solution[c] as 0 | 1]), [given, field.solution[given] as 0 | 1]];
    const a = answerOf(commit(ref, agent, batch));
    const text = commitText(a);
    expectNoJson(text);
    const accepted = a.accepted as Array<{ id: number; class: string; rule?: string }>;
    const forced = accepted.filter((c) => c.class === "forced");
    const guesses = accepted.filter((c) => c.class === "guess");
    expect(text.split("\n")[0]).toMatch(new RegExp(`^Revision ${String(a.revision)}: ${accepted.length} accepted \\(`));
    if (forced.length) expect(text).toContain(`${forced.length} forced: `);
    if (guesses.length) expect(text).toContain(`guesses: ${guesses.slice(0, 40).map((c) => at(c.id)).join(" ")}`);
    expect(text).toContain(`rejected (wrong, so still unknown: commit the true value): ${at(wrong)} is ${field.solution[wrong]}, not ${1 - field.solution[wrong]}`);
    expect(text).toContain("ignored: given 1");
    // The rejected cell stays unknown: the tile it leaves open is named with that cell, and nothing else is open.
    expect(a.open).toEqual([{ tile: seed, unknown: 1, cells: [wrong] }]);
    expect(text).toContain(`still open: tile ${seed} 1 unknown: ${at(wrong)}`);
    expect(text).toMatch(/frontier: /);
    // The last line is the health sentence (here a warning: one wrong cell of ten).
    expect(text.split("\n").at(-1)).toBe(healthText(a.health).trim());
    expect(text).toMatch(/Health warning/);
    // Accepted cells are counted, never listed one by one as forced.
    for (const c of forced) expect(text).not.toContain(at(c.id));

    // A cell known since is ignored with its value, by coordinates; retract names cells by coordinates.
    const again = answerOf(commit(ref, agent, [[rest[0], field.solution[rest[0]] as 0 | 1]]));
    expect(commitText(again)).toContain(`known 1: ${at(rest[0])}=${field.solution[rest[0]]}`);
    expect(commitText(again)).not.toContain("still open");
    const back = answerOf(retract(ref, agent, [rest[0], given]));
    const retracted = retractText(back);
    expectNoJson(retracted);
    expect(retracted).toContain(`retracted: ${at(rest[0])}`);
    expect(retracted).toContain(`ignored: ${at(given)}=${field.solution[given]} given`);
  });

  it("observe {agent} draws each revealed unsolved tile, lists hidden tiles compactly and never prints known.gaps", () => {
    const ref = makeReferee(field);
    const agent = String(ok(ref, joinInput("m-a")).agent);
    const seed = ref.frontier(agent)![0];
    answerOf(reveal(ref, agent, seed));
    const observed = ref.observe({ agent });
    if (!observed.ok) throw new Error(observed.error.message);
    const o = observed.observation;
    const text = observeText("g", o, true);
    expectNoJson(text);
    expect(text).not.toMatch(/gaps/);
    expect(text.split("\n")[0]).toContain(`frontier: ${seed}.`);
    const drawn = parsePictures(text);
    expect(drawn).toHaveLength(1);
    expect(drawn[0].cells.map((c) => c.y * G + c.x)).toEqual(field.tiles[seed].cellIds);
    const hidden = (o.tiles as Array<{ id: number; status: string }>).filter((t) => t.status === "hidden");
    for (const t of hidden) {
      const tile = field.tiles[t.id];
      expect(text).toContain(`${t.id}: x ${tile.x0}..${tile.x0 + tile.w - 1}, y ${tile.y0}..${tile.y0 + tile.h - 1}, ${tile.cellIds.length} cells, m=${tile.m}`);
    }
  });

  it("commit redraws the tile it leaves open: whole when it fits, else the rows it changed, always within 800 characters", () => {
    // Small tiles: the whole tile is redrawn, as observe would draw it now.
    const ref = makeReferee(field, { guess: "accept" });
    const agent = String(ok(ref, joinInput("m-a")).agent);
    const seed = ref.frontier(agent)![0];
    answerOf(reveal(ref, agent, seed));
    const open = field.tiles[seed].cellIds.filter((c) => ref.cell(c)?.value === -1);
    const a = answerOf(commit(ref, agent, open.slice(0, 3).map((c): [number, 0 | 1] => [c, field.solution[c] as 0 | 1])));
    const text = commitText(a);
    expect(text).toContain(`tile ${seed} now:`);
    const observed = ref.observe({ agent });
    if (!observed.ok) throw new Error(observed.error.message);
    const now = parsePicture((observed.observation.pictures as Record<string, string>)[String(seed)]);
    expect(parsePictures(text)).toEqual([now]);
    expect(text.length).toBeLessThanOrEqual(800);
    // structuredContent carries exactly the pictures the text draws (a client showing its model only that sees the same).
    expect(Object.values(commitReply(a).structured.pictures as Record<string, string>).every((p) => text.includes(p))).toBe(true);

    // A 16×16 tile: whole it would not fit, so only the rows this commit touched that are still open.
    const big = chainField(16, 2, { givenEvery: 4 });
    const B = big.G;
    const ref2 = makeReferee(big, { guess: "accept" });
    const agent2 = String(ok(ref2, joinInput("m-b")).agent);
    const seed2 = ref2.frontier(agent2)![0];
    answerOf(reveal(ref2, agent2, seed2));
    const unknown = big.tiles[seed2].cellIds.filter((c) => ref2.cell(c)?.value === -1);
    // 55 cells: the first 50 unknown in reading order, and 5 from further down.
    const batch = [...unknown.slice(0, 50), ...unknown.slice(120, 125)].map((c): [number, 0 | 1] => [c, big.solution[c] as 0 | 1]);
    const b = answerOf(commit(ref2, agent2, batch));
    const bigText = commitText(b);
    expect(bigText.length).toBeLessThanOrEqual(800);
    expect(bigText).toContain(`tile ${seed2} now, the rows this commit changed:`);
    const [drawn] = parsePictures(bigText);
    const touched = new Set(batch.map(([c]) => Math.floor(c / B)));
    const stillOpen = new Set(big.tiles[seed2].cellIds.filter((c) => ref2.cell(c)?.value === -1).map((c) => Math.floor(c / B)));
    const rows = [...new Set(drawn.cells.map((c) => c.y))];
    expect(rows.sort((p, q) => p - q)).toEqual([...touched].filter((y) => stillOpen.has(y)).sort((p, q) => p - q));
    for (const c of drawn.cells) expect(c.v).toBe(ref2.cell(c.y * B + c.x)!.value);
    expect(bigText).toMatch(/… y=\d+(\.\.\d+)? not shown/);
    const structured = commitReply(b).structured.pictures as Record<string, string>;
    expect(Object.keys(structured)).toEqual([String(seed2)]);
    expect(bigText).toContain(structured[String(seed2)]);

    // When the tile's open rows fit, all of them are drawn: here the commit fills every row but the
    // last three with unknown cells, so it leaves only those open and touched none of them.
    const rowsLeft = [...new Set(big.tiles[seed2].cellIds.filter((id) => ref2.cell(id)?.value === -1).map((id) => Math.floor(id / B)))];
    const kept = new Set(rowsLeft.slice(-3));
    const fill = big.tiles[seed2].cellIds.filter((id) => ref2.cell(id)?.value === -1 && !kept.has(Math.floor(id / B)));
    const c = answerOf(commit(ref2, agent2, fill.map((id): [number, 0 | 1] => [id, big.solution[id] as 0 | 1])));
    const openText = commitText(c);
    expect(openText.length).toBeLessThanOrEqual(800);
    expect(openText).toContain(`tile ${seed2} now, its rows still open:`);
    const openRows = kept;
    expect(new Set(parsePictures(openText)[0].cells.map((p) => p.y))).toEqual(openRows);
  });
});
