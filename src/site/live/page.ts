import { applyLiveMessage, leaderboard, SpectatorModel, unpackTiles, type LiveMessage, type PublicEvent, type SpectatorSnapshot } from "../../spectator";
import { gamePath, getJson, listArchives, listGames, type GameSummary } from "../api";
import { pageHandle } from "../debug";
import { batched, counted, formatInt, throttle } from "../dom";
import { died, meetings } from "../events";
import { FrontierTracker } from "../field/frontier";
import { sceneFromModel, sceneFromSnapshot, syncEvent, syncTiles } from "../field/model-scene";
import { FieldScene } from "../field/scene";
import { sceneDifferences } from "../field/scene-diff";
import { AnalysisPanel } from "../panels/analysis";
import { LeaderboardPanel } from "../panels/leaderboard";
import { ListsPanel } from "../panels/lists";
import { LogPanel } from "../panels/log";
import { colourMachines } from "../palette";
import { createShell, shortLabel, type Shell } from "../shell";
import { LiveSocket } from "./feed";
import { HashBook } from "./hashes";
import { markedRevisions, markersFor, pastMarkers, reachedBox, ringBoxes } from "./markers";

/** Resolves after the next frame was drawn (so the first paint is not held up by later work). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** How many past events the log shows when the page opens. */
const LOG_BACKFILL = 200;

/** The field to show when the URL names none: the day's field, else the newest one being played. */
function defaultGame(games: GameSummary[]): string | null {
  const playing = games.filter((g) => g.status === "playing");
  return (playing.find((g) => g.game_id.startsWith("day-")) ?? playing[0] ?? games[0])?.game_id ?? null;
}

/** How often the open "Fields & days" tab fetches the list of fields again. */
const GAMES_REFRESH_MS = 5_000;

export async function startLive(gameParam: string | null): Promise<void> {
  const shell = createShell(new FieldScene(1));
  const log = new LogPanel();
  const board = new LeaderboardPanel();
  const analysis = new AnalysisPanel();
  const lists = new ListsPanel(gameParam);
  shell.addTab("log", "Log", log.root, () => log.shown());
  shell.addTab("leaderboard", "Leaderboard", board.root, () => board.shown());
  shell.addTab("analysis", "Analysis", analysis.root, () => void analysis.refresh());
  // The list of fields moves with every field's play: fetched afresh each time it is opened, and
  // every few seconds while it stays open (not while a reader's focus is on one of its links).
  const refreshGames = () => void listGames().then((g) => lists.setGames(g), () => undefined);
  shell.addTab("fields", "Fields & days", lists.root, refreshGames);
  setInterval(() => {
    if (!document.hidden && lists.root.offsetParent !== null && !lists.root.contains(document.activeElement)) refreshGames();
  }, GAMES_REFRESH_MS);
  const handle = pageHandle();
  handle.view = shell.view;

  const games = await listGames().catch((e: Error) => e);
  lists.setGames(games);
  void listArchives()
    .catch((e: Error) => e)
    .then((a) => lists.setArchives(a));
  const gameId = gameParam ?? (games instanceof Error ? null : defaultGame(games));
  if (!gameId) {
    shell.setTitle("No field");
    shell.setStatus("No field is being played right now. Past days are under Fields & days.");
    shell.selectTab("fields");
    return;
  }
  shell.setTitle(gameId);
  shell.setStatus("Loading the field…");
  const live = new LiveView(shell, gameId, log, board, analysis);
  handle.live = live;
  try {
    await live.start();
  } catch (err) {
    shell.setStatus(`Could not load ${gameId}: ${(err as Error).message}`);
  }
}

/**
 * One field, live: a snapshot, then the live feed's batches through the shared spectator reducer
 * (`SpectatorModel`), mirrored into the canvas scene event by event. On a dropped socket it
 * reconnects from the model's revision; on a gap or a `resync` it loads a fresh snapshot.
 */
class LiveView {
  model: SpectatorModel | null = null;
  private feed: LiveSocket | null = null;
  private readonly frontier = new FrontierTracker();
  private readonly hashes: HashBook;
  private connected = false;
  private reconnects = 0;
  /** performance.now() when the snapshot's JSON had arrived (for the first-paint benchmark). */
  snapshotArrivedAt = 0;
  snapshotBytes = 0;
  /** Reloads the analysis now (tests; the panel also refreshes itself every 20 s while shown). */
  refreshAnalysis: () => Promise<void> = async () => {};
  /**
   * Where the time goes (ms): JSON parse, the scene from the snapshot's columns (and its parts),
   * the board upload, the wait for the first frame, then the model built after it.
   */
  timings: Record<string, number> = {};
  private readonly refreshPanels = throttle(() => this.renderPanels(), 250);
  private readonly refreshStatus = throttle(() => this.renderStatus(), 250);
  private head: { hash: string; rev: number } | null = null;
  private readonly refreshOverlays = throttle(() => this.renderOverlays(), 500);
  /**
   * New log lines go in at most 4 times a second: every insertion lays out, pre-paints and paints
   * the list again, which cost more of the main thread than anything else the feed caused. The
   * status line and the log head go up with them, so the header names the revision the log ends at.
   */
  private readonly logLines = batched<PublicEvent>((events) => {
    this.log.add(events);
    this.renderStatus();
  }, 250);

  constructor(
    private readonly shell: Shell,
    readonly gameId: string,
    private readonly log: LogPanel,
    private readonly board: LeaderboardPanel,
    private readonly analysis: AnalysisPanel,
  ) {
    this.hashes = new HashBook(gameId);
    shell.hashOf = (id) => this.hashes.get(id);
    shell.nameOf = (m) => this.model?.machine(m)?.name || m;
    shell.view.labelFor = (m) => shortLabel(this.model?.machine(m)?.name || m);
    shell.view.fitTarget = () => (this.model?.fog ? reachedBox(shell.view.scene) : null);
    log.nameOf = shell.nameOf;
  }

  async start(): Promise<void> {
    await this.loadSnapshot(true);
    void this.backfillLog();
    this.feed = new LiveSocket(
      (from) => gamePath(this.gameId, `/live?from=${from}`),
      () => this.model?.revision ?? 0,
      {
        onMessage: (m) => this.onMessage(m as LiveMessage),
        onConnection: (open, attempt) => {
          this.connected = open;
          if (open && this.reconnects > 0) this.shell.setStatus("Reconnected: catching up…", "live");
          if (!open) {
            this.reconnects++;
            this.shell.setStatus("Connection lost: reconnecting…", "offline", { detail: `attempt ${attempt}` });
          } else this.renderStatus();
        },
      },
    );
    this.feed.start();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.shell.view.invalidate();
    });
    const handle = pageHandle();
    handle.dropSocket = () => this.feed?.drop();
    handle.snapshot = () => this.model?.snapshot();
    handle.revision = () => this.model?.revision ?? 0;
    handle.connected = () => this.feed?.connected ?? false;
    handle.sceneDiff = () => this.sceneDiff();
    this.refreshAnalysis = () => this.analysis.refresh();
    this.analysis.load(this.gameId);
  }

  private async loadSnapshot(first: boolean): Promise<void> {
    const res = await fetch(gamePath(this.gameId, "/snapshot"), { headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(res.status === 404 ? "no such field" : `${res.status} ${res.statusText}`);
    const text = await res.text();
    this.snapshotArrivedAt = performance.now();
    this.snapshotBytes = text.length;
    const t0 = this.snapshotArrivedAt;
    const snapshot = JSON.parse(text) as SpectatorSnapshot;
    const t1 = performance.now();
    // Paint first, straight from the snapshot's columns; the model (the reducer's state), the
    // panels and the overlays come after the first frame.
    const parts: Record<string, number> = {};
    colourMachines(snapshot.machines.map((m) => m.id));
    const scene = sceneFromSnapshot(snapshot, parts);
    pageHandle().scene = scene;
    const t2 = performance.now();
    this.shell.view.setScene(scene, { keepCamera: !first });
    const reached = snapshot.fog ? reachedBox(scene) : null;
    // Under fog only the reached part is drawn: frame it rather than the whole canvas.
    if (first && reached) this.shell.view.fit(reached);
    this.hintWhileUnreached(snapshot.fog && reached === null, snapshot.status === "closed");
    const t3 = performance.now();
    await nextFrame();
    const t4 = performance.now();
    const model = SpectatorModel.fromSnapshot(snapshot);
    this.model = model;
    this.frontier.forget();
    this.timings = { parse: t1 - t0, scene: t2 - t1, ...prefixed("scene.", parts), upload: t3 - t2, frame: t4 - t3, model: performance.now() - t4 };
    this.shell.setTitle(this.gameId, `G=${model.G}${model.fog ? " · fog" : ""}`);
    this.head = model.head;
    this.renderPanels();
    this.renderStatus();
    this.shell.view.rings = ringBoxes(model, scene);
    void this.markPast(model, scene);
    // The overlays need neighbour lists: after the first paint, not before it.
    setTimeout(() => this.renderOverlays(), 0);
  }

  /** Meetings and deaths before the snapshot, marked as a page watching then marked them. */
  private async markPast(model: SpectatorModel, scene: FieldScene): Promise<void> {
    const revs = markedRevisions(model);
    const events = await Promise.all(
      revs.map((rev) =>
        getJson<{ events?: PublicEvent[] } | PublicEvent[]>(gamePath(this.gameId, `/events?from=${rev}&limit=1`)).then(
          (body) => (Array.isArray(body) ? body : (body.events ?? [])).filter((e) => e.rev === rev),
          () => [],
        ),
      ),
    );
    // A resync may have replaced the scene meanwhile: its own load marks the past again.
    if (this.shell.view.scene !== scene) return;
    this.shell.view.markers = [...pastMarkers(model, scene, events.flat(), this.shell.nameOf), ...this.shell.view.markers.filter((m) => !revs.includes(m.rev))];
    this.shell.view.invalidate();
  }

  /** The last events before the snapshot, so the log opens with context. */
  private async backfillLog(): Promise<void> {
    const model = this.model;
    if (!model || model.revision === 0) return;
    const from = Math.max(1, model.revision - LOG_BACKFILL + 1);
    try {
      const body = await getJson<{ events?: PublicEvent[] } | PublicEvent[]>(gamePath(this.gameId, `/events?from=${from}`));
      const events = (Array.isArray(body) ? body : (body.events ?? [])).filter((e) => e.rev <= model.revision && e.rev >= from);
      this.log.prepend(events);
    } catch {
      // The log simply starts with the next event.
    }
  }

  private onMessage(message: LiveMessage): void {
    const model = this.model;
    if (!model || !message || typeof message !== "object") return;
    if (message.type === "hello") {
      this.showHead(message.log_head);
      return;
    }
    const before = model.revision;
    const geometry = message.type === "events" && message.tiles ? unpackTiles(message.tiles).map((t) => t.id) : [];
    const result = applyLiveMessage(model, message);
    if (result.resync) {
      void this.resync(result.resync);
      return;
    }
    if (message.type !== "events" || result.applied === 0) {
      if (result.logHead) this.showHead(result.logHead);
      return;
    }
    const applied = message.events.filter((e) => e.rev > before && e.rev <= model.revision);
    // A ring makes tiles exist that known geometry may already overlap: every list may change.
    if (applied.some((e) => e.type === "grow")) this.frontier.forget();
    else if (geometry.length) this.frontier.learnt(model, geometry);
    const scene = this.shell.view.scene;
    syncTiles(scene, model, geometry);
    for (const e of applied) {
      syncEvent(scene, model, e, []);
      if (meetings(e).length || died(e)) this.shell.view.markers.push(...markersFor(model, scene, e, this.shell.nameOf));
    }
    if (model.fog && (geometry.length > 0 || model.status === "closed")) {
      // Newly reached tiles under fog: keep the reach in view, unless the spectator has moved the camera.
      const box = reachedBox(scene);
      if (box && geometry.length > 0) this.shell.view.follow(box);
      this.hintWhileUnreached(box === null, model.status === "closed");
    }
    // The header follows with the log's next batch (logLines), never ahead of or behind it.
    this.head = result.logHead ?? model.head;
    this.logLines.push(applied);
    this.shell.view.sceneChanged();
    this.refreshPanels();
    this.refreshOverlays();
  }

  private async resync(reason: string): Promise<void> {
    this.shell.setStatus(`Resynchronising (${reason})…`, "offline");
    this.feed?.stop();
    try {
      await this.loadSnapshot(false);
    } finally {
      this.feed?.start();
    }
  }

  /** Under fog, before any agent reached a tile, the field is blank: say why rather than show an empty box. */
  private hintWhileUnreached(nothingReached: boolean, closed: boolean): void {
    const text = closed ? "Nothing was reached before the close: under fog, only tiles agents reached are shown." : "Nothing reached yet: under fog, tiles appear as agents reach them.";
    this.shell.setHint(nothingReached ? text : null);
  }

  /** How the shown scene differs from one rebuilt from the model (tests; `sceneDifferences`). */
  private sceneDiff(): { pixels: number; cells: number; tiles: number } | null {
    return this.model ? sceneDifferences(this.shell.view.scene, sceneFromModel(this.model)) : null;
  }

  private renderPanels(): void {
    const model = this.model;
    if (!model) return;
    this.board.update(() => ({ rows: leaderboard(model), note: `At revision ${formatInt(model.revision)}.` }));
  }

  private renderOverlays(): void {
    const model = this.model;
    if (!model) return;
    // Under fog a ring's frame widens as its tiles are reached.
    this.shell.view.rings = ringBoxes(model, this.shell.view.scene);
    this.frontier.refresh(model, this.shell.view.seeds, this.shell.view.frontier);
    this.shell.view.invalidate();
  }

  /**
   * The log head the server last told of goes up with the status line, so the header never shows
   * two revisions; when it is drawn, the model's own head wins if it is newer.
   */
  private showHead(head: { hash: string; rev: number }): void {
    this.head = head;
    this.refreshStatus();
  }

  private renderStatus(): void {
    const model = this.model;
    if (!model) return;
    if (this.head) this.shell.setHead(this.head.rev >= model.revision ? this.head : model.head);
    const state = model.status === "playing" ? (this.connected ? "Live" : "Connecting") : model.status === "solved" ? "Solved" : "Closed";
    const agents = model.agents.length;
    // The live dot is for a field still being played; a closed day points to its replay.
    const playing = model.status === "playing";
    const replay = model.status === "closed" && this.gameId.startsWith("day-") ? { href: `/replay/${encodeURIComponent(this.gameId)}`, text: "Replay this day" } : undefined;
    this.shell.setStatus(state, playing ? (this.connected ? "live" : "offline") : "idle", {
      detail: `rev ${formatInt(model.revision)} · ${formatInt(model.solvedCount)} of ${formatInt(model.tilesTotal)} tiles solved · ${counted(agents, "agent")}`,
      link: replay,
    });
  }
}

function prefixed(prefix: string, record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [prefix + k, v]));
}
