import { describe, expect, it } from "vitest";
import { counted, idList, named } from "../../../src/text/wording";

describe("counted", () => {
  it("puts the noun in the singular for one and the plural otherwise, zero included", () => {
    expect(counted(1, "ring")).toBe("1 ring");
    expect(counted(0, "tile")).toBe("0 tiles");
    expect(counted(3, "more wrong cell")).toBe("3 more wrong cells");
  });
  it("writes the number with the formatter it is given", () => {
    expect(counted(12045, "tile", (n) => n.toLocaleString("en-US"))).toBe("12,045 tiles");
  });
});

describe("idList", () => {
  it("lists every id of a short list and says none for an empty one", () => {
    expect(idList([4, 9, 12])).toBe("4, 9, 12");
    expect(idList([])).toBe("none");
  });
  it("lists the first ids of a long list and counts the rest, so no id is silently dropped", () => {
    const ids = Array.from({ length: 12 }, (_, i) => i * 3);
    const text = idList(ids);
    expect(text).toBe("0, 3, 6, 9, 12, 15, 18, 21 and 4 more");
    expect(idList(ids, 2)).toBe("0, 3 and 10 more");
  });
});

describe("named", () => {
  it("names one thing in the singular and several in the plural, with their ids", () => {
    expect(named("tile", [6])).toBe("tile 6");
    expect(named("cell", [4, 9])).toBe("cells 4, 9");
    expect(named("tile", [1, 2, 3, 4], 2)).toBe("tiles 1, 2 and 2 more");
  });
});
