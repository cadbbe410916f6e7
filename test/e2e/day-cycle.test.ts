// A whole day over HTTP against `wrangler dev` (SPEC §9, §10): opened through the dev route, two
// reference agents with real tokens play it over /mcp across a growth while a watcher records every
// public answer; closed (twice); the archive downloaded from both routes (twice), byte for byte
// the same; the auditor passes on it with what the watcher saved; no public answer during the day
// carried the seed, the key or the value of a cell that was not known at that revision.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { playAgent, type AgentSummary } from "../../agent";
import type { Archive } from "../../src/daily/archive/format";
import { decodeKnown } from "../../src/referee/delta";
import { rawGet } from "../support/raw-get";

const base = inject("baseUrl");
const home = mkdtempSync(join(tmpdir(), "mosaic-day-e2e-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A date of its own (the e2e server is shared): somewhere in 2040..2049. */
function freshDate(): string {
  const n = Math.floor(Math.random() * 3000);
  return new Date(Date.UTC(2040, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * fetch, retried once when a kept-alive connection was closed by the server meanwhile (the dev
 * server's proxy drops idle sockets after a few seconds; this test pauses to check its records).
 */
async function fetchAgain(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fetch(url, init);
  }
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetchAgain(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

interface Recorded {
  path: string;
  body: string;
}

/** Known cells at each revision, from the archived log: givens of reveals and accepted commits, minus retractions. */
function knownAt(archive: Archive): (rev: number) => Map<number, number> {
  const states: Array<Map<number, number>> = [new Map()];
  const known = new Map<number, number>();
  for (const e of archive.events) {
    if (e.type === "reveal") for (const [c, v] of (e.givens as Array<[number, number]> | undefined) ?? []) known.set(c, v);
    if (e.type === "commit") for (const a of e.accepted as Array<{ id: number; v: number }>) known.set(a.id, a.v);
    if (e.type === "retract") for (const id of e.retracted as number[]) known.delete(id);
    states.push(new Map(known));
  }
  return (rev) => states[Math.min(rev, states.length - 1)];
}

describe("the day over HTTP", () => {
  it("open, two agents play across a growth, close twice, download both routes, audit", { timeout: 600_000 }, async () => {
    const date = freshDate();
    const gameId = `day-${date}`;
    const opened = await post("/api/dev/day/open", { date, params: { G: 200, chunks: 2, chunk_g: 40, grow: { frontier_coverage: 0.1 } } });
    expect(opened.status).toBe(200);
    expect(opened.json).toEqual({ game_id: gameId, created: true });
    // Opening it again answers it unchanged.
    expect((await post("/api/dev/day/open", { date })).json).toEqual({ game_id: gameId, created: false });

    // A watcher records every public answer while the day runs.
    const recorded: Recorded[] = [];
    const watch = async (path: string): Promise<Record<string, unknown>> => {
      const res = await fetchAgain(`${base}${path}`);
      const body = await res.text();
      expect(res.status, `${path}: ${body.slice(0, 200)}`).toBe(200);
      recorded.push({ path, body });
      return JSON.parse(body) as Record<string, unknown>;
    };
    for (let i = 0; (await watch(`/api/games/${gameId}`)).status !== "playing"; i++) {
      if (i > 600) throw new Error("the day did not finish generating");
      await new Promise((r) => setTimeout(r, 200));
    }
    const firstManifest = await watch(`/api/games/${gameId}`);
    expect(firstManifest).toMatchObject({ game_id: gameId, day: date, status: "playing", G: 200, rings: 0, log_head: { rev: 0 } });
    expect(firstManifest.closes_at).toBe(Date.parse(`${date}T00:00:00Z`) + 86_400_000);
    const games = (await watch("/api/games")) as { games: Array<{ game_id: string }> };
    expect(games.games.some((g) => g.game_id === gameId)).toBe(true);

    let playing = true;
    const heads: string[] = [];
    const watcher = (async () => {
      while (playing) {
        const m = (await watch(`/api/games/${gameId}`)) as { log_head: { hash: string; rev: number } };
        if (m.log_head.rev > 0) heads.push(`${m.log_head.hash}@${m.log_head.rev}`);
        await watch(`/api/games/${gameId}/tiles?rect=0,0,200,200`);
        await watch(`/api/games/${gameId}/events?from=${Math.max(1, m.log_head.rev - 20)}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    const agents: AgentSummary[] = await Promise.all(
      ["a", "b"].map((label) =>
        playAgent({ url: base, game: gameId, identityFile: join(home, `${label}.json`), maxSessions: 1, maxSeconds: 150, idleSeconds: 5, name: `day-${label}`, model: "reference" }),
      ),
    );
    playing = false;
    await watcher;
    for (const a of agents) expect(a.error, JSON.stringify(a)).toBeUndefined();
    const duringDay = (await watch(`/api/games/${gameId}`)) as { rings: number; log_head: { hash: string; rev: number } };
    expect(duringDay.rings).toBeGreaterThanOrEqual(1);
    const savedManifest = JSON.stringify(duringDay);
    const savedHashes = (await watch(`/api/games/${gameId}/hashes`)) as { hashes: Array<{ id: number; hash: string }> };

    // Close (twice): one close event, one archive.
    const closed = await post("/api/dev/day/close", { date });
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    const archiveInfo = closed.json.archive as { url: string; bytes: number };
    expect(archiveInfo.url).toBe(`/api/archives/${gameId}.json.gz`);
    const again = await post("/api/dev/day/close", { date });
    expect(again.json).toEqual(closed.json);

    const file = await rawGet(`${base}/api/archives/${gameId}.json.gz`, { "accept-encoding": "gzip" });
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("application/gzip");
    expect(file.body.length).toBe(archiveInfo.bytes);
    const asJson = await rawGet(`${base}/api/archives/${gameId}`, { "accept-encoding": "gzip" });
    expect(asJson.status).toBe(200);
    expect(asJson.headers["content-encoding"]).toBe("gzip");
    expect(asJson.headers["content-type"]).toMatch(/^application\/json/);
    expect(asJson.body.equals(file.body)).toBe(true);
    expect((await rawGet(`${base}/api/archives/${gameId}.json.gz`, { "accept-encoding": "gzip" })).body.equals(file.body)).toBe(true);
    // A plain HTTP client reads the second route as JSON.
    const viaFetch = (await (await fetchAgain(`${base}/api/archives/${gameId}`)).json()) as Archive;
    const archive = JSON.parse(gunzipSync(file.body).toString("utf8")) as Archive;
    expect(viaFetch).toEqual(archive);
    const listed = (await (await fetchAgain(`${base}/api/archives`)).json()) as { archives: Array<Record<string, unknown>> };
    expect(listed.archives.find((a) => a.game_id === gameId)).toEqual({
      day: date, game_id: gameId, url: `/api/archives/${gameId}.json.gz`, bytes: file.body.length, log_head: archive.log_head,
    });

    // The archive: the log ends with its one close; the secrets are released now, and were never served before.
    expect(archive.events.filter((e) => e.type === "close")).toHaveLength(1);
    expect(archive.events[archive.events.length - 1].type).toBe("close");
    expect(archive.rings).toBeGreaterThanOrEqual(1);
    expect(new Set(archive.events.filter((e) => e.type !== "grow" && e.type !== "close").map((e) => String(e.agent).split("/")[0])).size).toBe(2);
    for (const r of recorded) {
      expect(r.body, r.path).not.toContain(archive.day_seed);
      expect(r.body, r.path).not.toContain(archive.day_key);
    }
    const known = knownAt(archive);
    let cellsChecked = 0;
    for (const r of recorded.filter((x) => x.path.includes("/tiles?"))) {
      const view = JSON.parse(r.body) as { revision: number; known: { gaps: number[]; values: string }; tiles: Array<Record<string, unknown>> };
      const atRev = known(view.revision);
      for (const [cell, v] of decodeKnown(view.known)) {
        expect(atRev.get(cell), `cell ${cell} at revision ${view.revision}`).toBe(v);
        cellsChecked++;
      }
      for (const t of view.tiles) expect(Object.keys(t).sort()).toEqual(["agent", "cells", "h", "hash", "id", "m", "rects", "status", "w", "x0", "y0"]);
    }
    expect(cellsChecked).toBeGreaterThan(0);
    expect((await (await fetchAgain(`${base}/api/games/${gameId}`)).json()) as Record<string, unknown>).toMatchObject({ status: "closed", day_seed: archive.day_seed, day_key: archive.day_key });

    // Writes after the close are refused with `closed`.
    const late = await playAgent({ url: base, game: gameId, identityFile: join(home, "a.json"), maxSessions: 1, maxSeconds: 30, idleSeconds: 2 });
    expect(late.reason).toBe("closed");

    // The auditor passes on the downloaded archive with what the watcher saved during the day.
    const dir = mkdtempSync(join(tmpdir(), "mosaic-day-audit-"));
    try {
      writeFileSync(join(dir, "archive.json.gz"), file.body);
      writeFileSync(join(dir, "manifest.json"), savedManifest);
      writeFileSync(join(dir, "hashes.json"), JSON.stringify(savedHashes));
      const headArgs = heads.slice(0, 5).flatMap((h) => ["--head", h]);
      const audit = spawnSync(process.execPath, [resolve("node_modules/tsx/dist/cli.mjs"), resolve("scripts/audit.ts"), join(dir, "archive.json.gz"), "--manifest", join(dir, "manifest.json"), "--hashes", join(dir, "hashes.json"), ...headArgs], {
        encoding: "utf8",
        timeout: 300_000,
      });
      expect(audit.status, `${audit.stdout}\n${audit.stderr}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
