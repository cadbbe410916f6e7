import { startLive } from "./live/page";
import { startReplay } from "./replay/page";
import { startHistory } from "./history/page";
import { el } from "./dom";

/** One page, routed on its path: `/` (optionally `?game=<id>`) is the live view, `/replay/<day>` a replay, `/history` the days on record. */
function route(): void {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  if (path === "/" || path === "/index.html") return void startLive(new URLSearchParams(location.search).get("game"));
  const replay = /^\/replay\/([^/]+)$/.exec(path);
  if (replay) return void startReplay(decodeURIComponent(replay[1]));
  if (path === "/history") return void startHistory();
  document.getElementById("main")?.replaceChildren(el("p", { class: "empty", text: `No page at ${path}. ` }, el("a", { href: "/", text: "Back to the live field" })));
}

route();
