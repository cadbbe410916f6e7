import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { machineFromBearer } from "../../src/identity/api";
import { sha256Hex } from "../../src/text/encoding";
import { identityStub } from "../../src/identity/stub";
import { env, machine, mint } from "./identity-helpers";

describe("identity storage", () => {
  it("keeps only token hashes: no stored value reveals a token", async () => {
    const m = await machine();
    const first = await mint(m, Math.floor(Date.now() / 1000) - 1);
    const token = await mint(m);
    const dump = await runInDurableObject(identityStub(env, m.machineId), (_o, state) => {
      const sql = state.storage.sql;
      const tables = sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'").toArray();
      return Object.fromEntries(tables.map((t) => [t.name, sql.exec(`SELECT * FROM "${t.name}"`).toArray()]));
    });
    expect(Object.keys(dump).sort()).toEqual(["machines", "tokens", "used_signatures"]);
    const everything = JSON.stringify(dump);
    for (const t of [first, token]) {
      // msc_<machine hex>_<secret>: the secret is base64url, which may itself hold "_".
      const secret = /^msc_[0-9a-f]{16}_(.+)$/.exec(t)?.[1] ?? "";
      expect(secret).toHaveLength(43);
      expect(everything).not.toContain(secret);
    }
    expect(dump.tokens).toEqual([
      expect.objectContaining({ hash: await sha256Hex(first), machine_id: m.machineId, replaced_at: expect.any(Number) }),
      expect.objectContaining({ hash: await sha256Hex(token), machine_id: m.machineId, replaced_at: null }),
    ]);
    expect(dump.machines).toEqual([expect.objectContaining({ id: m.machineId, public_key: m.publicKey, name: null })]);
  });

  it("keeps a bounded number of replaced token hashes", async () => {
    const m = await machine();
    const t0 = Math.floor(Date.now() / 1000) - 20;
    for (let i = 0; i < 12; i++) await mint(m, t0 + i);
    const n = await runInDurableObject(identityStub(env, m.machineId), (_o, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM tokens").one().n);
    expect(n).toBe(9); // the current token and the 8 most recently replaced
  });

  it("stores nothing for lookups of machines it never saw (forged tokens, names, descriptions)", async () => {
    const id = "m-00000000deadbeef";
    const forged = `msc_${id.slice(2)}_${"A".repeat(43)}`;
    expect(await machineFromBearer(env, `Bearer ${forged}`)).toMatchObject({ ok: false, code: "token" });
    const stub = identityStub(env, id);
    expect(await stub.getName(id)).toBeNull();
    expect(await stub.describe(id)).toBeNull();
    const tables = await runInDurableObject(stub, (_o, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'").toArray(),
    );
    expect(tables).toEqual([]);
  });
});
