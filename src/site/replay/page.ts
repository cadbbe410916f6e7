import { ArchiveReplay, leaderboard, type ArchiveLike, type PublicEvent, type SpectatorModel } from "../../spectator";
import { listArchives, listGames } from "../api";
import { pageHandle } from "../debug";
import { el, formatInt, formatTime, throttle } from "../dom";
import { died, meetings } from "../events";
import { FrontierTracker } from "../field/frontier";
import { sceneFromModel, syncEvent, syncTiles } from "../field/model-scene";
import { FieldScene } from "../field/scene";
import { AnalysisPanel } from "../panels/analysis";
import { LeaderboardPanel } from "../panels/leaderboard";
import { ListsPanel } from "../panels/lists";
import { LogPanel } from "../panels/log";
import { colourMachines } from "../palette";
import { markedRevisions, markersFor, pastMarkers, reachedBox, ringBoxes } from "../live/markers";
import { createShell, shortLabel, type Shell } from "../shell";
import type { Archive as ArchiveDocument } from "../../daily/archive/format";
import { BrowserAudit, type AuditState } from "./audit-client";
import { AuditPanel } from "./audit-panel";
import { parseHead } from "../../daily/audit/saved";
import { concatBytes, releaseBytes } from "../../text/bytes";

/** The archive as published (SPEC §9); it is also what the shared replay reads. */
type Archive = ArchiveDocument & ArchiveLike;

const SPEEDS = [1, 5, 20, 100, 500, 2000];
/** Forward jumps longer than this rebuild the scene from the model instead of event by event. */
const INCREMENTAL_LIMIT = 400;
const LOG_WINDOW = 200;

/** `/replay/<day>`: a finished day from its public archive alone, verified as it loads. */
export async function startReplay(dayParam: string): Promise<void> {
  const day = dayParam.startsWith("day-") ? dayParam : `day-${dayParam}`;
  const shell = createShell(new FieldScene(1));
  const log = new LogPanel({ announce: false });
  const board = new LeaderboardPanel("Leaderboard at the scrubbed revision");
  const lists = new ListsPanel(null);
  shell.addTab("log", "Log", log.root, () => log.shown());
  shell.addTab("leaderboard", "Leaderboard", board.root, () => board.shown());
  // The analysis needs each machine's tool calls and bytes, which the archive does not hold: the
  // tab shows the server's, at the close, and says so (loaded when first opened).
  const analysis = new AnalysisPanel();
  let analysisLoaded = false;
  shell.addTab("analysis", "Analysis", analysis.root, () => {
    if (analysisLoaded) return;
    analysisLoaded = true;
    analysis.load(day, "The day's analysis at its close, as the server computed it: it counts tool calls and bytes, which the archive does not hold, so it does not follow the slider.");
  });
  shell.addTab("fields", "Fields & days", lists.root);
  pageHandle().view = shell.view;
  shell.setTitle(`Replay ${day}`);
  shell.setStatus("Loading the archive…");
  void listGames().then((g) => lists.setGames(g), (e: Error) => lists.setGames(e));
  void listArchives().then((a) => lists.setArchives(a), (e: Error) => lists.setArchives(e));

  let bytes: Uint8Array;
  try {
    bytes = await fetchArchive(day, (n) => shell.setStatus("Loading the archive…", "idle", { detail: `${formatInt(Math.round(n / 1024))} KiB` }));
  } catch (err) {
    shell.setStatus(`No archive for ${day}: ${(err as Error).message}`);
    shell.selectTab("fields");
    return;
  }
  let archive: Archive;
  try {
    archive = JSON.parse(new TextDecoder().decode(bytes)) as Archive;
  } catch (err) {
    // Not JSON: the audit says what is wrong, in the command's words.
    const audit = startAudit(shell, day, bytes);
    shell.setStatus(`The archive of ${day} cannot be read: ${(err as Error).message}`, "offline");
    shell.replayBar.replaceChildren(audit.panel.line);
    shell.replayBar.hidden = false;
    shell.selectTab("audit");
    return;
  }
  // The replay is built first (its parse and first scene are the page's own work); the audit then
  // runs in workers on the bytes as downloaded, and the main thread only follows its progress.
  startAudit(shell, day, bytes, (line) => new ReplayPlayer(shell, archive, log, board, line));
}

/** The in-browser audit (the Audit tab and the bar's line), started on the archive's bytes. */
function startAudit(shell: Shell, day: string, bytes: Uint8Array, player?: (line: HTMLElement) => ReplayPlayer): { panel: AuditPanel } {
  const out = { panel: null as unknown as AuditPanel };
  let replay: ReplayPlayer | undefined;
  const onChange = (state: AuditState): void => {
    out.panel.update(state);
    const verified = state.phase === "passed" ? true : state.phase === "failed" || state.phase === "unreadable" || state.phase === "error" ? false : null;
    if (replay) replay.verified = verified;
    if (state.phase === "passed") shell.setStatus("Replay · archive verified", "idle");
    else if (verified === false) shell.setStatus(state.phase === "error" ? "Replay · the audit could not run: not verified" : "Replay · ARCHIVE DOES NOT VERIFY", "offline");
    else shell.setStatus(state.phase === "cancelled" ? "Replay · audit cancelled: not verified" : "Replay · auditing the archive…", "idle");
  };
  const audit = new BrowserAudit(bytes, onChange, new URL("./audit-worker.js", import.meta.url), () => fetchArchive(day, () => {}));
  out.panel = new AuditPanel(
    (heads) => audit.start(heads),
    () => audit.cancel(),
  );
  shell.addTab("audit", "Audit", out.panel.root);
  if (player) {
    replay = player(out.panel.line);
    pageHandle().replay = replay;
  }
  // For tests and benchmarks: the audit's state, cancel, and a run with noted heads.
  pageHandle().audit = {
    state: () => audit.state,
    cancel: () => audit.cancel(),
    start: (heads: string[]) => audit.start(heads.map((h) => parseHead(h))),
  };
  // In a task of its own, after the replay's first paint: the audit's clock starts with its own work.
  setTimeout(() => audit.start(), 0);
  return out;
}

/** The archive's bytes (the server sends them gzip-encoded; the browser undoes it), with download progress. */
async function fetchArchive(day: string, progress: (bytes: number) => void): Promise<Uint8Array> {
  const res = await fetch(`/api/archives/${encodeURIComponent(day)}`, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(res.status === 404 ? "not found" : `${res.status} ${res.statusText}`);
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    progress(bytes);
  }
  const joined = concatBytes(chunks);
  // Joined: the pieces' memory is freed now rather than at a collection during the audit.
  for (const chunk of chunks) releaseBytes(chunk);
  return joined;
}

/**
 * Plays an archive through the shared spectator reducer (`ArchiveReplay`, checkpoints for
 * scrubbing back): a range input over revisions, play/pause, speed, the log and the leaderboard
 * at the scrubbed revision. The chain check runs beside it and its verdict stays on screen.
 */
class ReplayPlayer {
  private replay: ArchiveReplay;
  private model: SpectatorModel;
  private scene: FieldScene;
  private readonly frontier = new FrontierTracker();
  private playing = false;
  private speed = 20;
  private carry = 0;
  private lastTick = 0;
  private fog: boolean;
  private readonly range: HTMLInputElement;
  private readonly label: HTMLElement;
  private readonly playButton: HTMLButtonElement;
  private readonly refreshBoard = throttle(() => this.renderBoard(), 250);
  private readonly refreshOverlays = throttle(() => this.renderOverlays(), 400);
  verified: boolean | null = null;

  constructor(
    private readonly shell: Shell,
    private readonly archive: Archive,
    private readonly log: LogPanel,
    private readonly board: LeaderboardPanel,
    private readonly verdict: HTMLElement,
  ) {
    this.fog = archive.params.rules.fog;
    this.replay = new ArchiveReplay(archive, { fog: this.fog });
    this.model = this.replay.seek(0);
    // The machines in the order they first joined, as the live page has them in its snapshot.
    colourMachines([...new Set(archive.events.filter((e) => e.type === "join").map((e) => String(e.machine)))]);
    this.scene = sceneFromModel(this.model);
    shell.view.setScene(this.scene);
    pageHandle().scene = this.scene;
    shell.nameOf = (m) => this.model.machine(m)?.name || m;
    shell.view.labelFor = (m) => shortLabel(this.model.machine(m)?.name || m);
    shell.view.fitTarget = () => (this.fog ? reachedBox(this.scene) : null);
    log.nameOf = shell.nameOf;
    const hashes = new Map(archive.tiles.map((t) => [t.id, t.hash]));
    shell.hashOf = async (id) => hashes.get(id);

    const last = this.replay.last;
    this.range = el("input", { type: "range", min: 0, max: last, value: 0, step: 1, "aria-label": "Revision" });
    this.range.addEventListener("input", () => {
      this.pause();
      this.seek(Number(this.range.value));
    });
    this.playButton = el("button", { type: "button", class: "btn", "aria-pressed": "false", text: "Play" });
    this.playButton.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    const speed = el("select", { "aria-label": "Speed (events per second)" });
    for (const s of SPEEDS) speed.append(el("option", { value: s, selected: s === this.speed, text: `${s}/s` }));
    speed.addEventListener("change", () => (this.speed = Number(speed.value)));
    const fogToggle = el("input", { type: "checkbox", checked: !this.fog });
    fogToggle.addEventListener("change", () => this.setFog(!fogToggle.checked));
    this.label = el("span", { class: "mono replay-pos" });
    this.label.style.minWidth = `${positionText(last, last, "00:00:00 UTC", archive.tiles.length).length + 1}ch`;
    document.body.dataset.page = "replay";
    const step = (d: number): HTMLButtonElement => {
      const b = el("button", { type: "button", class: "btn icon", "aria-label": d < 0 ? "Back one event" : "Forward one event", text: d < 0 ? "‹" : "›" });
      b.addEventListener("click", () => {
        this.pause();
        this.seek(this.model.revision + d);
      });
      return b;
    };
    const bar = shell.replayBar;
    bar.replaceChildren(
      this.playButton,
      step(-1),
      step(1),
      this.range,
      speed,
      this.label,
      archive.params.rules.fog ? el("label", { class: "toggle" }, fogToggle, " whole geometry") : "",
      this.verdict,
    );
    bar.hidden = false;
    shell.setTitle(`Replay ${archive.day ?? archive.game_id}`, `G=${archive.G} · ${formatInt(last)} events`);
    shell.setHead(archive.log_head);
    this.renderAll();
    this.followReach();
    pageHandle().replayState = () => this.state();
    pageHandle().seek = (rev: number) => this.seek(rev);
  }

  /** The model's public state, for tests comparing it with the archive's final tiles. */
  private state(): { rev: number; last: number; status: string; solvers: Array<string | null>; known: number; verified: boolean | null } {
    const m = this.model;
    let status = "";
    const solvers: Array<string | null> = [];
    for (let t = 0; t < m.tilesTotal; t++) {
      status += "hrs"[m.tileStatus[t]];
      solvers.push(m.solver[t] >= 0 ? m.agents[m.solver[t]].id : null);
    }
    let known = 0;
    for (const v of m.known) if (v >= 0) known++;
    return { rev: m.revision, last: this.replay.last, status, solvers, known, verified: this.verified };
  }

  private play(): void {
    if (this.model.revision >= this.replay.last) this.seek(0);
    this.playing = true;
    this.playButton.textContent = "Pause";
    this.playButton.setAttribute("aria-pressed", "true");
    this.lastTick = performance.now();
    this.carry = 0;
    const tick = (now: number): void => {
      if (!this.playing) return;
      this.carry += ((now - this.lastTick) / 1000) * this.speed;
      this.lastTick = now;
      const steps = Math.floor(this.carry);
      if (steps > 0) {
        this.carry -= steps;
        this.seek(this.model.revision + steps);
      }
      if (this.model.revision >= this.replay.last) this.pause();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  private pause(): void {
    this.playing = false;
    this.playButton.textContent = "Play";
    this.playButton.setAttribute("aria-pressed", "false");
  }

  private setFog(fog: boolean): void {
    const rev = this.model.revision;
    this.fog = fog;
    this.replay = new ArchiveReplay(this.archive, { fog });
    this.model = this.replay.seek(rev);
    this.rebuild();
  }

  seek(target: number): void {
    try {
      this.seekUnchecked(target);
    } catch (err) {
      // A corrupt log (a gap, an unknown tile) cannot be replayed past the bad event.
      this.pause();
      this.shell.setStatus(`The log cannot be replayed past revision ${this.model.revision}: ${(err as Error).message}`, "offline");
      this.rebuild();
    }
  }

  private seekUnchecked(target: number): void {
    const from = this.model.revision;
    const to = Math.max(0, Math.min(this.replay.last, Math.round(target)));
    if (to === from) return;
    if (to > from && to - from <= INCREMENTAL_LIMIT) {
      const events = this.archive.events as PublicEvent[];
      for (let rev = from + 1; rev <= to; rev++) {
        this.model = this.replay.seek(rev);
        const e = events[rev - 1];
        syncEvent(this.scene, this.model, e, []);
        syncTiles(this.scene, this.model, this.model.candidateTiles(e));
        if (e.type === "reveal") syncTiles(this.scene, this.model, this.model.neighbours(e.tile));
        if (meetings(e).length || died(e)) this.shell.view.markers.push(...markersFor(this.model, this.scene, e, this.shell.nameOf));
      }
      this.log.add(events.slice(Math.max(from, to - LOG_WINDOW), to));
      this.followReach();
      this.shell.view.sceneChanged();
      this.renderPosition();
      this.refreshBoard();
      this.refreshOverlays();
      return;
    }
    this.model = this.replay.seek(to);
    this.rebuild();
  }

  private rebuild(): void {
    this.scene = sceneFromModel(this.model);
    pageHandle().scene = this.scene;
    this.shell.view.setScene(this.scene, { keepCamera: true });
    // The meetings and deaths up to this revision, as a spectator watching since the start saw them.
    const events = this.archive.events as PublicEvent[];
    this.shell.view.markers = pastMarkers(this.model, this.scene, markedRevisions(this.model).map((rev) => events[rev - 1]), this.shell.nameOf);
    this.frontier.forget();
    this.renderAll();
    this.followReach();
  }

  private renderAll(): void {
    const rev = this.model.revision;
    this.log.clear();
    this.log.add((this.archive.events as PublicEvent[]).slice(Math.max(0, rev - LOG_WINDOW), rev));
    this.renderPosition();
    this.renderBoard();
    this.renderOverlays();
  }

  private renderPosition(): void {
    const m = this.model;
    this.range.value = String(m.revision);
    const at = m.revision > 0 ? `${formatTime(this.archive.events[m.revision - 1].at as number)} UTC` : "start";
    this.label.textContent = positionText(m.revision, this.replay.last, at, m.solvedCount);
  }

  private renderBoard(): void {
    this.board.update(() => ({ rows: leaderboard(this.model), note: `At revision ${formatInt(this.model.revision)} of ${formatInt(this.replay.last)}.` }));
  }

  private renderOverlays(): void {
    this.shell.view.rings = ringBoxes(this.model, this.scene);
    this.frontier.refresh(this.model, this.shell.view.seeds, this.shell.view.frontier);
    this.shell.view.invalidate();
  }

  /**
   * Keeps what has been reached in view as the replay plays, as the live page does, until the
   * viewer pans or zooms (⤢ follows again). Under fog at the start nothing is drawn: say why.
   */
  private followReach(): void {
    const box = reachedBox(this.scene);
    if (box) this.shell.view.follow(box);
    this.shell.setHint(box ? null : "Nothing reached yet: press Play, or tick “whole geometry”.");
  }
}

function positionText(rev: number, last: number, at: string, solved: number): string {
  return `rev ${formatInt(rev)} / ${formatInt(last)} · ${at} · ${formatInt(solved)} solved`;
}
