/**
 * The spectator snapshot at G = 1000 with 12,000+ tiles (target: ≤ 1.5 MB over the wire): its
 * size as JSON and gzip-compressed, the time to build it from the server's model and to load it
 * into a page's model, and the time to reduce a day's events — against the same figures on a
 * G = 100 field in the same run.
 *
 * The late-day state is the heaviest a day can reach: 120 agents of 40 machines, every tile
 * revealed, 90 % of them solved with all their cells known, wrong cells rejected here and there.
 * It is built by feeding the reducer the events such a day produces, over a real generated field
 * (geometry, givens and solution from the engine).
 *
 *   npm run bench:snapshot                        # 10×10 chunks of 100: G = 1000
 *   npm run bench:snapshot -- --chunks 4          # quicker
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { generateField, type Field } from "../../src/engine";
import { leaderboard, SpectatorModel, type PublicEvent } from "../../src/spectator";
import { numberOption } from "./bench-options";

const arg = numberOption;
const CHUNKS = arg("chunks", 10);
const CHUNK_G = arg("chunk-g", 100);
const RUNS = arg("runs", 5);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** A day's events that leave every tile revealed and 90 % solved. */
function lateDayEvents(field: Field): PublicEvent[] {
  const events: PublicEvent[] = [];
  let rev = 0;
  let at = 1_800_000_000_000;
  const agents: string[] = [];
  for (let i = 0; i < 120; i++) {
    const machine = `m-${(i % 40).toString(16).padStart(16, "0")}`;
    const agent = `${machine}/${Math.floor(i / 40) + 1}`;
    agents.push(agent);
    events.push({ rev: ++rev, type: "join", at: (at += 50), agent, machine, session: String(Math.floor(i / 40) + 1), name: `bot ${i % 40}`, model: `model-${i % 5}`, harness: `harness-${i % 3}`, harness_source: "argument", tags: { team: `t${i % 7}` }, verified: true, seed_tile: (i * 97) % field.tiles.length });
  }
  const known = new Uint8Array(field.G * field.G);
  const unknownLeft = field.tiles.map((t) => t.cellIds.length);
  const coveredBy = new Map<number, number[]>();
  for (const t of field.tiles) for (const c of t.cellIds) coveredBy.set(c, [...(coveredBy.get(c) ?? []), t.id]);
  const solvedDone = new Uint8Array(field.tiles.length);
  const revealed = new Uint8Array(field.tiles.length);
  const learn = (c: number, solvedNow: number[]): void => {
    if (known[c]) return;
    known[c] = 1;
    for (const t of coveredBy.get(c) ?? []) {
      unknownLeft[t]--;
      if (unknownLeft[t] === 0 && revealed[t] && !solvedDone[t]) {
        solvedDone[t] = 1;
        solvedNow.push(t);
      }
    }
  };
  for (const t of field.tiles) {
    const agent = agents[t.id % agents.length];
    revealed[t.id] = 1;
    const solvedNow: number[] = [];
    const givens: Array<[number, number]> = t.givens.map((c) => [c, field.solution[c]]);
    for (const [c] of givens) learn(c, solvedNow);
    if (unknownLeft[t.id] === 0 && !solvedDone[t.id]) {
      solvedDone[t.id] = 1;
      solvedNow.push(t.id);
    }
    events.push({ rev: ++rev, type: "reveal", at: (at += 50), agent, intent: `reveal ${t.id}`, tile: t.id, givens, solved: solvedNow, meets: [], reward: solvedNow.reduce((s, id) => s + field.tiles[id].cellIds.length, 0) });
  }
  for (const t of field.tiles) {
    if (t.id % 10 === 9 || solvedDone[t.id]) continue;
    const agent = agents[(t.id * 7) % agents.length];
    const cells = t.cellIds.filter((c) => !known[c]);
    const solvedNow: number[] = [];
    const accepted = cells.map((c) => ({ id: c, v: field.solution[c], class: (c % 3 === 0 ? "guess" : "forced") as "guess" | "forced" }));
    for (const c of cells) learn(c, solvedNow);
    events.push({ rev: ++rev, type: "commit", at: (at += 50), agent, intent: `fill tile ${t.id}`, accepted, rejected: [], ignored: [], unevaluated: [], solved: solvedNow, meets: [], reward: solvedNow.reduce((s, id) => s + field.tiles[id].cellIds.length, 0), health: { state: "healthy", rate_bp: 10, committed: 1000, wrong: 1, window: 1000 } });
  }
  // Wrong cells left unknown in the tiles nobody finished.
  for (const t of field.tiles) {
    if (t.id % 10 !== 9) continue;
    const cells = t.cellIds.filter((c) => !known[c]).slice(0, 3);
    if (cells.length === 0) continue;
    events.push({ rev: ++rev, type: "commit", at: (at += 50), agent: agents[t.id % agents.length], intent: "try", accepted: [], rejected: cells.map((id) => ({ id, reason: "wrong" as const })), ignored: [], unevaluated: [], solved: [], meets: [], reward: 0, health: { state: "healthy", rate_bp: 30, committed: 1000, wrong: 3, window: 1000 } });
  }
  return events;
}

/**
 * Generation of a G = 1000 field takes minutes on a shared machine and is not what is measured
 * here: the field is kept in the system's temporary directory between runs (same parameters,
 * same bytes: generation is deterministic).
 */
async function cachedField(label: string, params: Parameters<typeof generateField>[0]): Promise<Field> {
  const file = join(tmpdir(), `mosaic-bench-field-${Object.values(params).join("-")}.json`);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { G: number; tiles: Field["tiles"]; solution: string };
    return { G: stored.G, tiles: stored.tiles, solution: new Uint8Array(Buffer.from(stored.solution, "base64")) };
  }
  const t0 = performance.now();
  const field = await generateField(params);
  console.log(`${label}: generated G=${field.G}, ${field.tiles.length} tiles in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  writeFileSync(file, JSON.stringify({ G: field.G, tiles: field.tiles, solution: Buffer.from(field.solution).toString("base64") }));
  return field;
}

interface Figures {
  label: string;
  G: number;
  tiles: number;
  events: number;
  reduceMs: number;
  buildMs: number;
  loadMs: number;
  jsonBytes: number;
  gzipBytes: number;
  solved: number;
}

async function measure(label: string, params: Parameters<typeof generateField>[0]): Promise<Figures> {
  const field = await cachedField(label, params);
  const events = lateDayEvents(field);
  const model = new SpectatorModel({ gameId: "bench", G: field.G, fog: false, tilesTotal: field.tiles.length, rules: { guess: "accept", depth: 0, fog: false } });
  model.addTiles(field.tiles.map((t) => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m })));
  const r0 = cpu();
  for (const e of events) model.apply(e);
  const reduceMs = cpu() - r0;
  const build: number[] = [];
  const load: number[] = [];
  let text = "";
  for (let i = 0; i < RUNS; i++) {
    const b0 = cpu();
    text = JSON.stringify(model.snapshot("public"));
    build.push(cpu() - b0);
    const l0 = cpu();
    const page = SpectatorModel.fromSnapshot(JSON.parse(text));
    leaderboard(page);
    load.push(cpu() - l0);
  }
  const bytes = Buffer.byteLength(text);
  return { label, G: field.G, tiles: field.tiles.length, events: events.length, reduceMs, buildMs: median(build), loadMs: median(load), jsonBytes: bytes, gzipBytes: gzipSync(text).length, solved: model.solvedCount };
}

const small = await measure("baseline G=100 scatter", { kind: "scatter", seed: "bench-snapshot-small", G: 100 });
const large = await measure(`large ${CHUNKS}×${CHUNKS} chunks of ${CHUNK_G}`, { kind: "field", seed: "bench-snapshot-large", chunks: CHUNKS, chunk_g: CHUNK_G });
const kb = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;
console.log("\n| field | tiles | solved | events | snapshot JSON | gzip (over the wire) | build (CPU, median) | load in a page (CPU, median) | reduce all events (CPU) |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const f of [small, large]) {
  console.log(`| ${f.label}, G=${f.G} | ${f.tiles} | ${f.solved} | ${f.events} | ${kb(f.jsonBytes)} | ${kb(f.gzipBytes)} | ${f.buildMs.toFixed(0)} ms | ${f.loadMs.toFixed(0)} ms | ${f.reduceMs.toFixed(0)} ms |`);
}
console.log(`\ngzip size ${(large.gzipBytes / 1024 / 1024).toFixed(2)} MiB (target ≤ 1.5 MB): ${large.gzipBytes <= 1_500_000 ? "met" : "MISSED"}; raw JSON ${(large.jsonBytes / 1024 / 1024).toFixed(2)} MiB`);
console.log(`large / small: size ${(large.gzipBytes / small.gzipBytes).toFixed(1)}×, build ${(large.buildMs / small.buildMs).toFixed(1)}× for ${(large.tiles / small.tiles).toFixed(0)}× the tiles`);
