import { listArchives, listGames, type GameSummary } from "../api";
import { pageHandle } from "../debug";
import { FieldScene } from "../field/scene";
import { LeaderboardPanel } from "../panels/leaderboard";
import { ListsPanel } from "../panels/lists";
import { LogPanel } from "../panels/log";
import { createShell } from "../shell";

/** The field to show when the URL names none: the day's field, else the newest one being played. */
function defaultGame(games: GameSummary[]): string | null {
  const playing = games.filter((g) => g.status === "playing");
  return (playing.find((g) => g.game_id.startsWith("day-")) ?? playing[0] ?? games[0])?.game_id ?? null;
}

export async function startLive(gameParam: string | null): Promise<void> {
  const shell = createShell(new FieldScene(1));
  const log = new LogPanel();
  const leaderboard = new LeaderboardPanel();
  const lists = new ListsPanel(gameParam);
  shell.addTab("log", "Log", log.root);
  shell.addTab("leaderboard", "Leaderboard", leaderboard.root);
  shell.addTab("fields", "Fields & days", lists.root);
  const handle = pageHandle();
  handle.view = shell.view;
  handle.scene = shell.view.scene;

  const games = await listGames().catch((e: Error) => e);
  lists.setGames(games);
  void listArchives()
    .catch((e: Error) => e)
    .then((a) => lists.setArchives(a));
  const gameId = gameParam ?? (games instanceof Error ? null : defaultGame(games));
  if (!gameId) {
    shell.setTitle("No field");
    shell.setStatus("No field is being played right now.");
    shell.selectTab("fields");
    return;
  }
  shell.setTitle(gameId);
  shell.setStatus("Loading the field…");
}
