import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/engine/canonical-json";
import { sha256Hex } from "../../../src/engine/commitments";
import type { Archive, ArchiveEvent } from "../../../src/daily/archive/format";
import { auditArchive, type AuditReport } from "../../../src/daily/audit/audit";
import type { CheckName } from "../../../src/daily/audit/mismatch";
import { ArchiveFormatError, materialize, readArchive } from "../../../src/daily/audit/read-archive";
import { hashesGameId, parseHashes, parseHead, parseManifest, type SavedInputs } from "../../../src/daily/audit/saved";
import { tileCells } from "../../../src/spectator";
import { buildTestDay, copy, rechain, resign, type TestDay } from "../../support/test-day";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Every check but the regeneration (which the tests of shapes and solutions run on their own). */
const FAST: CheckName[] = ["commitments", "hashes", "chain", "replay"];

let td: TestDay;
let archive: Archive;

beforeAll(async () => {
  td = await buildTestDay();
  archive = materialize(await readArchive(utf8(td.text)));
}, 300_000);

const audit = (a: Archive, saved: SavedInputs = {}, only: CheckName[] = FAST): Promise<AuditReport> => auditArchive(a, saved, { only });
const events = (a: Archive, type: string): ArchiveEvent[] => a.events.filter((e) => e.type === type);

/** The first mismatch of a tampered archive, which must name it. */
async function firstMismatch(a: Archive, saved: SavedInputs = {}, only: CheckName[] = FAST): Promise<NonNullable<AuditReport["first"]>> {
  const report = await audit(a, saved, only);
  expect(report.ok).toBe(false);
  return report.first!;
}

describe("the auditor on a real day", () => {
  it("the day exercises what a replay must reproduce", () => {
    const commits = events(archive, "commit");
    const rejected = commits.flatMap((e) => e.rejected as Array<{ id: number; reason: string }>);
    const accepted = commits.flatMap((e) => e.accepted as Array<{ class: string }>);
    const ignored = commits.flatMap((e) => e.ignored as Array<{ reason: string }>);
    expect(rejected.some((r) => r.reason === "wrong")).toBe(true);
    expect(accepted.some((a) => a.class === "forced") && accepted.some((a) => a.class === "guess")).toBe(true);
    expect(ignored.some((i) => i.reason === "duplicate") && ignored.some((i) => i.reason === "known")).toBe(true);
    expect(commits.some((e) => e.died === true)).toBe(true);
    expect(commits.some((e) => (e.solved as number[]).length > 0)).toBe(true);
    expect(events(archive, "retract").length).toBeGreaterThan(0);
    expect(events(archive, "grow")).toHaveLength(1);
    expect(archive.rings).toBe(1);
    expect(events(archive, "join").length).toBeGreaterThan(4); // late sessions after the ring
    expect(archive.events.at(-1)?.type).toBe("close");
    expect(archive.health.some((h) => h.state === "dead")).toBe(true);
  });

  it("passes all five checks, read from the gzip bytes", async () => {
    // As read: the events stay text, parsed one at a time when a check asks.
    const fromGzip = await readArchive(await gzip(utf8(td.text)));
    expect(fromGzip.events).not.toBeInstanceOf(Array);
    expect(fromGzip.events.length).toBe(archive.events.length);
    expect(materialize(fromGzip)).toEqual(JSON.parse(td.text));
    const report = await auditArchive(fromGzip);
    expect(report.checks.map((c) => [c.check, c.ok])).toEqual([
      ["commitments", true],
      ["regeneration", true],
      ["hashes", true],
      ["chain", true],
      ["replay", true],
    ]);
    expect(report.ok).toBe(true);
    expect(report.checks[1].summary).toContain(`${archive.tiles.length} tiles identical`);
    expect(report.checks[4].summary).toContain(`${archive.events.length} events reproduced`);
  }, 300_000);

  it("reads any JSON layout of the document, strings holding brackets and quotes included", async () => {
    const a = copy(archive);
    a.events[5].intent = 'a "quoted" ] } [ { , : \\ intent \u2028 ✓';
    await rechain(a, 5);
    for (const text of [JSON.stringify(a), JSON.stringify(a, null, 2), ` \r\n${JSON.stringify(a, null, "\t")}\n\n`]) {
      const read = await readArchive(utf8(text));
      expect(read.events.at(5)?.intent).toBe(a.events[5].intent);
      expect(materialize(read)).toEqual(a);
    }
    const text = JSON.stringify(a);
    await expect(readArchive(utf8(`${text}x`))).rejects.toThrow("not JSON");
    await expect(readArchive(utf8(text.replace('"events":[', '"events":{').replace(/\],"log_head"/, '},"log_head"')))).rejects.toThrow(ArchiveFormatError);
    await expect(readArchive(utf8(text.replace(/"rev":7,/, '"rev":"7",')))).rejects.toThrow("events[6].rev is not an integer");
  });

  it("accepts what a watcher saved during the day when it matches", async () => {
    const mid = archive.events[Math.floor(archive.events.length / 2)];
    const grow = events(archive, "grow")[0];
    const saved: SavedInputs = {
      heads: [parseHead(`${archive.seed_commit}@0`), parseHead(`${mid.hash}@${mid.rev}`), parseHead(`${archive.log_head.hash.toUpperCase()}@${archive.log_head.rev}`)],
      // The manifest as served while the day ran, after the ring had grown.
      manifest: parseManifest({
        seed_commit: archive.seed_commit,
        hash_key_commit: archive.hash_key_commit,
        log_head: { hash: archive.events[grow.rev].hash, revision: grow.rev + 1 },
        G: 200,
        tiles_total: archive.tiles.length,
        rings: 1,
        params: { kind: "field", chunks: 2, chunk_g: 40, G: 200, grow: true },
        // As served: the rules beside params, the field's id and day.
        rules: { ...archive.params.rules },
        game_id: archive.game_id,
        day: archive.day,
      }),
      hashes: parseHashes({ hashes: archive.tiles.map((t) => ({ id: t.id, hash: t.hash })) }),
    };
    const report = await audit(archive, saved);
    expect(report.first).toBeUndefined();
    expect(report.checks.find((c) => c.check === "chain")?.summary).toContain("4 noted heads on it");
    // The manifest saved at the opening, while the field was still generating: no tiles counted yet.
    const atOpening = parseManifest({
      status: "generating",
      seed_commit: archive.seed_commit,
      hash_key_commit: archive.hash_key_commit,
      log_head: { hash: archive.seed_commit, rev: 0 },
      G: 200,
      tiles_total: 0,
      rings: 0,
      rules: { ...archive.params.rules },
      game_id: archive.game_id,
      day: archive.day,
    });
    expect((await audit(archive, { manifest: atOpening })).first).toBeUndefined();
    expect(report.checks.find((c) => c.check === "hashes")?.summary).toContain(`the ${archive.tiles.length} hashes saved live`);
  });
});

describe("cancelling an audit", () => {
  it("stops at the signal, in one thread and in the shared regeneration pool, and an audit afterwards still passes", async () => {
    for (const regeneration of [undefined, { workers: 0, helpWhenFree: true, noun: "worker" }]) {
      const controller = new AbortController();
      const seen: string[] = [];
      const run = auditArchive(archive, {}, {
        signal: controller.signal,
        regeneration,
        progress: (check) => {
          seen.push(check);
          if (check === "regeneration") controller.abort(new Error("cancelled by the reader"));
        },
      });
      await expect(run).rejects.toThrow("cancelled by the reader");
      expect(seen).toContain("regeneration");
      // Nothing was left half-done: the same archive audits cleanly afterwards.
      const after = await auditArchive(archive, {}, { regeneration, only: ["commitments", "regeneration"] });
      expect(after.ok).toBe(true);
    }
  }, 300_000);
});

describe("tampering is found and named", () => {
  it("a flipped solution bit: the tile's hash no longer matches", async () => {
    const a = copy(archive);
    const t = a.tiles[3];
    t.solution = (t.solution[0] === "0" ? "1" : "0") + t.solution.slice(1);
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "hashes", tile: 3, field: "hash" });
    expect(f.message).toContain("tile 3: hash differs");
  });

  it("a flipped solution bit re-signed with the released key: regeneration names the tile and cell", async () => {
    const a = copy(archive);
    const t = a.tiles[3];
    const i = 5;
    t.solution = t.solution.slice(0, i) + (t.solution[i] === "0" ? "1" : "0") + t.solution.slice(i + 1);
    await resign(a, 3);
    expect((await audit(a, {}, ["hashes"])).ok).toBe(true);
    const f = await firstMismatch(a, {}, ["regeneration"]);
    expect(f).toMatchObject({ check: "regeneration", tile: 3, field: "solution" });
    expect(f.message).toContain(`tile 3: solution differs from the regenerated field at its cell`);
    expect(f.message).toContain(`(character ${i})`);
    // ... and against the hashes published live, the re-signed hash is caught too.
    const live = parseHashes(archive.tiles.map((x) => ({ id: x.id, hash: x.hash })));
    expect(await firstMismatch(a, { hashes: live }, ["hashes"])).toMatchObject({ check: "hashes", tile: 3, field: "hash" });
  }, 300_000);

  it("a flipped solution bit on a cell two tiles share, re-signed: the regeneration names the changed tile and the cell; the replay alone names both", async () => {
    const a = copy(archive);
    const cellsOf = archive.tiles.map((t) => tileCells(t, archive.G));
    const owners = new Map<number, number[]>();
    cellsOf.forEach((cells, id) => cells.forEach((c) => owners.set(c, [...(owners.get(c) ?? []), id])));
    const [cell, [first, second]] = [...owners].find(([, ids]) => ids.length === 2)!;
    const t = a.tiles[second];
    const k = cellsOf[second].indexOf(cell);
    t.solution = t.solution.slice(0, k) + (t.solution[k] === "0" ? "1" : "0") + t.solution.slice(k + 1);
    await resign(a, second);
    // The regeneration holds each tile against the true field: the changed one, not its neighbour, is named.
    const f = await firstMismatch(a, {}, ["regeneration"]);
    expect(f).toMatchObject({ check: "regeneration", tile: second, field: "solution" });
    expect(f.message).toContain(`tile ${second}: solution differs from the regenerated field at its cell ${cell}`);
    // The same with the lower-numbered tile changed instead.
    const b = copy(archive);
    const k0 = cellsOf[first].indexOf(cell);
    b.tiles[first].solution = b.tiles[first].solution.slice(0, k0) + (b.tiles[first].solution[k0] === "0" ? "1" : "0") + b.tiles[first].solution.slice(k0 + 1);
    await resign(b, first);
    expect(await firstMismatch(b, {}, ["regeneration"])).toMatchObject({ check: "regeneration", tile: first, field: "solution" });
    // Without the regeneration, the archive alone cannot tell which: the replay names both.
    const r = await firstMismatch(a, {}, ["replay"]);
    expect(r).toMatchObject({ check: "replay", field: "solution" });
    expect(r.message).toContain(`tiles ${first} and ${second} give shared cell ${cell} different values`);
  }, 300_000);

  it("a changed given: the hash, and (re-signed) the regeneration, name the tile", async () => {
    const a = copy(archive);
    const id = archive.tiles.length - 2; // a tile of the grown ring
    const t = a.tiles[id];
    const k = t.givens.indexOf("0");
    t.givens = t.givens.slice(0, k) + "1" + t.givens.slice(k + 1);
    expect(await firstMismatch(a)).toMatchObject({ check: "hashes", tile: id, field: "hash" });
    await resign(a, id);
    const f = await firstMismatch(a, {}, ["regeneration"]);
    expect(f).toMatchObject({ check: "regeneration", tile: id, field: "givens" });
    expect(f.message).toContain(`tile ${id}: givens differs`);
  }, 300_000);

  it("a wrong key", async () => {
    const a = copy(archive);
    a.day_key = "00" + a.day_key.slice(2);
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "commitments", field: "day_key" });
    expect(f.message).toContain("day_key does not match hash_key_commit");
    const report = await audit(a);
    expect(report.checks.find((c) => c.check === "hashes")?.mismatch?.message).toContain("tile 0: hash differs");
  });

  it("a wrong seed, and a forged seed commitment against the saved manifest", async () => {
    const a = copy(archive);
    a.day_seed = "f" + a.day_seed.slice(1);
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "commitments", field: "day_seed" });
    expect(f.message).toContain("day_seed does not match seed_commit");
    const manifest = parseManifest({ seed_commit: "ab".repeat(32), hash_key_commit: archive.hash_key_commit });
    expect(await firstMismatch(archive, { manifest })).toMatchObject({ check: "commitments", field: "seed_commit" });
  });

  it("an edited event: its hash breaks the chain", async () => {
    const a = copy(archive);
    const e = events(a, "commit")[10];
    e.intent = `${String(e.intent)}!`;
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "chain", rev: e.rev, field: "hash" });
    expect(f.message).toContain(`event ${e.rev} (commit): hash differs`);
  });

  it("an edited verdict re-chained: the replay names the event and the field", async () => {
    const a = copy(archive);
    const e = events(a, "commit").find((x) => (x.accepted as Array<{ class: string }>).some((c) => c.class === "guess"))!;
    const cell = (e.accepted as Array<Record<string, unknown>>).find((c) => c.class === "guess")!;
    cell.class = "forced";
    cell.rule = "run";
    await rechain(a, e.rev - 1);
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "replay", rev: e.rev, field: "accepted" });
    // The message goes down to the edited entry: which cell, which key, both values in view.
    const index = (e.accepted as Array<Record<string, unknown>>).indexOf(cell);
    expect(f.message).toContain(`event ${e.rev} (commit): accepted[${index}].class differs from the replay: archive "forced", replay "guess"`);
    // A head noted after that revision exposes the rewrite in the chain itself.
    const noted = archive.events[e.rev + 3];
    const g = await firstMismatch(a, { heads: [parseHead(`${noted.hash}@${noted.rev}`)] }, ["chain"]);
    expect(g).toMatchObject({ check: "chain", rev: noted.rev, field: "head" });
    expect(g.message).toContain("is not on the archived chain");
  });

  it("a changed reward, score, health or tile solver", async () => {
    const a = copy(archive);
    const e = events(a, "commit").find((x) => Number(x.reward) > 0)!;
    e.reward = Number(e.reward) + 1;
    await rechain(a, e.rev - 1);
    expect(await firstMismatch(a)).toMatchObject({ check: "replay", rev: e.rev, field: "reward" });

    const b = copy(archive);
    b.scores[1].reward += 5;
    const f = await firstMismatch(b);
    expect(f).toMatchObject({ check: "replay", field: "scores.reward" });
    expect(f.message).toContain(`scores: machine ${archive.scores[1].machine}: reward`);

    const c = copy(archive);
    c.health[0].state = "healthy";
    expect(await firstMismatch(c)).toMatchObject({ check: "replay", field: "health.state" });

    const d = copy(archive);
    const solved = d.tiles.find((t) => t.status === "solved")!;
    solved.agent = "m-0000000000000000/1";
    expect(await firstMismatch(d)).toMatchObject({ check: "replay", tile: solved.id, field: "agent" });
  });

  it("a reordered log", async () => {
    const a = copy(archive);
    const i = 40;
    [a.events[i], a.events[i + 1]] = [a.events[i + 1], a.events[i]];
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "chain", rev: i + 1, field: "rev" });
    // Renumbered and re-chained, a swap of writes that do not commute fails the replay: here the
    // first two joins, whose seed tiles depend on the order. (Writes that commute, such as two
    // distant agents' commits, leave the same verdicts either way; a head noted during the day
    // pins the order of those.)
    const b = copy(archive);
    [b.events[0], b.events[1]] = [{ ...b.events[1], rev: 1 }, { ...b.events[0], rev: 2 }];
    await rechain(b, 0);
    const g = await firstMismatch(b);
    expect(g).toMatchObject({ check: "replay", rev: 1, field: "seed_tile" });
  });

  it("a dropped event", async () => {
    const a = copy(archive);
    const e = events(a, "commit")[20];
    a.events.splice(e.rev - 1, 1);
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "chain", rev: e.rev, field: "rev" });
    expect(f.message).toContain(`event ${e.rev}: its rev is ${e.rev + 1}`);
  });

  it("a truncated log, and truncated bytes", async () => {
    const a = copy(archive);
    a.events.length = a.events.length - 10;
    const last = a.events.at(-1)!;
    a.log_head = { hash: last.hash, rev: last.rev };
    const f = await firstMismatch(a);
    expect(f).toMatchObject({ check: "chain", rev: last.rev, field: "type" });
    expect(f.message).toContain("not the close (truncated log?)");
    const bytes = utf8(td.text);
    await expect(readArchive(bytes.slice(0, Math.floor(bytes.length * 0.7)))).rejects.toThrow(ArchiveFormatError);
    await expect(readArchive((await gzip(bytes)).slice(0, 5000))).rejects.toThrow(/gzip|JSON/);
  });

  it("display names at the close: read as text, malformed ones refused as such, no check changed by them", async () => {
    const text = td.text.replace(/\}\s*$/, `,"names":[{"machine":"m-0000000000000001","name":"Display <b>one</b>"}]}\n`);
    const named = materialize(await readArchive(utf8(text)));
    expect(named.names).toEqual([{ machine: "m-0000000000000001", name: "Display <b>one</b>" }]);
    expect((await audit(named)).ok).toBe(true);
    for (const bad of ['{"m-1":"x"}', '[{"machine":"m-1","name":7}]', '["x"]']) {
      await expect(readArchive(utf8(td.text.replace(/\}\s*$/, `,"names":${bad}}\n`)))).rejects.toThrow(/names is not a list of \{machine, name\}/);
    }
  });

  it("a day relabelled, or rules, day or id unlike the manifest published before play", async () => {
    const relabelled = copy(archive);
    relabelled.day = "2031-01-09";
    if (archive.game_id.startsWith("day-")) expect(await firstMismatch(relabelled, {}, ["commitments"])).toMatchObject({ check: "commitments", field: "day" });
    const manifest = (over: Record<string, unknown>) =>
      parseManifest({ seed_commit: archive.seed_commit, hash_key_commit: archive.hash_key_commit, rules: { ...archive.params.rules }, game_id: archive.game_id, day: archive.day, ...over });
    // Fog changes no verdict, so no replay can see it: only the manifest published before play does.
    const unfogged = copy(archive);
    unfogged.params = { ...unfogged.params, rules: { ...unfogged.params.rules, fog: !archive.params.rules.fog } };
    const f = await firstMismatch(unfogged, { manifest: manifest({}) }, ["commitments"]);
    expect(f).toMatchObject({ check: "commitments", field: "params.rules" });
    expect(f.message).toContain(`"fog":${String(!archive.params.rules.fog)}`);
    expect(await firstMismatch(archive, { manifest: manifest({ day: "2031-01-09" }) }, ["commitments"])).toMatchObject({ field: "day" });
    expect(await firstMismatch(archive, { manifest: manifest({ game_id: "day-2031-01-09" }) }, ["commitments"])).toMatchObject({ field: "game_id" });
    expect((await audit(archive, { manifest: manifest({}) }, ["commitments"])).ok).toBe(true);
  });

  it("a member name written twice in one object, which JSON readers resolve differently", async () => {
    const event = archive.events.find((e) => e.type === "reveal" && typeof e.intent === "string")!;
    const index = archive.events.indexOf(event);
    const line = canonicalJson(event);
    expect(td.text).toContain(line);
    const forged = td.text.replace(line, line.replace('"intent":', '"intent":"FAKE: a lucky guess","intent":'));
    // JSON.parse keeps the last: the chain and the replay see the honest intent, a first-wins reader the fake one.
    await expect(readArchive(utf8(forged))).rejects.toThrow(`the member name "intent" appears twice in one object in events[${index}]`);
    const tileLine = JSON.stringify(archive.tiles[7]);
    expect(td.text).toContain(tileLine);
    const twoSolutions = td.text.replace(tileLine, tileLine.replace('"solution":', `"solution":"${"1".repeat(archive.tiles[7].cells)}","solution":`));
    await expect(readArchive(utf8(twoSolutions))).rejects.toThrow(/the member name "solution" appears twice in one object at offset \d+/);
    // Equal names in different objects (every event has a "rev") are fine: the honest day reads.
    expect((await readArchive(utf8(td.text))).events.length).toBe(archive.events.length);
  });

  it("a noted head the archive does not extend", async () => {
    const e = archive.events[100];
    const other = "0123456789abcdef".repeat(4);
    const f = await firstMismatch(archive, { heads: [parseHead(`${other}@${e.rev}`)] }, ["chain"]);
    expect(f).toMatchObject({ check: "chain", rev: e.rev, field: "head" });
    expect(f.message).toContain(`--head ${other}@${e.rev} is not on the archived chain: its event ${e.rev} has hash ${e.hash}`);
    const beyond = await firstMismatch(archive, { heads: [parseHead(`${other}@${archive.events.length + 5}`)] }, ["chain"]);
    expect(beyond.message).toContain("beyond the archived log");
    expect(() => parseHead("abc@12")).toThrow("expected HASH@REV");
  });

  it("a tile hash that differs from the one published live", async () => {
    const live = parseHashes(archive.tiles.map((t) => ({ id: t.id, hash: t.id === 17 ? "ee".repeat(32) : t.hash })));
    const f = await firstMismatch(archive, { hashes: live }, ["hashes"]);
    expect(f).toMatchObject({ check: "hashes", tile: 17, field: "hash" });
    expect(f.message).toContain("tile 17: hash differs from the one published live");
  });

  it("hashes saved from another day are named as such, not as a changed tile", async () => {
    const answer = { game_id: "day-1999-01-01", tiles_total: archive.tiles.length, hashes: archive.tiles.map((t) => ({ id: t.id, hash: "ab".repeat(32) })) };
    const f = await firstMismatch(archive, { hashes: parseHashes(answer), hashesGameId: hashesGameId(answer) }, ["hashes"]);
    expect(f).toMatchObject({ check: "hashes", field: "game_id" });
    expect(f.message).toBe(`the saved hashes are of day-1999-01-01, not of this archive's ${archive.game_id}`);
    // The same day's answer, with its game_id, passes.
    const own = { game_id: archive.game_id, hashes: archive.tiles.map((t) => ({ id: t.id, hash: t.hash })) };
    expect((await audit(archive, { hashes: parseHashes(own), hashesGameId: hashesGameId(own) }, ["hashes"])).ok).toBe(true);
  });
});

describe("npm run audit (the command)", () => {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mosaic-audit-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the command as a user would (through tsx, in its own process). */
  function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, ["--import", "tsx", join(root, "scripts/audit.ts"), ...args], { cwd: root, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  it("passes a gzip archive file with the field regenerated in worker threads, and checks saved files", async () => {
    const file = join(dir, "day.json.gz");
    writeFileSync(file, await gzip(utf8(td.text)));
    const hashes = join(dir, "hashes.json");
    writeFileSync(hashes, JSON.stringify({ game_id: archive.game_id, hashes: archive.tiles.map((t) => ({ id: t.id, hash: t.hash })) }));
    const manifest = join(dir, "manifest.json");
    writeFileSync(manifest, JSON.stringify({ game_id: archive.game_id, seed_commit: archive.seed_commit, hash_key_commit: archive.hash_key_commit, log_head: { hash: archive.events[9].hash, rev: 10 } }));
    const mid = archive.events[200];
    const r = await run(file, "--threads", "2", "--head", `${mid.hash}@${mid.rev}`, "--manifest", manifest, "--hashes", hashes);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toContain(`mosaic audit: ${archive.game_id} (G=200, ${archive.tiles.length} tiles, 1 ring, ${archive.events.length} events)`);
    expect(lines.slice(1, 6).map((l) => l.slice(0, 26).trim())).toEqual([
      "[1/5] commitments    ok",
      "[2/5] regeneration   ok",
      "[3/5] tile hashes    ok",
      "[4/5] hash chain     ok",
      "[5/5] replay         ok",
    ]);
    expect(r.stdout).toContain("2 worker threads");
    expect(r.stdout).toContain("2 noted heads on it");
    expect(lines.at(-1)).toMatch(/^PASS: 5 checks hold \(.* s, peak memory \d+ MB\)$/);
  }, 300_000);

  it("reads an archive over HTTP served with Content-Encoding: gzip", async () => {
    const body = Buffer.from(await gzip(utf8(td.text)));
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const r = await run(`http://127.0.0.1:${port}/api/archives/${archive.game_id}`, "--only", "commitments,hashes,chain,replay", "--json");
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as { ok: boolean; checks: Array<{ check: string; ok: boolean }>; max_rss_mb: number };
      expect(report.ok).toBe(true);
      expect(report.checks.map((c) => c.check)).toEqual(["commitments", "hashes", "chain", "replay"]);
      expect(report.max_rss_mb).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  }, 300_000);

  it("exits 1 naming the first mismatch, 2 on what it cannot read", async () => {
    const a = copy(archive);
    const e = events(a, "commit")[7];
    e.intent = "rewritten";
    const file = join(dir, "edited.json");
    writeFileSync(file, JSON.stringify(a));
    const r = await run(file, "--only", "commitments,chain");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[4/5] hash chain     FAIL");
    expect(r.stdout.trim().split("\n").at(-1)).toBe(
      `FAIL: hash chain: event ${e.rev} (commit): hash differs: SHA-256(prev|event) is ${(await sha256Of(a, e.rev)).slice(0, 64)}, the archive says ${e.hash} (the event was edited) [event ${e.rev}, field hash]`,
    );
    const head = await run(join(dir, "day.json.gz"), "--only", "chain", "--head", `${"ab".repeat(32)}@5`);
    expect(head.code).toBe(1);
    expect(head.stdout).toContain(`FAIL: hash chain: --head ${"ab".repeat(32)}@5 is not on the archived chain`);
    const missing = await run(join(dir, "nope.json"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    const usage = await run();
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: npm run audit --");
    const badHead = await run(join(dir, "day.json.gz"), "--head", "nothex@3");
    expect(badHead.code).toBe(2);
    expect(badHead.stderr).toContain("expected HASH@REV");
    // A file read but cut short is a failed verification, said on stdout like every other.
    const cut = join(dir, "cut.json");
    writeFileSync(cut, td.text.slice(0, Math.floor(td.text.length / 2)));
    const truncated = await run(cut);
    expect(truncated.code).toBe(1);
    expect(truncated.stdout.trim().split("\n").at(-1)).toMatch(/^FAIL: reading: the archive is not JSON \(truncated\?\)/);
    // Nobody answering is not a verdict: exit 2 and the cause, no stack trace.
    const refused = await run("http://127.0.0.1:9/day.json.gz");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^audit: GET http:\/\/127\.0\.0\.1:9\/day\.json\.gz: .+/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // A partial audit says which checks it did not run.
    const partial = await run(join(dir, "day.json.gz"), "--only", "commitments,chain");
    expect(partial.code).toBe(0);
    expect(partial.stdout.trim().split("\n").at(-1)).toMatch(/^PASS: 2 checks hold; not run: regeneration, hashes, replay \(/);
  }, 300_000);
});

/** The chain hash an edited event really has (what the auditor reports next to the archived one). */
async function sha256Of(a: Archive, rev: number): Promise<string> {
  const { hash: _h, ...rest } = a.events[rev - 1];
  return sha256Hex(`${rest.prev}|${canonicalJson(rest)}`);
}
