import { env } from "cloudflare:workers";
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_HEADER } from "../../src/http/edge-cache";
import { createApp } from "../../src/http/app";
import type { FieldObject } from "../../src/game/field-object";
import { createPlaying, joinArgs, machineId, ok, type RawStub } from "./game-helpers";

// Public reads through the edge cache (src/http/edge-cache.ts) in workerd, with the Cache API the
// runtime gives a Worker: how many reads reach the field's object when many readers ask for the
// same answers. The object's read methods are counted where the object serves them.

const BASE = "http://mosaic.test";
const READS = ["publicRead", "spectatorSnapshot", "leaderboard", "analysis"] as const;
type ReadMethod = (typeof READS)[number];

const reads: Record<ReadMethod, number> = { publicRead: 0, spectatorSnapshot: 0, leaderboard: 0, analysis: 0 };
let restore: Array<() => void> = [];

/** Counts the object's read calls (its class's methods, wrapped in place for this file). */
async function countReads(raw: RawStub): Promise<void> {
  await runInDurableObject(raw, (instance: FieldObject) => {
    const proto = Object.getPrototypeOf(instance) as Record<ReadMethod, (...args: unknown[]) => unknown>;
    for (const name of READS) {
      const original = proto[name];
      proto[name] = function (this: unknown, ...args: unknown[]) {
        reads[name]++;
        return original.apply(this, args);
      };
      restore.push(() => (proto[name] = original));
    }
  });
}

afterEach(() => {
  for (const undo of restore.reverse()) undo();
  restore = [];
  for (const name of READS) reads[name] = 0;
});

/** The Worker's router with the cache's time for answers at the head, as a deployment sets it. */
async function get(path: string, ttl: string, headers: Record<string, string> = {}): Promise<Response> {
  const app = createApp();
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(BASE + path, { headers }), { ...env, MOSAIC_EDGE_CACHE_S: ttl }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function playingField(seed: string): Promise<{ raw: RawStub; gameId: string }> {
  const { raw, gameId } = await createPlaying({ kind: "scatter", G: 20 }, 20, { seed });
  for (let i = 0; i < 200 && (await get(`/api/games/${gameId}`, "0")).status === 404; i++) await new Promise((r) => setTimeout(r, 25));
  await countReads(raw);
  return { raw, gameId };
}

describe("the edge cache in front of a field's public reads", () => {
  it("serves many spectators loading the same revision with one read of the object per answer", async () => {
    const { gameId } = await playingField("edge-cache-crowd");
    const paths = [`/api/games/${gameId}/snapshot`, `/api/games/${gameId}`, `/api/games/${gameId}/hashes`, `/api/games/${gameId}/tiles?rect=0,0,10,10`, `/api/games/${gameId}/events?from=1`, `/api/games/${gameId}/leaderboard`];
    const bodies = new Map<string, Set<string>>();
    for (let i = 0; i < 25; i++) {
      for (const path of paths) {
        const res = await get(path, "60");
        expect(res.status, path).toBe(200);
        expect(res.headers.get(CACHE_HEADER), path).toBe(i === 0 ? "miss" : "hit");
        bodies.set(path, (bodies.get(path) ?? new Set()).add(await res.text()));
      }
    }
    // 25 readers of 6 answers: one read each, every reader the same bytes.
    expect(reads.spectatorSnapshot).toBe(1);
    expect(reads.leaderboard).toBe(1);
    expect(reads.publicRead).toBe(4);
    for (const [path, seen] of bodies) expect(seen.size, path).toBe(1);
  });

  it("shares one read among concurrent readers of a cold answer", async () => {
    const { gameId } = await playingField("edge-cache-burst");
    const answers = await Promise.all(Array.from({ length: 40 }, () => get(`/api/games/${gameId}/snapshot`, "60")));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(reads.spectatorSnapshot).toBe(1);
  });

  it("answers a reader's If-None-Match 304 from the cache, without the object", async () => {
    const { gameId } = await playingField("edge-cache-304");
    const first = await get(`/api/games/${gameId}/snapshot`, "60");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/"s\d+-/);
    const again = await get(`/api/games/${gameId}/snapshot`, "60", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(again.headers.get(CACHE_HEADER)).toBe("hit");
    expect(reads.spectatorSnapshot).toBe(1);
  });

  it("reads the object again once an answer at the head has had its second, and then sees the new revision", async () => {
    const { raw, gameId } = await playingField("edge-cache-expiry");
    const before = (await (await get(`/api/games/${gameId}/snapshot`, "1")).json()) as { revision: number };
    ok(await (raw as unknown as Pick<FieldObject, "join">).join(joinArgs(machineId(0xe1))));
    const within = (await (await get(`/api/games/${gameId}/snapshot`, "1")).json()) as { revision: number };
    expect(within.revision).toBe(before.revision); // the same second: the cached revision
    await new Promise((r) => setTimeout(r, 2100));
    const after = (await (await get(`/api/games/${gameId}/snapshot`, "1")).json()) as { revision: number };
    expect(after.revision).toBe(before.revision + 1);
    expect(reads.spectatorSnapshot).toBe(2);
  });

  it("keeps nothing at the head with MOSAIC_EDGE_CACHE_S=0 (local default: a read sees every answered write)", async () => {
    const { raw, gameId } = await playingField("edge-cache-off");
    for (let i = 0; i < 5; i++) expect((await get(`/api/games/${gameId}/snapshot`, "0")).headers.get(CACHE_HEADER)).toBe("miss");
    expect(reads.spectatorSnapshot).toBe(5);
    const rev = ((await (await get(`/api/games/${gameId}/snapshot`, "0")).json()) as { revision: number }).revision;
    ok(await (raw as unknown as Pick<FieldObject, "join">).join(joinArgs(machineId(0xe2))));
    const fresh = await get(`/api/games/${gameId}/snapshot`, "0");
    expect(((await fresh.json()) as { revision: number }).revision).toBe(rev + 1);
    // A reader's revalidation goes to the object, which answers 304 for the same revision.
    const again = await get(`/api/games/${gameId}/snapshot`, "0", { "If-None-Match": fresh.headers.get("ETag")! });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(fresh.headers.get("ETag"));
  });

  it("keeps a page of events that stops before the head for good, even with the head's cache off", async () => {
    const { raw, gameId } = await playingField("edge-cache-pages");
    const stub = raw as unknown as Pick<FieldObject, "join">;
    for (let m = 0; m < 3; m++) ok(await stub.join(joinArgs(machineId(0xf0 + m))));
    // Events 1..2 of at least 3: a complete page.
    for (let i = 0; i < 6; i++) {
      const res = await get(`/api/games/${gameId}/events?limit=2&from=1`, "0");
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toContain("immutable");
      expect(res.headers.get(CACHE_HEADER)).toBe(i === 0 ? "miss" : "hit");
    }
    // The same page asked with its query in another order is the same entry.
    expect((await get(`/api/games/${gameId}/events?from=1&limit=2`, "0")).headers.get(CACHE_HEADER)).toBe("hit");
    expect(reads.publicRead).toBe(1);
  });

  it("never keeps refusals: an unknown field stays unknown and costs no object", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await get("/api/games/no-such-field-edge/snapshot", "60");
      expect(res.status).toBe(404);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get(CACHE_HEADER)).toBe("miss");
    }
  });

  it("keeps an archive for good: later readers get the same bytes without reading R2", async () => {
    const json = JSON.stringify({ format: "test", padding: "x".repeat(5000) });
    const gz = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    await env.ARCHIVES.put("day-2001-02-03.json.gz", gz);
    const first = await get("/api/archives/day-2001-02-03.json.gz", "0");
    expect(first.status).toBe(200);
    expect(first.headers.get(CACHE_HEADER)).toBe("miss");
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(gz);
    // Gone from R2: only the cache can still answer.
    await env.ARCHIVES.delete("day-2001-02-03.json.gz");
    const file = await get("/api/archives/day-2001-02-03.json.gz", "0");
    expect(file.headers.get(CACHE_HEADER)).toBe("hit");
    expect(file.headers.get("Content-Type")).toBe("application/gzip");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(gz);
    const asJson = await get("/api/archives/day-2001-02-03", "0");
    expect(asJson.headers.get(CACHE_HEADER)).toBe("hit");
    expect(asJson.headers.get("Content-Encoding")).toBe("gzip");
    // Handed to the runtime as-is (encodeBody "manual"): a client's HTTP layer inflates it.
    expect(new Uint8Array(await asJson.arrayBuffer())).toEqual(gz);
    const etag = first.headers.get("ETag")!;
    expect((await get("/api/archives/day-2001-02-03", "0", { "If-None-Match": etag })).status).toBe(304);
  });
});
