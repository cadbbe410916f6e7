/**
 * The reference agent's game loop: observe its scope, commit what its solver proves, reveal on
 * its frontier, guess one cell only when every worked tile is truly ambiguous, and stop cleanly.
 * Its parts: the line to the server (link.ts), the field and seats (seats.ts), what to do between
 * two looks (strategy.ts) and what the answers teach (answers.ts).
 */
import { readCommitAnswer, readRevealAnswer, type AnswerReader, type CommitAnswer, type PlayStats, type RevealAnswer } from "./answers";
import type { Board } from "./board";
import type { ExpandPolicy } from "./choices";
import type { Deducer } from "./deduce";
import { identityPath, loadOrCreateIdentity, type MachineIdentity } from "./identity";
import { GameLink, sleep } from "./link";
import type { AgentOptions, AgentSummary, StopReason } from "./options";
import type { OrderedCell } from "./order";
import { Seats } from "./seats";
import type { WorkShare } from "./share";
import { Stop, type Step } from "./stop";
import { act, type Player } from "./strategy";
import { MAX_INTENT_CHARS as MAX_INTENT } from "../src/referee/limits";

function percentiles(values: number[]): { p50: number; p95: number; max: number } {
  if (values.length === 0) return { p50: 0, p95: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), max: at(1) };
}

/** Plays one field to its end (or the agent's) and returns the run's summary. */
export async function playAgent(options: AgentOptions): Promise<AgentSummary> {
  return new AgentRun(options).play();
}

class AgentRun implements AnswerReader, Player {
  private readonly url: URL;
  private readonly started = Date.now();
  readonly log: (line: string) => void;
  private identity!: MachineIdentity;
  private link: GameLink | undefined;
  private seats!: Seats;
  rejectGuesses = false;
  readonly stats: PlayStats = { tiles: 0, reward: 0, reveals: 0, commits: 0, accepted: 0, forced: 0, guesses: 0, wrong: 0, conflicts: 0 };

  constructor(private readonly o: AgentOptions) {
    this.url = new URL(String(o.url));
    this.log = o.log ?? (() => {});
  }

  get agent(): string {
    return this.seats?.agent ?? "";
  }
  get board(): Board {
    return this.seats.board;
  }
  get deducer(): Deducer {
    return this.seats.deducer;
  }
  get share(): WorkShare {
    return this.seats.share;
  }
  /** The line to the server, open from the start of play on. */
  private get server(): GameLink {
    return this.link as GameLink;
  }
  get expand(): ExpandPolicy {
    return this.o.expand ?? "open";
  }

  async play(): Promise<AgentSummary> {
    let reason: StopReason = "error";
    let error: string | undefined;
    try {
      this.identity = loadOrCreateIdentity(identityPath(this.o.identityFile));
      if (this.identity.created) this.log(`created key file ${this.identity.file} (machine ${this.identity.machineId})`);
      this.link = new GameLink(this.o, this.url, this.identity, this.started, this.log);
      this.seats = new Seats(this.o, this.link, this.log);
      await this.link.connect();
      await this.seats.chooseField();
      await this.seats.waitPlaying();
      await this.seats.join(this.o.session ?? "1");
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
      await this.link?.close();
    }
    const s = this.stats;
    return {
      game_id: this.seats?.gameId ?? "",
      agents: this.seats?.agents() ?? [],
      machine_id: this.identity?.machineId ?? "",
      reason,
      ...(error !== undefined ? { error } : {}),
      tiles: s.tiles,
      reward: s.reward,
      calls: this.link?.calls ?? 0,
      call_ms: percentiles(this.link?.callDurations() ?? []),
      reveals: s.reveals,
      commits: s.commits,
      accepted: s.accepted,
      forced: s.forced,
      forced_share: s.accepted === 0 ? 0 : s.forced / s.accepted,
      guesses: s.guesses,
      wrong: s.wrong,
      conflicts: s.conflicts,
      revision: this.seats?.board?.revision ?? 0,
      seconds: (Date.now() - this.started) / 1000,
    };
  }

  private async loop(): Promise<StopReason> {
    let idleSince: number | null = null;
    let wait = 250;
    for (;;) {
      const o = await this.seats.observe();
      if (!o) {
        await sleep(500);
        continue;
      }
      if (o.status === "solved" || o.status === "closed" || o.status === "failed") return o.status;
      if (o.health?.state === "dead") return "dead";
      const step = await act(this);
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
      if (this.board.frontier.length === 0 && (await this.seats.switchSeat())) continue;
      idleSince ??= Date.now();
      if (Date.now() - idleSince > (this.o.idleSeconds ?? 20) * 1000) return this.board.frontier.length === 0 ? "no_frontier" : "stuck";
      await sleep(wait);
      wait = Math.min(2000, wait * 2);
    }
  }

  guessed(): void {
    this.stats.guesses++;
  }

  async commit(cells: OrderedCell[], intent: string): Promise<Step> {
    const r = await this.server.call<CommitAnswer>("commit", {
      game_id: this.seats.gameId,
      agent: this.agent,
      expected_revision: this.board.revision,
      cells: cells.map((c) => [c.cell, c.value]),
      intent: intent.slice(0, MAX_INTENT),
    });
    if (!r.ok) return this.refused("commit", r);
    return readCommitAnswer(this, cells, r.data);
  }

  async reveal(tile: number): Promise<Step> {
    const board = this.board;
    const t = board.tile(tile);
    const known = t ? t.cellIds.filter((c) => board.truth.has(c)).length : 0;
    const r = await this.server.call<RevealAnswer>("reveal", {
      game_id: this.seats.gameId,
      agent: this.agent,
      expected_revision: board.revision,
      tile,
      intent: `reveal tile ${tile} on the frontier (${known} of ${t?.cells ?? "?"} cells already known)`,
    });
    if (!r.ok) return this.refused("reveal", r);
    // Revealed by this call (not a read of someone else's reveal): the tile is this agent's to work.
    if (r.data.changed !== false) this.share.noteRevealed(tile);
    return readRevealAnswer(this, r.data);
  }

  /** A refused write: conflicts and stale views need a fresh look; the end of play stops the run. */
  private refused(what: string, r: { code: string; message: string }): Step {
    switch (r.code) {
      case "dead":
      case "closed":
        throw new Stop(r.code);
      case "conflict":
        this.stats.conflicts++;
        this.server.resetFailures();
        return "refresh";
      case "off_frontier":
      case "solved":
      case "timeout":
      case "transport":
      case "token":
      // The service failed under the call or limits the caller: look again (a write's outcome is unknown) and retry.
      case "unavailable":
      case "rate_limited":
        this.server.fail(what, r);
        return "refresh";
      default:
        throw new Stop("error", `${what}: ${r.code}: ${r.message}`);
    }
  }
}
