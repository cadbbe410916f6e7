import { describe, expect, it } from "vitest";
import { z } from "zod";
import { published, withoutSafeIntegerBounds } from "../../../src/mcp/tools/published-schema";

describe("the published argument schema", () => {
  it("drops zod's safe-integer bounds and the dialect line, keeps real bounds, and validates as before", () => {
    const schema = z.object({ tile: z.number().int().min(0), cells: z.array(z.number().int()).max(3) });
    const json = (published(schema)["~standard"] as unknown as { jsonSchema: { input(o: { target: string }): Record<string, unknown> } }).jsonSchema.input({ target: "draft-2020-12" });
    expect(JSON.stringify(json)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(JSON.stringify(json)).not.toContain(String(Number.MIN_SAFE_INTEGER));
    expect(json.$schema).toBeUndefined();
    expect(json).toMatchObject({ properties: { tile: { minimum: 0 }, cells: { maxItems: 3 } } });
    expect(published(schema).safeParse({ tile: -1, cells: [] }).success).toBe(false);
    expect(withoutSafeIntegerBounds({ a: [{ maximum: 5, minimum: Number.MIN_SAFE_INTEGER }] })).toEqual({ a: [{ maximum: 5 }] });
  });
});
