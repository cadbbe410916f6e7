import { describe, expect, it } from "vitest";
import { shortLabel } from "../../../src/site/field/labels";

describe("tile labels", () => {
  it("keep numbered names of one team apart, whatever their common start", () => {
    const team = ["Tester h3 #1", "Tester h3 #2", "Tester h3 #3", "Tester h3 #4"].map(shortLabel);
    expect(new Set(team).size).toBe(4);
    expect(team[0]).toBe("Test…h3 #1");
    for (const label of team) expect([...label].length).toBeLessThanOrEqual(10);
  });

  it("leave short names whole, shorten bare machine ids, and never cut an emoji in half", () => {
    expect(shortLabel("alice")).toBe("alice");
    expect(shortLabel("0123456789")).toBe("0123456789");
    expect(shortLabel("m-0123456789abcdef")).toBe("012345");
    const emoji = shortLabel("🦊🦊🦊🦊🦊🦊🦊🦊🦊🦊🦊🦊");
    expect(emoji).toBe("🦊🦊🦊🦊…🦊🦊🦊🦊🦊");
    expect(emoji).not.toMatch(/\p{Cs}/u);
  });
});
