// A scripted "model" for the client matrix: it decides each next tool call from nothing but what
// its client showed it of the previous answer, as an LLM without code would: the text (summary,
// tile pictures, cells by coordinates), or for Mastra the structured content with its pictures. It
// reads its seed tile off the reveal's picture and deduces the cells it commits with the reference
// agent's solver.
import { Board } from "../../agent/board";
import { chooseGuess } from "../../agent/choices";
import { Deducer } from "../../agent/deduce";
import { parsePicture, parsePictures, type PictureTile } from "../../src/text/tile-picture";
import { readSeen, type Data, type Reading } from "./model-view";

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface Turn {
  step: Step;
  call: ToolCall;
  text: string;
  reading: Reading;
}

type Step = "start" | "poll" | "join" | "observe" | "reveal" | "commit" | "refused" | "done";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A number after `label` in a text ("revision 12"), or NaN. */
function numberAfter(text: string, label: RegExp): number {
  const m = label.exec(text);
  return m ? Number(m[1]) : NaN;
}

/** "frontier: 3, 7, 9" → [3, 7, 9]. */
function frontierIn(text: string): number[] {
  const m = /frontier: ([\d, ]+)/.exec(text);
  return m ? m[1].split(",").map((s) => Number(s.trim())).filter(Number.isInteger) : [];
}

/** What the model read at each step (for the expectations): facts taken from its view only. */
export interface Readings {
  gameId: string;
  status: string;
  agent: string;
  seedTile: number;
  /** The seed tile as its reveal's picture drew it. */
  picture: PictureTile | null;
  /** The reveal's picture came from the text (content clients) or structuredContent.pictures (Mastra). */
  pictureFrom: "text" | "structured" | null;
  /** Counts the commit answer said. */
  accepted: number;
  rejected: number;
  commitRevision: number;
  health: string;
  refusal: string;
}

/**
 * start_mosaic → observe {game_id} until playing → join → observe {agent} → reveal the seed →
 * commit what the reveal's picture proves (or one guess) → reveal a tile off the frontier (refused).
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
  /** Cells sent in the commit (by coordinates), here by id, as the public log records them. */
  sent: Array<[number, 0 | 1]> = [];
  private listed: number[] = [];
  readonly read: Readings = { gameId: "", status: "", agent: "", seedTile: -1, picture: null, pictureFrom: null, accepted: -1, rejected: -1, commitRevision: -1, health: "", refusal: "" };

  constructor(private readonly options: { G: number; seed: string; session: string; model: string; harness?: string }) {}

  /** The model's turn: given what its client showed of the last answer (null at first), its next call, or null when it is done. */
  async next(seen: string | null): Promise<ToolCall | null> {
    const reading = seen === null ? null : readSeen(seen);
    if (this.last && seen !== null && reading) this.turns.push({ step: this.step, call: this.last, text: seen, reading });
    const call = await this.decide(reading);
    this.last = call;
    return call;
  }

  private async decide(r: Reading | null): Promise<ToolCall | null> {
    const gameId = this.gameId;
    const text = r?.text ?? "";
    const d: Data | undefined = r?.data;
    switch (this.step) {
      case "start": {
        if (this.last === null) return this.call("start_mosaic", { kind: "scatter", G: this.options.G, seed: this.options.seed });
        this.gameId = d ? String(d.game_id ?? "") : (/field ([0-9a-f-]{36})/.exec(text)?.[1] ?? "");
        this.read.gameId = this.gameId;
        return this.to("poll", "observe", { game_id: this.gameId });
      }
      case "poll": {
        const status = d ? String((d.observation as { status?: string } | undefined)?.status) : (/^\S+: (\w+), revision/.exec(text)?.[1] ?? /is (generating)/.exec(text)?.[1] ?? "");
        if (status !== "playing") {
          if (++this.polls > 200) return null;
          await sleep(150);
          return this.call("observe", { game_id: gameId });
        }
        this.read.status = status;
        const join: Record<string, unknown> = { game_id: gameId, session: this.options.session, model: this.options.model };
        if (this.options.harness) join.harness = this.options.harness;
        return this.to("join", "join", join);
      }
      case "join": {
        if (d) {
          this.agent = String(d.agent ?? "");
          this.seedTile = typeof d.seed_tile === "number" ? d.seed_tile : -1;
          this.revision = Number(d.revision ?? 0);
        } else {
          const m = /Seated as (\S+) at revision (\d+); seed tile (\d+)/.exec(text);
          if (!m) return null;
          [this.agent, this.revision, this.seedTile] = [m[1], Number(m[2]), Number(m[3])];
        }
        this.read.agent = this.agent;
        this.read.seedTile = this.seedTile;
        return this.to("observe", "observe", { game_id: gameId, agent: this.agent });
      }
      case "observe": {
        // The tiles in view, to pick one off the frontier later.
        if (d) {
          const o = d.observation as { revision: number; tiles: Array<{ id: number }> } | undefined;
          if (!o) return null;
          this.listed = o.tiles.map((t) => t.id);
          this.revision = o.revision;
        } else {
          this.listed = [...text.matchAll(/^(\d+)\*?: x \d+\.\.\d+, y/gm)].map((m) => Number(m[1]));
          this.revision = numberAfter(text, /revision (\d+)/);
        }
        return this.to("reveal", "reveal", { game_id: gameId, agent: this.agent, expected_revision: this.revision, tile: this.seedTile, intent: "reveal my seed tile" });
      }
      case "reveal": {
        let picture: PictureTile | undefined;
        if (d) {
          const drawn = (d.pictures as Record<string, string> | undefined)?.[String(this.seedTile)];
          picture = drawn === undefined ? undefined : parsePicture(drawn);
          this.revision = Number(d.revision);
          this.read.pictureFrom = "structured";
        } else {
          picture = parsePictures(text)[0];
          this.revision = numberAfter(text, /revision (\d+)/);
          this.read.pictureFrom = "text";
        }
        if (!picture) return null;
        this.read.picture = picture;
        const cells = this.deduce(picture);
        if (!cells) return null;
        this.sent = cells;
        // Sent by coordinates, as a model reading the picture would; the log records them by id.
        const G = this.options.G;
        const xy = cells.map(([c, v]) => [c % G, Math.floor(c / G), v]);
        return this.to("commit", "commit", { game_id: gameId, agent: this.agent, expected_revision: this.revision, xy, intent: "cells proven from the seed tile's picture" });
      }
      case "commit": {
        let frontier: number[];
        if (d) {
          frontier = (d.frontier as number[] | undefined) ?? [];
          this.read.accepted = (d.accepted as unknown[]).length;
          this.read.rejected = (d.rejected as unknown[]).length;
          this.read.commitRevision = Number(d.revision);
          this.read.health = String((d.health as { state?: string } | undefined)?.state);
        } else {
          frontier = frontierIn(text);
          this.read.accepted = numberAfter(text, /(\d+) accepted/);
          this.read.rejected = numberAfter(text, /(\d+) rejected/);
          this.read.commitRevision = numberAfter(text, /^Revision (\d+)/);
          this.read.health = /Health (\w+)/.exec(text)?.[1] ?? "";
        }
        const away = this.listed.filter((t) => !frontier.includes(t) && t !== this.seedTile);
        if (away.length === 0) return null;
        return this.to("refused", "reveal", { game_id: gameId, agent: this.agent, expected_revision: this.read.commitRevision, tile: Math.max(...away), intent: "a tile off my frontier" });
      }
      case "refused":
        this.read.refusal = text || JSON.stringify(d);
        this.step = "done";
        return null;
      default:
        return null;
    }
  }

  /**
   * The cells the picture proves: the tile rebuilt from the picture's rows (cell ids from the
   * coordinates, y*G + x, G being the side the model chose at start), its known cells set, the
   * reference agent's solver run over it; one guess when nothing is proven.
   */
  private deduce(picture: PictureTile): Array<[number, 0 | 1]> | null {
    const G = this.options.G;
    const board = new Board(this.agent);
    board.G = G;
    // One 1-row rectangle per run of cells in a row: the picture's blanks are outside the tile.
    const rects: Array<[number, number, number, number]> = [];
    for (const c of picture.cells) {
      const last = rects.at(-1);
      if (last && last[1] === c.y - picture.y0 && last[0] + last[2] === c.x - picture.x0) last[2]++;
      else rects.push([c.x - picture.x0, c.y - picture.y0, 1, 1]);
    }
    const tile = board.upsertTile({ id: this.seedTile, x0: picture.x0, y0: picture.y0, w: picture.w, h: picture.h, rects, status: "revealed" });
    for (const c of picture.cells) if (c.v !== -1) board.setKnown(c.y * G + c.x, c.v);
    const deduction = new Deducer(board).deduce([tile]);
    const cells = [...deduction.proven].filter(([c]) => !board.serverKnown.has(c)).slice(0, 512);
    if (cells.length > 0) return cells;
    const guess = chooseGuess(board, deduction.candidates);
    if (!guess) return null;
    this.guessed = true;
    return [[guess.cell, guess.value]];
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
