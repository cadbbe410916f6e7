import { describe, expect, it } from "vitest";
import { accessClaimOf, accessTokenHash, accessTokenParts, bearerTokenOf, isFieldProvenCall, issuedExpiryMs } from "../../../src/oauth/access-tokens";
import { sha256Hex } from "../../../src/text/encoding";

const MACHINE = "m-0123456789abcdef";
const GRANT = "Ab3_-xYz09QrStUv";
const SECRET = "k".repeat(32);
const TOKEN = `${MACHINE}:${GRANT}:${SECRET}`;
const RESOURCE = "https://mosaic.example/mcp/signed-in";

describe("access tokens as the signed-in URL's fast path reads them", () => {
  it("reads the header as the provider does", () => {
    expect(bearerTokenOf(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerTokenOf(`bearer\t${TOKEN}`)).toBe(TOKEN);
    expect(bearerTokenOf(`Bearer ${TOKEN}, extra`)).toBeNull();
    expect(bearerTokenOf(`Basic ${TOKEN}`)).toBeNull();
    expect(bearerTokenOf(null)).toBeNull();
  });

  it("names the machine and grant of a token of the provider's form, and nothing else", () => {
    expect(accessTokenParts(TOKEN)).toEqual({ machineId: MACHINE, grantId: GRANT });
    for (const bad of [
      `msc_0123456789abcdef_${"a".repeat(43)}`,
      `${MACHINE}:${GRANT}`,
      `${MACHINE}:${GRANT}:${SECRET}:x`,
      `m-0123456789ABCDEF:${GRANT}:${SECRET}`,
      `user-1:${GRANT}:${SECRET}`,
      `${MACHINE}:${GRANT}:short`,
      `${MACHINE}:gr ant!:${SECRET}`,
      `${MACHINE}:${GRANT}:${"k".repeat(129)}`,
    ]) {
      expect(accessTokenParts(bad), bad).toBeNull();
    }
  });

  it("hashes the token with the resource it is used at: no hash of the bare token, another origin another hash", async () => {
    const hash = await accessTokenHash(RESOURCE, TOKEN);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(await sha256Hex(TOKEN));
    expect(hash).not.toBe(await accessTokenHash("https://other.example/mcp/signed-in", TOKEN));
    expect(await accessClaimOf(RESOURCE, TOKEN)).toEqual({ machineId: MACHINE, grantId: GRANT, tokenHash: hash });
    expect(await accessClaimOf(RESOURCE, "not-a-token")).toBeNull();
  });

  it("never outlives the provider's expiry (whole seconds from the request's start)", () => {
    expect(issuedExpiryMs(1_000_999, 900)).toBe(1_000_000 + 900_000);
    expect(issuedExpiryMs(1_000_000, 60)).toBe(1_060_000);
  });

  it("sends only the play tools that prove their claim at a field the fast way", () => {
    for (const name of ["join", "observe", "reveal", "commit", "retract"]) expect(isFieldProvenCall({ method: "tools/call", params: { name } })).toBe(true);
    expect(isFieldProvenCall({ method: "tools/call", params: { name: "start_mosaic" } })).toBe(false);
    expect(isFieldProvenCall({ method: "tools/call", params: { name: "list_games" } })).toBe(false);
    expect(isFieldProvenCall({ method: "initialize", params: { name: "observe" } })).toBe(false);
    expect(isFieldProvenCall({ method: "tools/call" })).toBe(false);
  });
});
