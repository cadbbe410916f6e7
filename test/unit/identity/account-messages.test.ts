import { describe, expect, it } from "vitest";
import {
  accountCreateMessage,
  accountInviteMessage,
  accountJoinMessage,
  accountNameMessage,
  accountUnlinkMessage,
  decodeInvitation,
  encodeInvitation,
  type Invitation,
} from "../../../src/identity/account-messages";

const inv: Invitation = { account: "a-0123456789abcdef", publicKey: "A".repeat(43) + "=", ts: 1_760_000_000, for: "*", sig: "s".repeat(86) };

describe("account messages (SPEC §8.2, docs/identity.md 'Accounts')", () => {
  it("are the documented strings, host port included", () => {
    expect(accountCreateMessage("127.0.0.1:8787", 1700000000, "Ada's machines")).toBe("mosaic-account-create:127.0.0.1:8787:1700000000:Ada's machines");
    expect(accountInviteMessage("mosaic.example", 17, "a-0123456789abcdef", "*")).toBe("mosaic-account-invite:mosaic.example:17:a-0123456789abcdef:*");
    expect(accountInviteMessage("mosaic.example", 17, "a-0123456789abcdef", "m-00000000000000ff")).toBe("mosaic-account-invite:mosaic.example:17:a-0123456789abcdef:m-00000000000000ff");
    expect(accountJoinMessage("h:1", 18, "a-0123456789abcdef", "SIG")).toBe("mosaic-account-join:h:1:18:a-0123456789abcdef:SIG");
    expect(accountUnlinkMessage("h", 19, "a-0123456789abcdef", "m-00000000000000ff")).toBe("mosaic-account-unlink:h:19:a-0123456789abcdef:m-00000000000000ff");
    expect(accountNameMessage("h", 20, "a-0123456789abcdef", "New")).toBe("mosaic-account-name:h:20:a-0123456789abcdef:New");
  });

  it("an invitation is one pasteable word that decodes to what was encoded", () => {
    const word = encodeInvitation(inv);
    expect(word).toMatch(/^mosaic-invite\.[A-Za-z0-9_-]+$/);
    expect(decodeInvitation(word)).toEqual({ ok: true, invitation: inv });
    expect(decodeInvitation(`  ${word}\n`)).toEqual({ ok: true, invitation: inv });
    const named = { ...inv, for: "m-00000000000000ff" };
    expect(decodeInvitation(encodeInvitation(named))).toEqual({ ok: true, invitation: named });
  });

  it("a malformed invitation is refused with the reason", () => {
    const wrap = (o: unknown): string => "mosaic-invite." + Buffer.from(JSON.stringify(o)).toString("base64url");
    const cases: Array<[string, RegExp]> = [
      ["hello", /does not start with 'mosaic-invite.'/],
      ["mosaic-invite.!!!", /not base64url/],
      ["mosaic-invite." + Buffer.from("not json").toString("base64url"), /does not hold JSON/],
      [wrap([1]), /its account/],
      [wrap({ ...inv, account: "a-XYZ" }), /its account is not 'a-' and 16 hex digits/],
      [wrap({ ...inv, publicKey: 7 }), /publicKey/],
      [wrap({ ...inv, ts: 1.5 }), /ts is not unix seconds/],
      [wrap({ ...inv, ts: -1 }), /ts is not unix seconds/],
      [wrap({ ...inv, for: "anyone" }), /'for' is neither a machine id nor '\*'/],
      [wrap({ ...inv, sig: undefined }), /lacks the member's sig/],
      ["mosaic-invite." + "A".repeat(3000), /far too long/],
    ];
    for (const [text, reason] of cases) {
      const r = decodeInvitation(text);
      expect(r.ok, text.slice(0, 40)).toBe(false);
      expect(!r.ok && r.message, text.slice(0, 40)).toMatch(reason);
      expect(!r.ok && r.message).toMatch(/^malformed invitation: .*paste the whole 'mosaic-invite.…' word/);
    }
  });
});
