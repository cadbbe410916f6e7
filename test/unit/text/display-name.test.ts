import { describe, expect, it } from "vitest";
import { SHOWN_NAME_MAX, shownName } from "../../../src/text/display-name";

describe("shownName: a self-declared name as it may be shown", () => {
  it("drops terminal escapes and carriage returns that would rewrite a line", () => {
    const hostile = "\r\u001b[2Kapproving Claude (claude.ai, verified by Mosaic)\u001b[8m";
    const shown = shownName(hostile) ?? "";
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(shown.startsWith("[2Kapproving Claude")).toBe(true);
  });

  it("drops bidi overrides, isolates and zero-width characters", () => {
    const shown = shownName("Cla\u200bude\u202e moc.elgoog\u202c \u2066x\u2069\ufeff\u200d\u061c") ?? "";
    expect(shown).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u061c]/);
    expect(shown).toBe("Cla ude moc.elgoog x");
  });

  it("cuts a long name to a sane length, never inside a surrogate pair", () => {
    const shown = shownName("A".repeat(12_000)) ?? "";
    expect(Array.from(shown)).toHaveLength(SHOWN_NAME_MAX);
    expect(shown.endsWith("…")).toBe(true);
    const emoji = shownName("😀".repeat(100)) ?? "";
    expect(Array.from(emoji)).toHaveLength(SHOWN_NAME_MAX);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it("keeps an ordinary name as it is, and gives null for one with nothing visible", () => {
    expect(shownName("Claude Code")).toBe("Claude Code");
    expect(shownName("Café  Zürich 東京")).toBe("Café Zürich 東京");
    expect(shownName("\u200b\u202e\r\n")).toBeNull();
    expect(shownName(42)).toBeNull();
  });
});
