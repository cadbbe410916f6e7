import { describe, expect, it } from "vitest";
import { RULES_TEXT } from "../../../src/mcp/rules";
import { DEATH_MIN_WINDOW, DEATH_SHORT_WRONG, HEALTH_WINDOW } from "../../../src/referee/health";
import { MAX_COMMIT_CELLS, MAX_INTENT_CHARS, MAX_RETRACT_CELLS } from "../../../src/referee/validate";

/**
 * The rules a model reads once (mosaic://rules and join's description) must state what the
 * referee implements: the names an answer can carry and the limits it enforces.
 */
describe("rules text matches the referee", () => {
  it("names every ignore reason of commit and retract, every forcing rule and the answer fields", () => {
    for (const reason of ["duplicate", "hole", "given", "known", "not_revealed", "off_frontier"]) expect(RULES_TEXT).toContain(reason);
    for (const reason of ["unknown", "solved", "other_machine"]) expect(RULES_TEXT).toContain(reason);
    for (const rule of ["run", "balance", "unique", "bifurcation"]) expect(RULES_TEXT).toContain(rule);
    for (const field of ["accepted", "rejected", "ignored", "unevaluated", "meets", "reward", "frontier", "seam", "known.gaps", "known.values"]) {
      expect(RULES_TEXT).toContain(field);
    }
  });

  it("states the limits the referee enforces", () => {
    expect(RULES_TEXT).toContain(`up to ${MAX_COMMIT_CELLS}`);
    expect(RULES_TEXT).toContain(`up to ${MAX_RETRACT_CELLS}`);
    expect(RULES_TEXT).toContain(`<= ${MAX_INTENT_CHARS} chars`);
    expect(RULES_TEXT).toContain(`last ${HEALTH_WINDOW.toLocaleString("en")}`);
    expect(RULES_TEXT).toContain(`${DEATH_SHORT_WRONG} wrong`);
    expect(RULES_TEXT).toContain(`${DEATH_MIN_WINDOW} cells`);
    expect(RULES_TEXT).toMatch(/1\.5 %/);
    expect(RULES_TEXT).toMatch(/4 %/);
    expect(RULES_TEXT).toContain("120x120");
  });

  it("defines forced exactly: revealed tiles only, the cells known just before, earlier cells of the batch included", () => {
    expect(RULES_TEXT).toMatch(/revealed tiles/);
    expect(RULES_TEXT).toMatch(/just before/);
    expect(RULES_TEXT).toMatch(/same batch/);
    expect(RULES_TEXT).toMatch(/depth/);
  });

  it("explains that a dying batch stops and that a rejected guess costs no health", () => {
    expect(RULES_TEXT).toMatch(/stops at the (cell|killing cell)/);
    expect(RULES_TEXT).toMatch(/guess[^.]*no health effect/);
  });
});
