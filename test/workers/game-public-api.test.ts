import { exports } from "cloudflare:workers";
import { env as workerEnv } from "cloudflare:workers";
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateRing, type FieldParams } from "../../src/engine";
import { hexToBytes, sha256Hex, tileEncoding, tileHash } from "../../src/engine/commitments";
import type { Field } from "../../src/engine/types";
import type { Env } from "../../src/env";
import { decodeKnown } from "../../src/referee";
import { createPlaying, ok, ScriptedPlayers, type RawStub } from "./game-helpers";

/**
 * Tile commitments and the public read API (SPEC §9, §10) inside workerd: every field draws a
 * secret key and publishes its commitment and every tile's HMAC as the tile comes into existence;
 * /api/games… answers manifest, hashes, tiles of a rectangle (fog respected) and paged events,
 * with ETags and 304s, never a secret, and never creating a field for an unknown id.
 */

const env = workerEnv as unknown as Env;
const PARAMS = { kind: "field" as const, chunks: 2, chunk_g: 40, grow: true, G: 200 };
const FOG = { guess: "accept" as const, depth: 0 as const, fog: true };

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await exports.default.fetch(`http://mosaic.test${path}`, { headers });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function getJson<T = Record<string, unknown>>(path: string): Promise<T> {
  const r = await get(path);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return JSON.parse(r.text) as T;
}

async function storedSecrets(raw: RawStub): Promise<{ seed: string; key: string }> {
  return runInDurableObject(raw, (_o, state) => {
    const meta = (k: string) => JSON.parse(state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", k).one().value) as string;
    return { seed: meta("seed"), key: meta("day_key") };
  });
}

async function expectedHashes(gameId: string, key: string, field: Field): Promise<string[]> {
  const bytes = hexToBytes(key);
  return Promise.all(field.tiles.map((t) => tileHash(bytes, tileEncoding(gameId, t, field.solution, field.G))));
}

interface TilesAnswer {
  revision: number;
  fog: boolean;
  rect: number[];
  tiles: Array<{ id: number; status: string; agent: string | null; hash: string; x0: number; y0: number; w: number; h: number }>;
  known: { gaps: number[]; values: string };
}

describe("tile commitments", () => {
  it("publishes hash_key_commit and every tile's HMAC, grown rings included, equal to the engine's", async () => {
    const { stub, raw, gameId, field, seed } = await createPlaying(PARAMS, 200, { rules: FOG, grow: { frontier_coverage: 0.1 } });
    const secrets = await storedSecrets(raw);
    expect(secrets.seed).toBe(seed);
    expect(secrets.key).toMatch(/^[0-9a-f]{64}$/);

    const manifest = await getJson<{ hash_key_commit: string; seed_commit: string; log_head: { hash: string; rev: number }; rings: number }>(`/api/games/${gameId}`);
    expect(manifest.hash_key_commit).toBe(await sha256Hex(hexToBytes(secrets.key)));
    expect(manifest.log_head).toEqual({ hash: manifest.seed_commit, rev: 0 });
    expect(manifest.rings).toBe(0);

    const hashes = await getJson<{ hashes: Array<{ id: number; hash: string }> }>(`/api/games/${gameId}/hashes`);
    const expected = await expectedHashes(gameId, secrets.key, field);
    expect(hashes.hashes).toEqual(expected.map((hash, id) => ({ id, hash })));
    // Ids and hashes only.
    expect(Object.keys(hashes.hashes[0]).sort()).toEqual(["hash", "id"]);

    // Grow a ring: its tiles get their hashes as they come into existence.
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    while (ok(await stub.manifest()).rings === 0 && players.revision < 200) {
      if ((await players.pass(1)) === 0) await players.join();
      await runDurableObjectAlarm(raw);
    }
    for (let i = 0; i < 600 && ok(await stub.manifest()).rings === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const ring = await generateRing(seed, { ...PARAMS, seed } as FieldParams, 1, field);
    const grown: Field = { G: field.G, tiles: [...field.tiles, ...ring.tiles], solution: ring.solution };
    const after = await getJson<{ hashes: Array<{ id: number; hash: string }> }>(`/api/games/${gameId}/hashes`);
    expect(after.hashes).toEqual((await expectedHashes(gameId, secrets.key, grown)).map((hash, id) => ({ id, hash })));
    expect((await getJson<{ rings: number; tiles_total: number }>(`/api/games/${gameId}`))).toMatchObject({ rings: 1, tiles_total: grown.tiles.length });
  });
});

describe("public read API", () => {
  it("serves manifest, tiles under fog and paged events; no public answer carries a secret or an unrevealed cell", async () => {
    const { stub, raw, gameId, field } = await createPlaying(PARAMS, 200, { rules: FOG, grow: { every_minutes: 600 } });
    const secrets = await storedSecrets(raw);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    await players.pass(3);
    const bodies: string[] = [];
    const read = async <T,>(path: string): Promise<T> => {
      const r = await get(path);
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      bodies.push(r.text);
      return JSON.parse(r.text) as T;
    };

    const list = await read<{ games: Array<{ game_id: string }> }>("/api/games");
    expect(list.games.map((g) => g.game_id)).toContain(gameId);
    const manifest = await read<Record<string, unknown>>(`/api/games/${gameId}`);
    expect(manifest).toMatchObject({ game_id: gameId, status: "playing", G: 200, rings: 0, closes_at: null });
    for (const key of ["seed", "day_seed", "day_key"]) expect(manifest).not.toHaveProperty(key);
    await read(`/api/games/${gameId}/hashes`);

    // Tiles of the whole canvas, in four windows: the reached ones only, each with hash and solver.
    const seen = new Map<number, TilesAnswer["tiles"][number]>();
    const known: Array<[number, 0 | 1]> = [];
    for (const [x, y] of [[0, 0], [100, 0], [0, 100], [100, 100]]) {
      const view = await read<TilesAnswer>(`/api/games/${gameId}/tiles?rect=${x},${y},100,100`);
      expect(view.fog).toBe(true);
      for (const t of view.tiles) seen.set(t.id, t);
      known.push(...decodeKnown(view.known));
    }
    const observed = new Map<number, string>();
    for (const agent of players.agents) {
      const o = ok(await stub.observe({ agent })).observation as { tiles: Array<{ id: number; status: string }> };
      for (const t of o.tiles) observed.set(t.id, t.status);
    }
    const revealed = [...observed].filter(([, s]) => s !== "hidden").map(([id]) => id);
    expect(revealed.length).toBeGreaterThan(0);
    for (const id of revealed) expect(seen.get(id)?.status).toBe(observed.get(id));
    // Fog: hidden tiles that no group reached are not listed (the field has many more tiles).
    expect(seen.size).toBeLessThan(field.tiles.length / 2);
    const hashes = await expectedHashes(gameId, secrets.key, field);
    for (const t of seen.values()) expect(t.hash).toBe(hashes[t.id]);
    // Every known cell shown lies in a revealed tile and holds the true value.
    const revealedCells = new Set(revealed.flatMap((id) => field.tiles[id].cellIds));
    expect(known.length).toBeGreaterThan(0);
    for (const [cell, v] of known) {
      expect(revealedCells.has(cell)).toBe(true);
      expect(v).toBe(field.solution[cell]);
    }

    // Events, paged: from=2&limit=2 then on; together the whole chained log.
    const all = await read<{ events: Array<{ rev: number; hash: string; prev: string }>; log_head: { hash: string; rev: number }; next: number | null }>(`/api/games/${gameId}/events`);
    expect(all.events.map((e) => e.rev)).toEqual(Array.from({ length: all.log_head.rev }, (_, i) => i + 1));
    expect(all.next).toBeNull();
    const page = await read<{ events: Array<{ rev: number }>; next: number | null }>(`/api/games/${gameId}/events?from=2&limit=2`);
    expect(page.events.map((e) => e.rev)).toEqual([2, 3]);
    expect(page.next).toBe(4);
    expect(all.log_head.hash).toBe(all.events[all.events.length - 1].hash);

    // No public answer carries the seed, the key, or the value of a cell that is not known.
    const knownCells = new Set(known.map(([c]) => c));
    for (const body of bodies) {
      expect(body).not.toContain(secrets.seed);
      expect(body).not.toContain(secrets.key);
    }
    const hiddenTile = field.tiles.find((t) => !observed.has(t.id) && t.cellIds.every((c) => !knownCells.has(c)))!;
    const encodingTail = tileEncoding(gameId, hiddenTile, field.solution, field.G).split("|").slice(5).join("|");
    for (const body of bodies) expect(body).not.toContain(encodingTail);
  });

  it("answers 304 to a matching If-None-Match and a new ETag once the revision moves", async () => {
    const { stub, gameId, field } = await createPlaying(PARAMS, 200, { rules: FOG, grow: { every_minutes: 600 } });
    const paths = [`/api/games/${gameId}`, `/api/games/${gameId}/hashes`, `/api/games/${gameId}/tiles?rect=0,0,200,200`, `/api/games/${gameId}/events?from=1`, "/api/games"];
    const tags = new Map<string, string>();
    for (const path of paths) {
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("ETag")!;
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get("Cache-Control")).toMatch(/no-cache|immutable/);
      const again = await get(path, { "If-None-Match": etag });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe("");
      tags.set(path, etag);
    }
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    for (const path of [`/api/games/${gameId}`, `/api/games/${gameId}/tiles?rect=0,0,200,200`, `/api/games/${gameId}/events?from=1`]) {
      const r = await get(path, { "If-None-Match": tags.get(path)! });
      expect(r.status, path).toBe(200);
      expect(r.headers.get("ETag")).not.toBe(tags.get(path));
    }
    // The hashes only change when tiles are added: still 304.
    expect((await get(`/api/games/${gameId}/hashes`, { "If-None-Match": tags.get(`/api/games/${gameId}/hashes`)! })).status).toBe(304);
    // A page that stops before the head never changes: cached for good; the last page is not.
    const full = await get(`/api/games/${gameId}/events?from=1&limit=1`);
    expect(full.headers.get("Cache-Control")).toContain("immutable");
    expect((await get(`/api/games/${gameId}/events?from=2&limit=1`)).headers.get("Cache-Control")).toBe("public, no-cache");
  });

  it("refuses bad queries clearly and reads of unknown ids create no field object", async () => {
    const { gameId } = await createPlaying({ kind: "scatter", G: 24 }, 24);
    expect((await get(`/api/games/${gameId}/tiles`)).status).toBe(400);
    expect((await get(`/api/games/${gameId}/tiles?rect=0,0,0,5`)).status).toBe(400);
    for (const from of ["-1", "1.5", "x", "1e3"]) expect((await get(`/api/games/${gameId}/events?from=${from}`)).status, from).toBe(400);
    expect((await get(`/api/games/${gameId}/events?limit=5000`)).status).toBe(400);
    const unknown = `never-${Date.now().toString(36)}`;
    for (const path of ["", "/hashes", "/tiles?rect=0,0,10,10", "/events"]) {
      const r = await get(`/api/games/${unknown}${path}`);
      expect(r.status).toBe(404);
      expect(JSON.parse(r.text).error.code).toBe("missing");
    }
    expect((await get(`/api/games/${"x".repeat(81)}`)).status).toBe(404);
    const created = async (name: string) => (await listDurableObjectIds(env.FIELDS)).some((id) => id.equals(env.FIELDS.idFromName(name)));
    expect(await created(unknown)).toBe(false);
    // The check can fail: calling the object directly does create it.
    const probe = `${unknown}-probe`;
    await env.FIELDS.getByName(probe).status();
    expect(await created(probe)).toBe(true);
  });
});
