// A scripted "model" for the client matrix: it decides each next tool call from nothing but the
// text its client showed it for the previous one, as an LLM would, and deduces the cells it
// commits with the reference agent's solver from the shapes, givens and known cells it read.
import { Board, type Observation, type TileView } from "../../agent/board";
import { chooseGuess } from "../../agent/choices";
import { Deducer } from "../../agent/deduce";
import { dataInText, type Data } from "./model-view";

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface Turn {
  step: Step;
  call: ToolCall;
  text: string;
  data: Data | undefined;
}

type Step = "start" | "poll" | "join" | "observe" | "reveal" | "commit" | "refused" | "done";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * start_mosaic → observe {game_id} until playing → join → observe {agent} → reveal the seed →
 * commit what the reveal proves (or one guess) → reveal a tile off the frontier (refused).
 */
export class ScriptedModel {
  readonly turns: Turn[] = [];
  private step: Step = "start";
  private last: ToolCall | null = null;
  private polls = 0;
  gameId = "";
  agent = "";
  seedTile = -1;
  revision = 0;
  guessed = false;
  private board: Board | null = null;

  constructor(private readonly options: { G: number; seed: string; session: string; model: string; harness?: string }) {}

  /** The model's turn: given the text of the last answer (null at first), its next call, or null when it is done. */
  async next(seen: string | null): Promise<ToolCall | null> {
    if (this.last && seen !== null) this.turns.push({ step: this.step, call: this.last, text: seen, data: dataInText(seen) });
    const data = seen === null ? undefined : dataInText(seen);
    const call = await this.decide(data);
    this.last = call;
    return call;
  }

  private async decide(d: Data | undefined): Promise<ToolCall | null> {
    const gameId = this.gameId;
    switch (this.step) {
      case "start":
        if (this.last === null) return this.call("start_mosaic", { kind: "scatter", G: this.options.G, seed: this.options.seed });
        this.gameId = String(d?.game_id ?? "");
        return this.to("poll", "observe", { game_id: this.gameId });
      case "poll": {
        const status = (d?.observation as { status?: string } | undefined)?.status;
        if (status !== "playing") {
          if (++this.polls > 200) return null;
          await sleep(150);
          return this.call("observe", { game_id: gameId });
        }
        const join: Record<string, unknown> = { game_id: gameId, session: this.options.session, model: this.options.model };
        if (this.options.harness) join.harness = this.options.harness;
        return this.to("join", "join", join);
      }
      case "join": {
        this.agent = String(d?.agent ?? "");
        this.seedTile = typeof d?.seed_tile === "number" ? d.seed_tile : -1;
        this.revision = Number(d?.revision ?? 0);
        return this.to("observe", "observe", { game_id: gameId, agent: this.agent });
      }
      case "observe": {
        const o = d?.observation as Observation | undefined;
        if (!o) return null;
        this.board = new Board(this.agent);
        this.board.applyObservation(o);
        this.revision = o.revision;
        return this.to("reveal", "reveal", { game_id: gameId, agent: this.agent, expected_revision: this.revision, tile: this.seedTile, intent: "reveal my seed tile" });
      }
      case "reveal": {
        const r = d as (TileView & { tile: number; givens: Array<[number, 0 | 1]>; seam: Array<[number, 0 | 1]>; revision: number }) | undefined;
        if (!r || !this.board) return null;
        this.revision = r.revision;
        const tile = this.board.upsertTile({ ...r, id: r.tile, status: "revealed" });
        tile.status = "revealed";
        for (const [c, v] of [...r.givens, ...r.seam]) this.board.setKnown(c, v);
        const deduction = new Deducer(this.board).deduce([tile]);
        let cells = [...deduction.proven].filter(([c]) => !this.board?.serverKnown.has(c)).slice(0, 512);
        if (cells.length === 0) {
          const guess = chooseGuess(this.board, deduction.candidates);
          if (!guess) return null;
          this.guessed = true;
          cells = [[guess.cell, guess.value]];
        }
        return this.to("commit", "commit", { game_id: gameId, agent: this.agent, expected_revision: this.revision, cells, intent: "cells proven from the seed tile's givens" });
      }
      case "commit": {
        const frontier = new Set((d?.frontier as number[] | undefined) ?? []);
        const away = [...(this.board?.tiles.values() ?? [])].filter((t) => !frontier.has(t.id) && t.id !== this.seedTile).map((t) => t.id);
        if (away.length === 0) return null;
        return this.to("refused", "reveal", { game_id: gameId, agent: this.agent, expected_revision: Number(d?.revision ?? this.revision), tile: Math.max(...away), intent: "a tile off my frontier" });
      }
      case "refused":
        this.step = "done";
        return null;
      default:
        return null;
    }
  }

  private call(name: string, args: Record<string, unknown>): ToolCall {
    return { name, args };
  }

  private to(step: Step, name: string, args: Record<string, unknown>): ToolCall {
    this.step = step;
    return { name, args };
  }

  /** True once the whole script ran. */
  get done(): boolean {
    return this.step === "done";
  }

  /** The turns of one step (polls repeat). */
  of(step: Step): Turn[] {
    return this.turns.filter((t) => t.step === step);
  }
}

/** A client whose host shows its model the content blocks (a desktop host, `mcp-remote`). */
interface ContentClient {
  callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** Plays `player` to its end through `client`, the model reading only each answer's text blocks. */
export async function playFromContent(client: ContentClient, player: ScriptedModel): Promise<void> {
  let seen: string | null = null;
  for (let call = await player.next(null); call; call = await player.next(seen)) {
    const result = (await client.callTool({ name: call.name, arguments: call.args })) as { content: Array<{ type: string; text?: string }> };
    seen = result.content.map((c) => c.text ?? "").join("\n");
  }
}
