import { describe, expect, it } from "vitest";
import { RULES_CORE, RULES_TEXT } from "../../../src/mcp/rules";
import { DEATH_MIN_WINDOW, DEATH_SHORT_WRONG, HEALTH_WINDOW } from "../../../src/referee/health";
import { MAX_COMMIT_CELLS, MAX_INTENT_CHARS, MAX_RETRACT_CELLS } from "../../../src/referee/limits";

/**
 * The rules a model reads once (mosaic://rules and join's description) must state what the
 * referee implements: the names an answer can carry and the limits it enforces.
 */
describe("rules text matches the referee", () => {
  it("names every ignore reason of commit and retract, every forcing rule and the answer fields", () => {
    for (const reason of ["duplicate", "hole", "given", "known", "not_revealed", "off_frontier"]) expect(RULES_CORE).toContain(reason);
    for (const reason of ["unknown", "solved", "other_machine"]) expect(RULES_CORE).toContain(reason);
    for (const rule of ["run", "balance", "unique", "bifurcation"]) expect(RULES_CORE).toContain(rule);
    for (const field of ["accepted", "rejected", "ignored", "unevaluated", "meets", "reward", "frontier", "seam", "known.gaps", "known.values"]) {
      expect(RULES_CORE).toContain(field);
    }
  });

  it("states the scoped conflicts, the changed flag, known values of ignored cells and the solved code (SPEC §4.9)", () => {
    expect(RULES_TEXT).toMatch(/conflict comes only when/);
    expect(RULES_TEXT).toContain("a commit cell known since with the other value");
    expect(RULES_TEXT).toContain("a retract cell another session of your machine changed since");
    expect(RULES_TEXT).toContain("Cells known since are ignored with v");
    expect(RULES_TEXT).toContain("status is always the field's; a tile's is tile_status");
    expect(RULES_TEXT).toMatch(/rate_limited, unavailable \(retry after error\.retry_after s\)/);
    expect(RULES_TEXT).toContain("error.tiles/error.cells what changed");
    expect(RULES_TEXT).toContain("or one ahead of the field;");
    expect(RULES_TEXT).toContain("changed: true|false");
    // A re-reveal is a read whatever the revision, an expected_revision ahead of the field included.
    expect(RULES_TEXT).toMatch(/is a read at any revision/);
    expect(RULES_TEXT).toMatch(/ignored \{id, reason, v\?\}/);
    expect(RULES_TEXT).toMatch(/off_frontier \(not on your frontier\), solved \(already solved\)/);
  });

  it("states the limits the referee enforces", () => {
    expect(RULES_CORE).toContain(`up to ${MAX_COMMIT_CELLS}`);
    expect(RULES_CORE).toContain(`up to ${MAX_RETRACT_CELLS}`);
    expect(RULES_CORE).toContain(`<= ${MAX_INTENT_CHARS} chars`);
    expect(RULES_CORE).toMatch(/control characters become spaces/);
    expect(RULES_CORE).toContain(`last ${HEALTH_WINDOW.toLocaleString("en")}`);
    expect(RULES_CORE).toContain(`${DEATH_SHORT_WRONG} wrong`);
    expect(RULES_CORE).toContain(`${DEATH_MIN_WINDOW} cells`);
    expect(RULES_CORE).toMatch(/1\.5 %/);
    expect(RULES_CORE).toMatch(/4 %/);
    expect(RULES_CORE).toContain("120x120");
  });

  it("defines forced exactly: revealed tiles only, the cells known just before, earlier cells of the batch included", () => {
    expect(RULES_CORE).toMatch(/revealed tiles/);
    expect(RULES_CORE).toMatch(/just before/);
    expect(RULES_CORE).toMatch(/same batch/);
    expect(RULES_CORE).toMatch(/depth/);
  });

  it("explains that a dying batch stops and that a rejected guess costs no health", () => {
    expect(RULES_CORE).toMatch(/stops at the (cell|killing cell)/);
    expect(RULES_CORE).toMatch(/guess[^.]*no health effect/);
  });

  it("states what an agent of the reference relies on (SPEC §4.1, §4.7, §5, §6, §7, §9)", () => {
    // In join's description too: the answer shapes and the poll loop.
    expect(RULES_CORE).toMatch(/seed_tile, the id of a hidden tile far from every other agent's seed and territory/);
    expect(RULES_CORE).toMatch(/shape, cells and m are public before it is revealed \(outside fog\)/);
    expect(RULES_CORE).toMatch(/Fog is on by default for growing fields/);
    expect(RULES_CORE).toMatch(/ends only when a growth finds no room/);
    expect(RULES_CORE).toMatch(/writing code to deduce is allowed/i);
    expect(RULES_CORE).toMatch(/For a higher forced share, commit forced cells first/);
    expect(RULES_CORE).toMatch(/poll observe \{game_id\} until status is playing/);
    // What a model reads (SPEC §6): the text carries pictures and coordinates, structuredContent the data.
    expect(RULES_CORE).toMatch(/for readers without code: cells as \(x,y\), tiles as pictures, no JSON; structuredContent has the data/);
    // Guessing costs health; where a later tile's neighbours can fix its shared cells, they come first.
    expect(RULES_CORE).toMatch(/a wrong cell costs health, an unknown one nothing/);
    expect(RULES_CORE).toMatch(/before guessing on a later one, reveal its frontier neighbours: their givens may fix shared cells/);
    // One slip in a long batch made every cell deduced from it wrong (19 cells in one commit).
    expect(RULES_CORE).toMatch(/Commit long chains of deductions in parts: one early slip makes every cell after it wrong/);
    expect(RULES_TEXT).toMatch(/commit redraws the tiles it leaves open/);
    expect(RULES_TEXT).toMatch(/structuredContent\.pictures \{tile id: picture\}/);
    expect(RULES_TEXT).toMatch(/0 1 known, \. unknown; o i : are 0 1 unknown on a cell shared with another tile/);
    expect(RULES_TEXT).toMatch(/its length is its cell count/);
    expect(RULES_CORE).toMatch(/1\.\.24 printable characters, not \//);
    // In the resource: transport and verifiability.
    expect(RULES_TEXT).toContain(RULES_CORE);
    expect(RULES_TEXT).toMatch(/statelessly/);
    expect(RULES_TEXT).toMatch(/no Mcp-Session-Id/);
    expect(RULES_TEXT).toMatch(/rejected cells are recorded without their value/);
    expect(RULES_TEXT).toMatch(/seed_commit/);
    expect(RULES_TEXT).toMatch(/archive/);
    expect(RULES_TEXT).toMatch(/auditor/);
    expect(RULES_TEXT).toMatch(/listed in ignored/);
  });

  it("answers what players asked when they had only the text (SPEC §6)", () => {
    // m is exact, set by the tile's size.
    expect(RULES_CORE).toMatch(/m = the exact number of solutions a tile has alone, from its own givens; its size sets m: 2 \(<= 64 cells\), 3 \(<= 196\), 4 \(more\)/);
    // Solved neighbours pin a tile only where its alternatives differ on shared cells; guesses may recur.
    expect(RULES_CORE).toMatch(/a solved neighbour pins it only where they differ on the cells the two share/);
    expect(RULES_CORE).toMatch(/a guess may be needed again later/);
    expect(RULES_CORE).not.toMatch(/so solved neighbours pin it/);
    // A cell shared with a solved tile can be a given of the next one; seam is what is known from elsewhere.
    expect(RULES_CORE).toMatch(/givens \[\[cell,v\]\] \(a cell shared with a tile already solved can be one\)/);
    expect(RULES_CORE).toMatch(/seam \[\[cell,v\]\] \(its cells known from elsewhere\)/);
    // Who a tile's agent is; who solves a tile another group revealed.
    expect(RULES_CORE).toMatch(/A tile's agent is the group member who solved it/);
    expect(RULES_CORE).toMatch(/A tile another group revealed, once on your frontier, is solved by whoever completes it/);
    // A rejected cell's true value, and how it is judged when committed again.
    expect(RULES_CORE).toMatch(/not the solution's value \(the true one is the other\)/);
    expect(RULES_CORE).toMatch(/A cell rejected earlier, committed again, is judged like any cell \(so it may be a guess\)/);
    // The forced share and the reward.
    expect(RULES_CORE).toMatch(/The forced share feeds only the public analysis, never the reward/);
    // Cells by coordinates, and where the field's rules are shown.
    expect(RULES_CORE).toMatch(/commit up to 512 \[cell,v\] pairs, or xy \[\[x,y,v\]\]/);
    expect(RULES_CORE).toMatch(/retract up to 8192 cell ids, or xy \[\[x,y\]\]/);
    expect(RULES_CORE).toMatch(/cell \(x,y\) with id = y\*G \+ x/);
    expect(RULES_CORE).toMatch(/The field's rules \{guess, depth, fog\} are in list_games, join and observe/);
  });
});
