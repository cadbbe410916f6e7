/**
 * A synthetic day, played in process with the real engine and referee: a growing field, seated
 * machines that reveal, commit (with wrong cells, duplicates and known cells among them), retract,
 * sometimes die; rings grown when the revealed share reaches the coverage, as the field object
 * does; a close; every event chained as the field object chains it. Pure TypeScript (WebCrypto
 * only), so it runs in Node and in workerd: the auditor's tests and benchmark and the close
 * benchmark build their days with it.
 *
 * ```ts
 * const day = await syntheticDay({ params, machines: 16, daySeed, dayKey });
 * day.log;                         // every stored write in order: {rev, at, input, event (chained)}
 * const source = await day.archiveSource();   // for archiveChunks (src/daily/archive/writer.ts)
 * ```
 */
import { chainEventHash, hashKeyCommit, seedCommit, tileEncoding, tileHash, bytesToHex } from "../../src/engine/commitments";
import { generateField, generateRing, type FieldParams, type RingResult } from "../../src/engine";
import { Rng } from "../../src/engine/random";
import type { Field, Tile } from "../../src/engine/types";
import { ARCHIVE_FORMAT, archiveHealth, archiveScores, engineParams, type ArchiveEvent, type ArchiveHeader, type ArchiveParams, type ArchiveTile } from "../../src/daily/archive/format";
import { archiveTileOf } from "../../src/daily/archive/tiles";
import type { ArchiveSource } from "../../src/daily/archive/writer";
import { Referee } from "../../src/referee";
import { cyrb128 } from "../../src/referee/prng";
import type { RefereeEvent, WriteInput } from "../../src/referee/types";

/** A stored write as the field object keeps it (its `StoredInput`): what a replay feeds the referee. */
export type SyntheticInput = WriteInput | { type: "close" } | { type: "grow"; ring: number; first: number; count: number };

export interface LoggedWrite {
  rev: number;
  at: number;
  input: SyntheticInput;
  /** The public event, chained (with `prev` and `hash`). */
  event: ArchiveEvent;
}

/** Where the field and its rings come from: the engine by default, a disk cache in the benchmark. */
export interface FieldSource {
  initial(params: FieldParams): Promise<Field>;
  ring(params: FieldParams, ring: number, field: Field): Promise<RingResult>;
}

export const engineFields: FieldSource = {
  initial: (params) => generateField(params),
  ring: (params, ring, field) => generateRing(params.seed, params, ring, field),
};

export interface SyntheticDayOptions {
  /** `day-YYYY-MM-DD` (default `day-2031-01-01`). */
  gameId?: string;
  /** 64 hex digits: the engine seed of the field and the referee's seed. */
  daySeed: string;
  /** 32 bytes. */
  dayKey: Uint8Array;
  params: ArchiveParams;
  machines: number;
  /** Seed of the players' choices (default "play"). */
  playSeed?: string;
  /** Stop once this many writes are logged and every ring has grown (default: play until nothing is left). */
  maxWrites?: number;
  /** Cells per commit, inclusive range (default [1, 24]). */
  batch?: [number, number];
  /** Per-cell chance of a wrong value, in permille, for ordinary machines (default 4). */
  wrongPermille?: number;
  /** The first this many machines err at `deadlyPermille` and die during the day (default 1). */
  careless?: number;
  deadlyPermille?: number;
  /** Chance of a retract instead of a commit, in permille (default 15). */
  retractPermille?: number;
  /** Machines whose second session joins only after the first ring (default 2). */
  lateSessions?: number;
  /** Revealed share that grows the next ring (default: the policy's `frontier_coverage`, else 0.5). */
  coverage?: number;
  /** Unix ms of the first write and the time between writes (defaults 2031-01-01T00:00Z, 1000). */
  startAt?: number;
  stepMs?: number;
  fields?: FieldSource;
  onProgress?: (p: { writes: number; rings: number; tiles: number; revealed: number }) => void;
}

export interface SyntheticDay {
  gameId: string;
  day: string;
  daySeed: string;
  dayKey: Uint8Array;
  params: ArchiveParams;
  /** The final field: every tile, the whole solution. */
  field: Field;
  initialTiles: number;
  log: LoggedWrite[];
  referee: Referee;
  /** Logged writes by players (join, reveal, commit, retract). */
  writes: number;
  rings: number;
  machines: string[];
  header(): Promise<ArchiveHeader>;
  /** Every tile's published hash, by id. */
  tileHashes(): Promise<string[]>;
  archiveTiles(): Promise<ArchiveTile[]>;
  archiveSource(): Promise<ArchiveSource>;
}

const MODELS = ["model-a", "model-b", "model-c"];
const HARNESSES = ["harness-x", "harness-y"];

export async function syntheticDay(o: SyntheticDayOptions): Promise<SyntheticDay> {
  const gameId = o.gameId ?? "day-2031-01-01";
  const fields = o.fields ?? engineFields;
  const fp = engineParams(o.params, o.daySeed);
  const rng = new Rng(...cyrb128(`synthetic-day|${o.playSeed ?? "play"}`));
  const [minBatch, maxBatch] = o.batch ?? [1, 24];
  const coverage = o.coverage ?? o.params.growth?.frontier_coverage ?? 0.5;
  const startAt = o.startAt ?? Date.UTC(2031, 0, 1);
  const stepMs = o.stepMs ?? 1000;

  let field = await fields.initial(fp);
  const initialTiles = field.tiles.length;
  const referee = new Referee({ gameId, seed: o.daySeed, field, rules: o.params.rules });
  const log: LoggedWrite[] = [];
  let prev = await seedCommit(o.daySeed);
  let writes = 0;
  let rings = 0;
  let canGrow = o.params.grow === true;

  const record = async (input: SyntheticInput, event: RefereeEvent): Promise<void> => {
    const withPrev = { ...event, prev };
    const hash = await chainEventHash(prev, withPrev);
    log.push({ rev: event.rev, at: event.at, input, event: { ...withPrev, hash } as ArchiveEvent });
    prev = hash;
  };
  const now = (): number => startAt + (referee.revision + 1) * stepMs;
  const write = async (input: WriteInput): Promise<Record<string, unknown> | null> => {
    const r = referee.apply(input, now());
    if (!r.ok) return null;
    if (r.event) {
      await record(input, r.event);
      writes++;
    }
    return r.answer;
  };

  // Machines and their seats.
  const machines = Array.from({ length: o.machines }, (_, i) => `m-${(0x5eed0000 + i).toString(16).padStart(16, "0")}`);
  const careless = new Set(machines.slice(0, o.careless ?? 1));
  const wrongPermille = (m: string): number => (careless.has(m) ? (o.deadlyPermille ?? 90) : (o.wrongPermille ?? 4));
  const sessions = new Map<string, number>(machines.map((m) => [m, 0]));
  const agents: string[] = [];
  const committed = new Map<string, number[]>(machines.map((m) => [m, []]));
  const join = async (m: string): Promise<void> => {
    const n = sessions.get(m)! + 1;
    if (n > 3) return;
    sessions.set(m, n);
    const i = machines.indexOf(m);
    const answer = await write({
      type: "join",
      machineId: m,
      session: String(n),
      name: `bot ${i}`,
      model: MODELS[i % MODELS.length],
      harness: HARNESSES[i % HARNESSES.length],
      harnessSource: i % 3 === 0 ? "transport" : "argument",
      tags: i % 2 === 0 ? { synthetic: "", team: String(i % 4) } : {},
      verified: true,
    });
    if (answer) agents.push(answer.agent as string);
  };
  for (const m of machines) await join(m);
  const late = machines.slice(machines.length - (o.lateSessions ?? 2));

  const grow = async (): Promise<void> => {
    const ring = referee.grown + 1;
    const result = await fields.ring(fp, ring, field);
    if (result.tiles.length === 0) {
      canGrow = false;
      return;
    }
    const at = now();
    const grown = referee.grow({ ring, tiles: result.tiles, solution: result.solution }, at);
    if (!grown.ok) throw new Error(`ring ${ring}: ${grown.error.message}`);
    await record({ type: "grow", ring, first: field.tiles.length, count: result.tiles.length }, grown.event);
    field = { G: field.G, tiles: [...field.tiles, ...result.tiles], solution: result.solution };
    rings++;
    if (!result.room) canGrow = false;
    if (rings === 1) for (const m of late) await join(m);
  };

  const machineOf = (agent: string): string => agent.slice(0, agent.indexOf("/"));
  const dead = (m: string): boolean => referee.health(m)?.state === "dead";
  const unknownCells = (t: number): number[] => field.tiles[t].cellIds.filter((c) => referee.cell(c)?.value === -1);

  /** One move of one agent; false when it had nothing to do. */
  const move = async (agent: string): Promise<boolean> => {
    const m = machineOf(agent);
    if (dead(m)) return false;
    const frontier = referee.frontier(agent) ?? [];
    if (frontier.length === 0) return false;
    const mine = committed.get(m)!;
    if (mine.length > 8 && rng.int(1000) < (o.retractPermille ?? 15)) {
      const cells: number[] = [];
      for (let k = rng.range(1, 4); k > 0; k--) cells.push(mine[rng.int(mine.length)]);
      const answer = await write({ type: "retract", machineId: m, agent, expectedRevision: referee.revision, cells, intent: `retract ${cells.length} of my cells` });
      if (answer) return true;
    }
    // Look at a few frontier tiles at random (a whole scan only when they give nothing).
    let hidden = -1;
    let open = -1;
    const look = (t: number): void => {
      const status = referee.tileStatus(t)!.status;
      if (status === "hidden" && hidden < 0) hidden = t;
      if (status === "revealed" && open < 0 && unknownCells(t).length > 0) open = t;
    };
    for (let k = 0; k < 6 && (hidden < 0 || open < 0); k++) look(frontier[rng.int(frontier.length)]);
    if (hidden < 0 && open < 0) for (const t of frontier) look(t);
    if (open >= 0 && (hidden < 0 || rng.int(4) !== 0)) {
      const unknown = unknownCells(open);
      const batch: Array<[number, 0 | 1]> = [];
      const size = Math.min(unknown.length, rng.range(minBatch, maxBatch));
      for (let k = 0; k < size; k++) {
        const j = k + rng.int(unknown.length - k);
        [unknown[k], unknown[j]] = [unknown[j], unknown[k]];
        const c = unknown[k];
        const truth = field.solution[c] as 0 | 1;
        batch.push([c, rng.int(1000) < wrongPermille(m) ? ((1 - truth) as 0 | 1) : truth]);
      }
      // Now and then a duplicate or an already known cell: ignored, but in the batch's order.
      if (batch.length > 1 && rng.int(20) === 0) batch.splice(rng.int(batch.length), 0, batch[rng.int(batch.length)]);
      if (rng.int(25) === 0) {
        const known = field.tiles[open].cellIds.find((c) => referee.cell(c)?.value !== -1);
        if (known !== undefined) batch.splice(rng.int(batch.length + 1), 0, [known, field.solution[known] as 0 | 1]);
      }
      const answer = await write({ type: "commit", machineId: m, agent, expectedRevision: referee.revision, cells: batch, intent: `tile ${open}: ${batch.length} cells` });
      if (answer) for (const a of answer.accepted as Array<{ id: number }>) mine.push(a.id);
      return answer !== null;
    }
    if (hidden >= 0) return (await write({ type: "reveal", machineId: m, agent, expectedRevision: referee.revision, tile: hidden, intent: `reveal ${hidden}` })) !== null;
    return false;
  };

  let idle = 0;
  for (let round = 0; ; round++) {
    if (o.maxWrites !== undefined && writes >= o.maxWrites && !canGrow) break;
    // A round moved when it logged something (rejected guesses alone change nothing).
    const before = writes;
    for (const agent of [...agents]) {
      const acted = await move(agent);
      // An agent with nothing left to reach sometimes takes a new seat (a machine has 3 sessions).
      if (!acted && !dead(machineOf(agent)) && (referee.frontier(agent) ?? []).length === 0 && rng.int(8) === 0) {
        await join(machineOf(agent));
      }
    }
    const moved = writes > before;
    if (canGrow && (round % 8 === 0 || !moved)) {
      const revealed = referee.revealedTiles();
      if (!moved || referee.status === "solved" || revealed >= coverage * referee.tilesTotal()) await grow();
    }
    o.onProgress?.({ writes, rings, tiles: referee.tilesTotal(), revealed: referee.revealedTiles() });
    idle = moved ? 0 : idle + 1;
    if (idle >= 2 && !canGrow) break;
  }
  await record({ type: "close" }, referee.close(now()));

  const dayKeyHex = bytesToHex(o.dayKey);
  let hashes: string[] | null = null;
  const tileHashes = async (): Promise<string[]> => {
    if (hashes) return hashes;
    const out: string[] = [];
    for (const t of field.tiles) out.push(await tileHash(o.dayKey, tileEncoding(gameId, t, field.solution, field.G)));
    return (hashes = out);
  };
  const header = async (): Promise<ArchiveHeader> => ({
    format: ARCHIVE_FORMAT,
    game_id: gameId,
    day: gameId.replace(/^day-/, ""),
    G: field.G,
    params: o.params,
    rings,
    seed_commit: await seedCommit(o.daySeed),
    hash_key_commit: await hashKeyCommit(o.dayKey),
    day_seed: o.daySeed,
    day_key: dayKeyHex,
  });
  const archiveTiles = async (): Promise<ArchiveTile[]> => {
    const h = await tileHashes();
    return field.tiles.map((t: Tile) => {
      const s = referee.tileStatus(t.id)!;
      return archiveTileOf(t, field.solution, field.G, h[t.id], s.status, s.agent);
    });
  };
  return {
    gameId,
    day: gameId.replace(/^day-/, ""),
    daySeed: o.daySeed,
    dayKey: o.dayKey,
    params: o.params,
    field,
    initialTiles,
    log,
    referee,
    writes,
    rings,
    machines,
    header,
    tileHashes,
    archiveTiles,
    async archiveSource() {
      const tiles = await archiveTiles();
      const last = log[log.length - 1];
      return {
        header: await header(),
        tiles: () => tiles,
        events: () => log.map((w) => w.event),
        log_head: { hash: last.event.hash, rev: last.rev },
        scores: archiveScores(referee),
        health: archiveHealth(referee),
      };
    },
  };
}
