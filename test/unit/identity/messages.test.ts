import { describe, expect, it } from "vitest";
import { joinMessage, keyAuthMessage, keyNameMessage } from "../../../src/identity/messages";
import { NAME_RE } from "../../../src/identity/key-requests";
import { newToken, tokenHash, tokenMachineId } from "../../../src/identity/tokens";

describe("signed message formats (SPEC §8)", () => {
  it("are exactly the documented strings", () => {
    expect(keyAuthMessage("127.0.0.1:8787", 1700000000)).toBe("mosaic-key-auth:127.0.0.1:8787:1700000000");
    expect(keyNameMessage("mosaic.example", 1700000000, "Ada (v2)")).toBe("mosaic-key-name:mosaic.example:1700000000:Ada (v2)");
    expect(joinMessage("day-2026-11-29", "AAAA=", 28333333, "1")).toBe("mosaic-join|day-2026-11-29|AAAA=|28333333|1");
  });
});

describe("bearer tokens", () => {
  it("carry the machine id and 256 random bits, and differ every time", () => {
    const a = newToken("m-0123456789abcdef");
    const b = newToken("m-0123456789abcdef");
    expect(a).toMatch(/^msc_0123456789abcdef_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(tokenMachineId(a)).toBe("m-0123456789abcdef");
  });

  it("are recognised only in the minted shape", () => {
    expect(tokenMachineId("msc_0123456789abcdef_short")).toBeNull();
    expect(tokenMachineId("msc_0123456789ABCDEF_" + "A".repeat(43))).toBeNull();
    expect(tokenMachineId("Bearer msc_0123456789abcdef_" + "A".repeat(43))).toBeNull();
  });

  it("are stored as their SHA-256", async () => {
    // SHA-256("abc")
    expect(await tokenHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("display names", () => {
  it("allow letters of any script, digits, space and . _ - ' ( )", () => {
    for (const ok of ["a", "Ada", "node agent", "Zoë_2 (beta)", "O'Brien-3.1", "张伟", "x".repeat(40)]) expect(NAME_RE.test(ok), ok).toBe(true);
  });
  it("refuse edge spaces, markup, control characters and more than 40 characters", () => {
    for (const bad of ["", " a", "a ", "<b>", "a\nb", "a\tb", "x".repeat(41), "a:b", "emoji 😀"]) expect(NAME_RE.test(bad), bad).toBe(false);
  });
});
