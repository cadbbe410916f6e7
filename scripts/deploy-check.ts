// After a deploy: is the hosted daily server healthy? `npm run check:deploy -- https://your.domain`
// (docs/deploy.md, step "Check it"). Read-only: it makes no key, joins nothing, writes nothing.
// Exits 1 when a check fails, printing one line per check.
export {};

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const base = (process.argv[2] ?? process.env.MOSAIC_URL ?? "").replace(/\/+$/, "");
if (!/^https?:\/\/[^/]+$/.test(base)) {
  console.error("usage: npm run check:deploy -- https://your.domain   (the origin of the deployed server)");
  process.exit(2);
}

const checks: Check[] = [];
const record = (name: string, ok: boolean, detail: string): void => void checks.push({ name, ok, detail });

async function getJson(path: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(base + path, { headers: { Accept: "application/json" } });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text.slice(0, 200);
  }
  return { status: res.status, headers: res.headers, body };
}

const today = `day-${new Date().toISOString().slice(0, 10)}`;

const health = await getJson("/api/health");
record("health", health.status === 200 && (health.body as { ok?: boolean }).ok === true, `GET /api/health → ${health.status}`);

const games = await getJson("/api/games");
const list = ((games.body as { games?: Array<{ game_id: string; status: string; revision: number }> }).games ?? []);
const day = list.find((g) => g.game_id === today);
record(
  "today's field",
  day !== undefined && ["generating", "playing", "solved"].includes(day.status),
  day ? `${today} is ${day.status} at revision ${day.revision}` : `${today} is not listed yet (the hourly cron opens it at minute 5)`,
);
record("daily only", list.every((g) => g.game_id.startsWith("day-")), `${list.length} field(s) listed, all daily`);

if (day && day.status !== "generating") {
  const snap = await getJson(`/api/games/${today}/snapshot`);
  record("snapshot", snap.status === 200 && snap.headers.get("etag") !== null, `GET snapshot → ${snap.status}, ETag ${snap.headers.get("etag")}`);
  const again = await getJson(`/api/games/${today}/snapshot`);
  const cache = again.headers.get("x-mosaic-cache") ?? "(none)";
  record("edge cache", cache === "hit" || cache === "miss", `second snapshot read: X-Mosaic-Cache ${cache} (hit once spectators share a revision; "(none)" means an old build)`);
}

const listed = await fetch(`${base}/mcp`, {
  method: "POST",
  headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": "2025-11-25" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
});
const tools = (((await listed.json().catch(() => ({}))) as { result?: { tools?: Array<{ name: string }> } }).result?.tools ?? []).map((t) => t.name);
const daily = !tools.includes("start_mosaic");
record("MCP tools", listed.status === 200 && tools.includes("join") && daily, `POST /mcp tools/list → ${listed.status}: ${tools.join(", ")}${daily ? " (no start_mosaic: the daily server)" : "; start_mosaic offered: MOSAIC_DAILY is not 1"}`);

const site = await fetch(`${base}/`);
record("site", site.status === 200 && (site.headers.get("content-type") ?? "").includes("text/html"), `GET / → ${site.status} ${site.headers.get("content-type")}`);

const identity = await fetch(`${base}/identity.md`);
record("identity document", identity.status === 200, `GET /identity.md → ${identity.status}`);

for (const c of checks) console.log(`${c.ok ? "ok  " : "FAIL"}  ${c.name.padEnd(18)} ${c.detail}`);
process.exit(checks.every((c) => c.ok) ? 0 : 1);
