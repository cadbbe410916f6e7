import { describe, expect, it } from "vitest";
import { VOUCH_TTL_MS, VouchedTokens } from "../../../src/identity/vouched-tokens";

const A = { machineId: "m-000000000000000a", tokenHash: "hash-a1" };
const A2 = { machineId: A.machineId, tokenHash: "hash-a2" };
const B = { machineId: "m-000000000000000b", tokenHash: "hash-b1" };

describe("vouched tokens held by a field", () => {
  it("proves a machine only for the exact token vouched for, until the vouch expires", () => {
    const held = new VouchedTokens();
    expect(held.lookup(A, 0)).toBeUndefined();
    expect(held.remember(A, { machineId: A.machineId, epoch: 1 }, 0)).toBe(true);
    expect(held.lookup(A, 1)).toBe(A.machineId);
    expect(held.lookup({ ...A, tokenHash: "other" }, 1)).toBeUndefined();
    expect(held.lookup(B, 1)).toBeUndefined();
    expect(held.lookup(A, VOUCH_TTL_MS - 1)).toBe(A.machineId);
    expect(held.lookup(A, VOUCH_TTL_MS)).toBeUndefined();
  });

  it("never keeps a vouch for another machine than the token names", () => {
    const held = new VouchedTokens();
    expect(held.remember(A, { machineId: B.machineId, epoch: 1 }, 0)).toBe(false);
    expect(held.lookup(A, 0)).toBeUndefined();
  });

  it("drops a vouch when a later token is minted, and keeps the machine's other tokens apart", () => {
    const held = new VouchedTokens();
    held.remember(A, { machineId: A.machineId, epoch: 3 }, 0);
    held.remember(B, { machineId: B.machineId, epoch: 1 }, 0);
    held.revoke(A.machineId, 4);
    expect(held.lookup(A, 1)).toBeUndefined();
    expect(held.lookup(B, 1)).toBe(B.machineId);
    // The new token is vouched at the revocation's epoch and held.
    expect(held.remember(A2, { machineId: A.machineId, epoch: 4 }, 1)).toBe(true);
    expect(held.lookup(A2, 2)).toBe(A.machineId);
    // A revocation at an epoch the held token already has (a repeated or late message) changes nothing.
    held.revoke(A.machineId, 4);
    held.revoke(A.machineId, 2);
    expect(held.lookup(A2, 3)).toBe(A.machineId);
  });

  it("refuses a vouch that crossed a revocation on its way: the token was replaced meanwhile", () => {
    const held = new VouchedTokens();
    // The identity object vouched for A at epoch 3, then minted epoch 4 and told the field, and the
    // revocation arrived first.
    held.revoke(A.machineId, 4);
    expect(held.remember(A, { machineId: A.machineId, epoch: 3 }, 0)).toBe(false);
    expect(held.lookup(A, 0)).toBeUndefined();
  });
});

describe("access tokens held by a field (SPEC §8.1)", () => {
  const ACCESS = { machineId: A.machineId, tokenHash: "access-1" };
  const ACCESS2 = { machineId: A.machineId, tokenHash: "access-2" };

  it("never holds a vouch past the token's own expiry", () => {
    const held = new VouchedTokens();
    expect(held.remember(ACCESS, { machineId: A.machineId, epoch: 1, untilMs: 5_000 }, 0)).toBe(true);
    expect(held.lookup(ACCESS, 4_999)).toBe(A.machineId);
    expect(held.lookup(ACCESS, 5_000)).toBeUndefined();
    // An already expired token is not kept at all.
    expect(held.remember(ACCESS, { machineId: A.machineId, epoch: 1, untilMs: 5_000 }, 5_000)).toBe(false);
  });

  it("holds a machine's bearer token and its access tokens side by side", () => {
    const held = new VouchedTokens();
    held.remember(A, { machineId: A.machineId, epoch: 1 }, 0);
    held.remember(ACCESS, { machineId: A.machineId, epoch: 1, untilMs: 60_000 }, 0);
    held.remember(ACCESS2, { machineId: A.machineId, epoch: 1, untilMs: 60_000 }, 0);
    expect([A, ACCESS, ACCESS2].map((c) => held.lookup(c, 1))).toEqual([A.machineId, A.machineId, A.machineId]);
  });

  it("forgets revoked access tokens at once, keeps the others, and refuses a vouch for them that crossed the revocation", () => {
    const held = new VouchedTokens();
    held.remember(A, { machineId: A.machineId, epoch: 1 }, 0);
    held.remember(ACCESS, { machineId: A.machineId, epoch: 1, untilMs: 60_000 }, 0);
    held.forget(A.machineId, [ACCESS.tokenHash, ACCESS2.tokenHash], 60_000, 1);
    expect(held.lookup(ACCESS, 2)).toBeUndefined();
    expect(held.lookup(A, 2)).toBe(A.machineId);
    expect(held.remember(ACCESS2, { machineId: A.machineId, epoch: 1, untilMs: 60_000 }, 3)).toBe(false);
    expect(held.lookup(ACCESS2, 3)).toBeUndefined();
  });

  it("a new mint drops the access tokens' vouches too, which are then asked for again", () => {
    const held = new VouchedTokens();
    held.remember(ACCESS, { machineId: A.machineId, epoch: 1, untilMs: 60_000 }, 0);
    held.revoke(A.machineId, 2);
    expect(held.lookup(ACCESS, 1)).toBeUndefined();
    expect(held.remember(ACCESS, { machineId: A.machineId, epoch: 2, untilMs: 60_000 }, 1)).toBe(true);
  });
});
