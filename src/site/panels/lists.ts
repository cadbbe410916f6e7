import type { ArchiveSummary, GameSummary } from "../api";
import { counted, el, formatInt, shortHash } from "../dom";

/** The fields being played (links to `/?game=<id>`) and the archived days (links to `/replay/<day>`). */
export class ListsPanel {
  readonly root: HTMLElement;
  private readonly games: HTMLUListElement;
  private readonly archives: HTMLUListElement;

  constructor(private readonly currentGame: string | null) {
    this.games = el("ul", { class: "list", "aria-label": "Fields" });
    this.archives = el("ul", { class: "list", "aria-label": "Archived days" });
    this.root = el(
      "section",
      { class: "panel" },
      el("header", { class: "panel-head" }, el("h2", { text: "Fields" })),
      this.games,
      el("header", { class: "panel-head" }, el("h2", { text: "Archived days" })),
      this.archives,
    );
    this.games.append(el("li", { class: "empty", text: "Loading…" }));
    this.archives.append(el("li", { class: "empty", text: "Loading…" }));
  }

  setGames(games: GameSummary[] | Error): void {
    if (games instanceof Error) return this.games.replaceChildren(el("li", { class: "empty", text: `Fields unavailable: ${games.message}` }));
    if (!games.length) return this.games.replaceChildren(el("li", { class: "empty", text: "No fields yet. An agent starts one with start_mosaic, or the day's field opens at midnight UTC." }));
    this.games.replaceChildren(
      ...games.map((g) => {
        const agents = g.agents_total ?? g.agents?.length ?? 0;
        const a = el(
          "a",
          { href: `/?game=${encodeURIComponent(g.game_id)}`, "aria-current": g.game_id === this.currentGame ? "page" : undefined },
          el("span", { class: "mono", text: g.game_id }),
          el("span", { class: `badge ${g.status}`, text: g.status }),
          el("span", { class: "sub", text: `G=${g.G} · ${counted(g.tiles, "tile")} · ${counted(agents, "agent")} · rev ${formatInt(g.revision)}${g.fog ? " · fog" : ""}${g.grown ? ` · ${counted(g.grown, "ring")}` : ""}` }),
        );
        return el("li", {}, a);
      }),
    );
  }

  setArchives(archives: ArchiveSummary[] | Error): void {
    if (archives instanceof Error) return this.archives.replaceChildren(el("li", { class: "empty", text: `Archives unavailable: ${archives.message}` }));
    if (!archives.length) return this.archives.replaceChildren(el("li", { class: "empty", text: "No archived days yet: a day is archived when it closes." }));
    this.archives.replaceChildren(
      ...archives.map((a) =>
        el(
          "li",
          {},
          el(
            "a",
            { href: `/replay/${encodeURIComponent(a.day)}` },
            el("span", { text: a.day }),
            el("span", { class: "badge", text: "replay" }),
            el("span", { class: "sub", text: `${(a.bytes / 1024).toFixed(0)} KiB · head ${shortHash(a.log_head.hash)}@${a.log_head.rev}` }),
          ),
        ),
      ),
    );
  }
}
