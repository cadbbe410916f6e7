import { describe, expect, it } from "vitest";
import { isValidLine, validLineCount, validLines } from "../../../src/engine/lines";

describe("valid line tables", () => {
  it("has the counts of SPEC §2 / OEIS A177790", () => {
    expect([2, 4, 6, 8, 10, 12, 14, 16, 18, 20].map(validLineCount)).toEqual([
      2, 6, 14, 34, 84, 208, 518, 1296, 3254, 8196,
    ]);
  });

  it("lists exactly the balanced lines without a run of three (exhaustive up to 16)", () => {
    for (let len = 2; len <= 16; len += 2) {
      const expected: number[] = [];
      for (let bits = 0; bits < 1 << len; bits++) if (isValidLine(bits, len)) expected.push(bits);
      expect(Array.from(validLines(len))).toEqual(expected);
    }
  });

  it("rejects odd and out-of-range lengths", () => {
    expect(validLineCount(7)).toBe(0);
    expect(validLineCount(22)).toBe(0);
    expect(() => validLines(3)).toThrow(RangeError);
  });
});
