/**
 * The reference agent's game loop: observe its scope, commit what its solver proves, reveal on
 * its frontier, guess one cell only when every worked tile is truly ambiguous, and stop cleanly.
 */
import { Board, type Observation, type TileView } from "./board";
import { chooseGuess, chooseReveal } from "./choices";
import { Connection, type ToolOutcome } from "./connection";
import { Deducer } from "./deduce";
import { bearerToken, identityPath, loadOrCreateIdentity, type MachineIdentity } from "./identity";
import type { AgentOptions, AgentSummary, StopReason } from "./options";
import { orderForForcing, type OrderedCell } from "./order";
import { WorkShare } from "./share";
import { MAX_COMMIT_CELLS as MAX_BATCH, MAX_INTENT_CHARS as MAX_INTENT } from "../src/referee/limits";

/** Actions between two observations: the agent acts on its own answers, then looks again. */
const ACTIONS_PER_LOOK = 40;
/** Consecutive failed calls (timeouts, refusals that need a fresh look) before giving up. */
const MAX_FAILURES = 12;

class Stop extends Error {
  constructor(
    readonly reason: StopReason,
    message: string = reason,
  ) {
    super(message);
  }
}

/** "waiting": nothing of this agent's to do, but group mates have work it may take later (share.ts). */
type Step = "acted" | "idle" | "waiting" | "refresh";

interface CommitAnswer {
  revision: number;
  status?: string;
  accepted?: Array<{ id: number; v: 0 | 1; class?: string }>;
  rejected?: Array<{ id: number; reason: string; v?: 0 | 1 }>;
  ignored?: Array<{ id: number; reason: string; v?: 0 | 1 }>;
  unevaluated?: number[];
  solved?: number[];
  reward?: number;
  frontier?: number[];
  health?: { state: string };
  note?: string;
}

interface RevealAnswer extends TileView {
  tile: number;
  changed?: boolean;
  givens?: Array<[number, 0 | 1]>;
  seam?: Array<[number, 0 | 1]>;
  solved?: number[];
  revision: number;
  /** The tile's own status; `status` is the field's (SPEC §6.1). */
  tile_status?: string;
}

function percentiles(values: number[]): { p50: number; p95: number; max: number } {
  if (values.length === 0) return { p50: 0, p95: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), max: at(1) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Plays one field to its end (or the agent's) and returns the run's summary. */
export async function playAgent(options: AgentOptions): Promise<AgentSummary> {
  return new AgentRun(options).play();
}

class AgentRun {
  private readonly url: URL;
  private readonly started = Date.now();
  private readonly log: (line: string) => void;
  private identity!: MachineIdentity;
  private conn!: Connection;
  private gameId = "";
  private board!: Board;
  private deducer!: Deducer;
  private share!: WorkShare;
  private readonly seats: Array<{ agent: string; session: string }> = [];
  private seat = 0;
  private rejectGuesses = false;
  private failures = 0;
  private reauths = 0;
  /** Call durations of connections replaced after a token change. */
  private readonly durations: number[] = [];
  private readonly stats = { tiles: 0, reward: 0, reveals: 0, commits: 0, accepted: 0, forced: 0, guesses: 0, wrong: 0, conflicts: 0 };

  constructor(private readonly o: AgentOptions) {
    this.url = new URL(String(o.url));
    this.log = o.log ?? (() => {});
  }

  private get agent(): string {
    return this.seats[this.seat]?.agent ?? "";
  }

  async play(): Promise<AgentSummary> {
    let reason: StopReason = "error";
    let error: string | undefined;
    try {
      this.identity = loadOrCreateIdentity(identityPath(this.o.identityFile));
      if (this.identity.created) this.log(`created key file ${this.identity.file} (machine ${this.identity.machineId})`);
      await this.connect();
      this.gameId = await this.chooseField();
      await this.waitPlaying();
      await this.join(this.o.session ?? "1");
      reason = await this.loop();
    } catch (err) {
      if (err instanceof Stop) {
        reason = err.reason;
        if (err.message !== err.reason) error = err.message;
      } else {
        reason = "error";
        error = err instanceof Error ? err.message : String(err);
      }
    } finally {
      await this.conn?.close();
    }
    const s = this.stats;
    return {
      game_id: this.gameId,
      agents: this.seats.map((x) => x.agent),
      machine_id: this.identity?.machineId ?? "",
      reason,
      ...(error !== undefined ? { error } : {}),
      tiles: s.tiles,
      reward: s.reward,
      calls: this.conn?.calls ?? 0,
      call_ms: percentiles([...this.durations, ...(this.conn?.durations ?? [])]),
      reveals: s.reveals,
      commits: s.commits,
      accepted: s.accepted,
      forced: s.forced,
      forced_share: s.accepted === 0 ? 0 : s.forced / s.accepted,
      guesses: s.guesses,
      wrong: s.wrong,
      conflicts: s.conflicts,
      revision: this.board?.revision ?? 0,
      seconds: (Date.now() - this.started) / 1000,
    };
  }

  private timeoutMs(): number {
    return this.o.timeoutMs ?? 30_000;
  }

  private checkClock(): void {
    if (this.o.signal?.aborted) throw new Stop("aborted");
    if (Date.now() - this.started > (this.o.maxSeconds ?? 3600) * 1000) throw new Stop("time");
  }

  private async connect(): Promise<void> {
    const { token, minted } = await bearerToken(this.identity, this.url, this.timeoutMs());
    this.log(`${minted ? "minted a token" : "reusing the stored token"} for ${this.identity.machineId} at ${this.url.origin}`);
    await this.conn?.close();
    const calls = this.conn?.calls ?? 0;
    this.durations.push(...(this.conn?.durations ?? []));
    this.conn = await Connection.open({
      url: this.url,
      token,
      timeoutMs: this.timeoutMs(),
      retryMs: (this.o.retrySeconds ?? 60) * 1000,
      signal: this.o.signal,
      onRetry: (message, retriedMs) => this.log(`connection lost (${message}); retrying${retriedMs > 0 ? ` for ${(retriedMs / 1000).toFixed(1)} s` : ""}`),
    });
    this.conn.calls = calls;
  }

  /** A call whose refusal is handled by the caller; transport trouble and a replaced token are handled here. */
  private async call<T>(name: string, args: Record<string, unknown>): Promise<ToolOutcome<T>> {
    this.checkClock();
    if (this.o.turnMs) await sleep(this.o.turnMs);
    const r = await this.conn.call<T>(name, args);
    if (!r.ok && r.code === "token" && this.reauths < 3) {
      // Another program minted for this machine: take the stored token or mint again, once or twice.
      this.reauths++;
      await this.connect();
      return this.conn.call<T>(name, args);
    }
    if (r.ok) this.failures = 0;
    return r;
  }

  private fail(what: string, r: { code: string; message: string }): void {
    this.failures++;
    this.log(`${what}: ${r.code}: ${r.message}`);
    if (this.failures > MAX_FAILURES) throw new Stop("error", `${what}: ${r.code}: ${r.message}`);
  }

  private async chooseField(): Promise<string> {
    if (this.o.game) return this.o.game;
    if (this.o.newField) {
      const { kind, ...rest } = this.o.newField;
      const r = await this.call<{ game_id: string; G?: number; ignored?: string[] }>("start_mosaic", { kind, ...rest });
      if (!r.ok) throw new Stop("error", `start_mosaic: ${r.message}`);
      this.log(`started a ${kind} field, ${r.data.game_id}${r.data.G ? ` (G=${r.data.G})` : ""}`);
      return r.data.game_id;
    }
    const r = await this.call<{ games: Array<{ game_id: string; status: string }> }>("list_games", {});
    if (!r.ok) throw new Stop("error", `list_games: ${r.message}`);
    const game = r.data.games.find((g) => g.status === "playing");
    if (!game) throw new Stop("error", "no playing field on this server: pass --game ID or --new KIND G");
    this.log(`joining the newest playing field ${game.game_id}`);
    return game.game_id;
  }

  /** Polls a cheap observation until the field plays (SPEC §6: generating fields answer their status). */
  private async waitPlaying(): Promise<void> {
    const deadline = Date.now() + (this.o.generationSeconds ?? 600) * 1000;
    for (let delay = 200; ; delay = Math.min(2000, delay * 1.5)) {
      const r = await this.call<{ observation: Observation }>("observe", { game_id: this.gameId, rect: [0, 0, 1, 1] });
      if (r.ok) {
        const status = r.data.observation.status;
        if (status === "playing") return;
        if (status === "solved" || status === "closed") throw new Stop(status);
        if (status === "failed") throw new Stop("failed", r.data.observation.error ?? "generation failed");
      } else if (r.code === "failed") throw new Stop("failed", r.message);
      else if (r.code !== "generating") this.fail("observe while waiting", r);
      if (Date.now() > deadline) throw new Stop("error", `field ${this.gameId} still not playing after ${this.o.generationSeconds ?? 600} s`);
      await sleep(delay);
    }
  }

  /** Takes a seat; false when the field has no tile left to seed it with. */
  private async join(session: string): Promise<boolean> {
    const args: Record<string, unknown> = { game_id: this.gameId, session, model: this.o.model ?? "none", harness: "mosaic-reference-agent" };
    if (this.o.name) args.name = this.o.name;
    if (this.o.tags) args.tags = this.o.tags;
    const r = await this.call<{ agent: string; seed_tile: number | null; revision: number }>("join", args);
    if (!r.ok) {
      if (r.code === "closed" || r.code === "dead") throw new Stop(r.code);
      if (this.seats.length === 0) throw new Stop("error", `join: ${r.message}`);
      this.log(`join ${session}: ${r.message}`);
      return false;
    }
    const seed = r.data.seed_tile;
    this.seats.push({ agent: r.data.agent, session });
    this.seat = this.seats.length - 1;
    this.board = new Board(r.data.agent);
    this.deducer = new Deducer(this.board);
    this.share = new WorkShare(this.board, this.o.coordinate === false);
    this.board.revision = r.data.revision;
    this.log(`seated as ${r.data.agent}, seed tile ${seed ?? "none"}`);
    return seed !== null;
  }

  private async observe(): Promise<Observation | null> {
    const r = await this.call<{ observation: Observation }>("observe", { game_id: this.gameId, agent: this.agent });
    if (!r.ok) {
      if (r.code === "closed") throw new Stop("closed");
      this.fail("observe", r);
      return null;
    }
    const o = r.data.observation;
    this.board.applyObservation(o);
    return o;
  }

  private async loop(): Promise<StopReason> {
    let idleSince: number | null = null;
    let wait = 250;
    for (;;) {
      const o = await this.observe();
      if (!o) {
        await sleep(500);
        continue;
      }
      if (o.status === "solved" || o.status === "closed" || o.status === "failed") return o.status;
      if (o.health?.state === "dead") return "dead";
      const step = await this.act();
      if (step === "acted" || step === "refresh") {
        idleSince = null;
        wait = 250;
        continue;
      }
      if (step === "waiting") {
        // Group mates' work, which this agent takes over only if it stays undone for a while.
        idleSince = null;
        await sleep(wait);
        wait = Math.min(2000, wait * 2);
        continue;
      }
      // Nothing to do here: another seat of this run, a new seat, or wait for growth and merges.
      if (this.board.frontier.length === 0 && (await this.switchSeat())) continue;
      idleSince ??= Date.now();
      if (Date.now() - idleSince > (this.o.idleSeconds ?? 20) * 1000) return this.board.frontier.length === 0 ? "no_frontier" : "stuck";
      await sleep(wait);
      wait = Math.min(2000, wait * 2);
    }
  }

  /** Moves to a seat of this run whose group still has a frontier, else takes a new seat. */
  private async switchSeat(): Promise<boolean> {
    for (let i = 0; i < this.seats.length; i++) {
      if (i === this.seat) continue;
      const before = this.seat;
      this.seat = i;
      this.board = new Board(this.seats[i].agent);
      this.deducer = new Deducer(this.board);
      this.share = new WorkShare(this.board, this.o.coordinate === false);
      const o = await this.observe();
      if (o && o.frontier && o.frontier.length > 0) {
        this.log(`switching to seat ${this.agent} (frontier ${o.frontier.length})`);
        return true;
      }
      this.seat = before;
    }
    this.board = new Board(this.agent);
    this.deducer = new Deducer(this.board);
    this.share = new WorkShare(this.board, this.o.coordinate === false);
    if (this.seats.length >= Math.min(3, this.o.maxSessions ?? 3)) return false;
    const base = this.o.session ?? "1";
    return this.join(`${base}.${this.seats.length + 1}`);
  }

  /**
   * Acts on what the agent knows until nothing is left to do or a fresh look is needed. Only the
   * tiles the group's share gives this agent are worked (share.ts): its group mates deduce the
   * same cells, and committing them too would only be refused as conflicts.
   */
  private async act(): Promise<Step> {
    let acted = false;
    for (let n = 0; n < ACTIONS_PER_LOOK; n++) {
      const board = this.board;
      if (board.frontier.some((t) => !board.tile(t))) return acted ? "acted" : "refresh";
      const work = board.workTiles();
      const d = this.deducer.deduce(work);
      if (d.contradictions.length > 0) this.log(`warning: no solution agrees with the known cells of tiles ${d.contradictions.join(", ")}`);
      const open = new Map<number, 0 | 1>();
      for (const [cell, v] of d.proven) if (!board.serverKnown.has(cell)) open.set(cell, v);
      const hidden = board.hiddenFrontier();
      const guessable = [...d.candidates].filter(([, sols]) => sols !== null && sols.length >= 2).map(([t]) => t);
      const share = this.share;
      share.refresh();
      if (n === 0) share.noteLook(new Set([...[...open.keys()].flatMap((c) => share.watchedFor(c)), ...hidden.map((t) => t.id), ...(open.size === 0 ? guessable : [])]));
      const mine = (tile: number): boolean => !share.othersHold(tile);

      // Only the cells of this agent's tiles, and none that a reveal by someone else is about to
      // touch (share.ts): group mates and neighbouring groups prove the same cells.
      const myOpen = new Map([...open].filter(([cell]) => share.mayCommit(cell)));
      if (myOpen.size > 0) {
        const ordered = orderForForcing(board, work, myOpen, this.rejectGuesses);
        if (ordered.length > 0) {
          const step = await this.commitProven(ordered, d.candidates);
          if (step === "refresh") return "refresh";
          acted = true;
          continue;
        }
      }
      const next = chooseReveal(board, hidden.filter((t) => mine(t.id)), this.o.expand ?? "open");
      if (next) {
        if ((await this.reveal(next.id)) === "refresh") return "refresh";
        acted = true;
        continue;
      }
      // A guess only when nothing anywhere is proven: a proven cell of a group mate's tile may settle it.
      const guess = this.rejectGuesses || open.size > 0 ? null : chooseGuess(board, new Map([...d.candidates].filter(([t]) => mine(t))));
      if (guess) {
        const intent = `guess: tile ${guess.tile} has ${guess.solutions} solutions left; cell ${guess.cell}=${guess.value} holds in ${guess.agreeing}`;
        this.stats.guesses++;
        if ((await this.commit([{ cell: guess.cell, value: guess.value, forced: false }], intent)) === "refresh") return "refresh";
        acted = true;
        continue;
      }
      if (acted) return "acted";
      return this.share.othersHaveWork() ? "waiting" : "idle";
    }
    return "acted";
  }

  private async commitProven(ordered: OrderedCell[], candidates: ReadonlyMap<number, unknown>): Promise<Step> {
    for (let i = 0; i < ordered.length; i += MAX_BATCH) {
      const batch = ordered.slice(i, i + MAX_BATCH);
      const tiles = new Set<number>();
      for (const { cell } of batch) for (const t of this.board.tilesOf(cell)) if (candidates.has(t)) tiles.add(t);
      const list = [...tiles].sort((a, b) => a - b);
      const predicted = batch.filter((c) => c.forced).length;
      const intent = `proven: ${batch.length} cells of tile${list.length === 1 ? "" : "s"} ${list.slice(0, 8).join(",")}${list.length > 8 ? ",…" : ""} agree in every solution left by known cells and neighbours (${predicted} by propagation)`;
      if ((await this.commit(batch, intent)) === "refresh") return "refresh";
    }
    return "acted";
  }

  private async commit(cells: OrderedCell[], intent: string): Promise<Step> {
    const r = await this.call<CommitAnswer>("commit", {
      game_id: this.gameId,
      agent: this.agent,
      expected_revision: this.board.revision,
      cells: cells.map((c) => [c.cell, c.value]),
      intent: intent.slice(0, MAX_INTENT),
    });
    if (!r.ok) return this.refused("commit", r);
    this.stats.commits++;
    const a = r.data;
    const board = this.board;
    board.revision = Math.max(board.revision, a.revision);
    for (const c of a.accepted ?? []) {
      board.setKnown(c.id, c.v);
      this.stats.accepted++;
      if (c.class === "forced") this.stats.forced++;
    }
    for (const c of a.rejected ?? []) {
      const sent = cells.find((x) => x.cell === c.id)?.value ?? c.v;
      if (sent === undefined) continue;
      if (c.reason === "wrong") {
        // The other value is the solution's: learn it, and commit it with the next proven batch.
        this.stats.wrong++;
        board.truth.set(c.id, (1 - sent) as 0 | 1);
        this.log(`cell ${c.id}=${sent} was wrong; it is ${1 - sent}`);
      } else if (c.reason === "guess") {
        // Correct but not forced on a field that rejects guesses: true, though not committable yet.
        board.truth.set(c.id, sent);
        if (!this.rejectGuesses) this.log("this field rejects cells its propagation does not force: committing forced cells only");
        this.rejectGuesses = true;
      }
    }
    let stale = false;
    for (const c of a.ignored ?? []) {
      if (c.reason === "known" || c.reason === "given") {
        const v = c.v ?? board.truth.get(c.id);
        if (v !== undefined) board.setKnown(c.id, v);
        else board.serverKnown.add(c.id);
      } else if (c.reason === "off_frontier" || c.reason === "not_revealed") stale = true;
    }
    const solved = a.solved ?? [];
    board.markSolved(solved, this.agent);
    this.stats.tiles += solved.length;
    this.stats.reward += a.reward ?? 0;
    if (a.frontier) board.frontier = [...a.frontier];
    if (solved.length > 0) this.log(`solved tile${solved.length === 1 ? "" : "s"} ${solved.join(", ")} (+${a.reward ?? 0})`);
    if (a.health?.state === "dead") throw new Stop("dead");
    if (a.status === "solved" || a.status === "closed") throw new Stop(a.status);
    return stale ? "refresh" : "acted";
  }

  private async reveal(tile: number): Promise<Step> {
    const board = this.board;
    const t = board.tile(tile);
    const known = t ? t.cellIds.filter((c) => board.truth.has(c)).length : 0;
    const r = await this.call<RevealAnswer>("reveal", {
      game_id: this.gameId,
      agent: this.agent,
      expected_revision: board.revision,
      tile,
      intent: `reveal tile ${tile} on the frontier (${known} of ${t?.cells ?? "?"} cells already known)`,
    });
    if (!r.ok) return this.refused("reveal", r);
    this.stats.reveals++;
    const a = r.data;
    // Revealed by this call (not a read of someone else's reveal): the tile is this agent's to work.
    if (a.changed !== false) this.share.noteRevealed(tile);
    board.revision = Math.max(board.revision, a.revision);
    const tileStatus = a.tile_status === "solved" ? "solved" : "revealed";
    const view = board.upsertTile({ ...a, id: a.tile, status: tileStatus });
    view.status = tileStatus;
    for (const [cell, v] of [...(a.givens ?? []), ...(a.seam ?? [])]) board.setKnown(cell, v);
    const solved = a.solved ?? [];
    if (solved.length > 0) {
      // Revealing a tile whose cells were all known solves it at once, credited to the revealer.
      board.markSolved(solved, this.agent);
      this.stats.tiles += solved.length;
      for (const id of solved) this.stats.reward += board.tile(id)?.cells ?? 0;
      return "refresh"; // the frontier grew: look again
    }
    return "acted";
  }

  /** A refused write: conflicts and stale views need a fresh look; the end of play stops the run. */
  private refused(what: string, r: { code: string; message: string }): Step {
    switch (r.code) {
      case "dead":
      case "closed":
        throw new Stop(r.code);
      case "conflict":
        this.stats.conflicts++;
        this.failures = 0;
        return "refresh";
      case "off_frontier":
      case "solved":
      case "timeout":
      case "transport":
      case "token":
        this.fail(what, r);
        return "refresh";
      default:
        throw new Stop("error", `${what}: ${r.code}: ${r.message}`);
    }
  }
}
