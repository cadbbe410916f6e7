/**
 * The field and the run's seats on it: which field to play, waiting until it plays, joining,
 * and moving to another seat (or taking a new one) when the current group has nothing left.
 * Each seat has its own view of the field (board, solver, share of the frontier).
 */
import { Board, type Observation } from "./board";
import { Deducer } from "./deduce";
import type { GameLink } from "./link";
import { sleep } from "./link";
import type { AgentOptions } from "./options";
import { WorkShare } from "./share";
import { Stop } from "./stop";
import type { JoinAnswer, ListGamesAnswer, ObserveAnswer, StartAnswer } from "./answers";

export class Seats {
  gameId = "";
  board!: Board;
  deducer!: Deducer;
  share!: WorkShare;
  private readonly seats: Array<{ agent: string; session: string }> = [];
  private seat = 0;

  constructor(
    private readonly o: AgentOptions,
    private readonly link: GameLink,
    private readonly log: (line: string) => void,
  ) {}

  /** The agent of the current seat ("" before the first join). */
  get agent(): string {
    return this.seats[this.seat]?.agent ?? "";
  }

  /** Every agent this run seated, in join order. */
  agents(): string[] {
    return this.seats.map((x) => x.agent);
  }

  /** `--game`, else a field started with `--new`, else the newest playing field. */
  async chooseField(): Promise<void> {
    this.gameId = await this.fieldId();
  }

  private async fieldId(): Promise<string> {
    if (this.o.game) return this.o.game;
    if (this.o.newField) {
      const { kind, ...rest } = this.o.newField;
      const r = await this.link.call<StartAnswer>("start_mosaic", { kind, ...rest });
      if (!r.ok) throw new Stop("error", `start_mosaic: ${r.message}`);
      this.log(`started a ${kind} field, ${r.data.game_id}${r.data.G ? ` (G=${r.data.G})` : ""}`);
      return r.data.game_id;
    }
    const r = await this.link.call<ListGamesAnswer>("list_games", {});
    if (!r.ok) throw new Stop("error", `list_games: ${r.message}`);
    const game = r.data.games.find((g) => g.status === "playing");
    if (!game) throw new Stop("error", "no playing field on this server: pass --game ID or --new KIND G");
    this.log(`joining the newest playing field ${game.game_id}`);
    return game.game_id;
  }

  /** Polls a cheap observation until the field plays (SPEC §6: generating fields answer their status). */
  async waitPlaying(): Promise<void> {
    const deadline = Date.now() + (this.o.generationSeconds ?? 600) * 1000;
    for (let delay = 200; ; delay = Math.min(2000, delay * 1.5)) {
      const r = await this.link.call<ObserveAnswer>("observe", { game_id: this.gameId, rect: [0, 0, 1, 1] });
      if (r.ok) {
        const status = r.data.observation.status;
        if (status === "playing") return;
        if (status === "solved" || status === "closed") throw new Stop(status);
        if (status === "failed") throw new Stop("failed", r.data.observation.error ?? "generation failed");
      } else if (r.code === "failed") throw new Stop("failed", r.message);
      else if (r.code !== "generating") this.link.fail("observe while waiting", r);
      if (Date.now() > deadline) throw new Stop("error", `field ${this.gameId} still not playing after ${this.o.generationSeconds ?? 600} s`);
      await sleep(delay);
    }
  }

  /** Takes a seat; false when the field has no tile left to seed it with. */
  async join(session: string): Promise<boolean> {
    const args: Record<string, unknown> = { game_id: this.gameId, session, model: this.o.model ?? "none", harness: "mosaic-reference-agent" };
    if (this.o.name) args.name = this.o.name;
    if (this.o.tags) args.tags = this.o.tags;
    const r = await this.link.call<JoinAnswer>("join", args);
    if (!r.ok) {
      if (r.code === "closed" || r.code === "dead") throw new Stop(r.code);
      if (this.seats.length === 0) throw new Stop("error", `join: ${r.message}`);
      this.log(`join ${session}: ${r.message}`);
      return false;
    }
    const seed = r.data.seed_tile;
    this.seats.push({ agent: r.data.agent, session });
    this.seat = this.seats.length - 1;
    this.freshView();
    this.board.revision = r.data.revision;
    this.log(`seated as ${r.data.agent}, seed tile ${seed ?? "none"}`);
    return seed !== null;
  }

  /** The current seat's scope, learnt into its board; null after a failed call. */
  async observe(): Promise<Observation | null> {
    const r = await this.link.call<ObserveAnswer>("observe", { game_id: this.gameId, agent: this.agent });
    if (!r.ok) {
      if (r.code === "closed") throw new Stop("closed");
      this.link.fail("observe", r);
      return null;
    }
    const o = r.data.observation;
    this.board.applyObservation(o);
    return o;
  }

  /** Moves to a seat of this run whose group still has a frontier, else takes a new seat. */
  async switchSeat(): Promise<boolean> {
    for (let i = 0; i < this.seats.length; i++) {
      if (i === this.seat) continue;
      const before = this.seat;
      this.seat = i;
      this.freshView();
      const o = await this.observe();
      if (o && o.frontier && o.frontier.length > 0) {
        this.log(`switching to seat ${this.agent} (frontier ${o.frontier.length})`);
        return true;
      }
      this.seat = before;
    }
    this.freshView();
    if (this.seats.length >= Math.min(3, this.o.maxSessions ?? 3)) return false;
    const base = this.o.session ?? "1";
    return this.join(`${base}.${this.seats.length + 1}`);
  }

  /** A new view of the field for the current seat: it learns everything again from its next look. */
  private freshView(): void {
    this.board = new Board(this.agent);
    this.deducer = new Deducer(this.board);
    this.share = new WorkShare(this.board, this.o.coordinate === false);
  }
}
