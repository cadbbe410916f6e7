import { describe, expect, it } from "vitest";
import { repeatedMemberName } from "../../../src/daily/audit/read-archive";

describe("auditor: a member name written twice in one object", () => {
  it("finds it at any depth, and only within one object", () => {
    expect(repeatedMemberName('{"a":1,"b":{"a":2,"c":[{"a":3},{"a":4}]}}')).toBeNull();
    expect(repeatedMemberName('{"a":1,"b":{"x":2,"x":3}}')).toEqual({ name: "x", offset: 18 });
    expect(repeatedMemberName('{"e":[{"id":1,"v":0},{"id":2,"v":1,"id":3}]}')?.name).toBe("id");
    expect(repeatedMemberName('{"a":1,"a":1}')?.name).toBe("a");
  });

  it("reads strings as JSON does: escaped quotes and backslashes, and names spelled with escapes", () => {
    // A value holding what looks like a repeated name is text, not a member.
    expect(repeatedMemberName('{"intent":"\\"intent\\":1, \\\\","b":"x\\\\"}')).toBeNull();
    // "\u0061" is the name "a".
    expect(repeatedMemberName('{"a":1,"\\u0061":2}')?.name).toBe("a");
    // Names equal only after a value that is a list of strings with commas and braces.
    expect(repeatedMemberName('{"l":["{\\"a\\":1,","}"],"m":1,"m":2}')?.name).toBe("m");
  });
});
