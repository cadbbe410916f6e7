/**
 * A closed day's record from its archive alone (SPEC §11.1): the archive's events replayed
 * through the spectator's reducer — the same code the live page and the replay count with — plus
 * the number of writes of each agent. The history object records a day with this function from
 * the archive in R2, and `npm run ratings` recomputes it from the downloaded archive: one code
 * path, so both give the same bytes.
 */
import { archiveFileName } from "../daily/archive/format";
import { growEvents, type AuditedArchive } from "../daily/audit/event-log";
import { SpectatorModel, type PublicEvent } from "../spectator";
import { tagKeys } from "../analysis/analysis";
import { addCounters, zeroDayCounters, type AgentDay, type DayCounters, type HistoryDay, type MachineDay } from "./types";

/** Machine id → account id (null: none). A machine missing from the map has no account. */
export type AccountMap = ReadonlyMap<string, string | null>;

const WRITES = new Set(["reveal", "commit", "retract"]);

export function dayFromArchive(archive: AuditedArchive, accounts: AccountMap = new Map()): HistoryDay {
  const grows = growEvents(archive.events);
  const first = grows[0]?.first_tile;
  const model = new SpectatorModel({
    gameId: archive.game_id,
    G: archive.G,
    // Fog changes what a spectator sees, never what anyone counts: the cheaper model without it.
    fog: false,
    tilesTotal: typeof first === "number" ? first : archive.tiles.length,
    rules: archive.params.rules,
    seedCommit: archive.seed_commit,
  });
  model.addTiles(archive.tiles.map((t) => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m })));
  const writes = new Map<string, number>();
  for (let i = 0; i < archive.events.length; i++) {
    const e = archive.events.at(i)!;
    model.apply(e as unknown as PublicEvent);
    if (WRITES.has(e.type)) writes.set(String(e.agent), (writes.get(String(e.agent)) ?? 0) + 1);
  }
  const names = new Map((archive.names ?? []).map((n) => [n.machine, n.name]));
  const machines: MachineDay[] = model.machines.map((m) => {
    const agents: AgentDay[] = m.agents.map((index) => {
      const a = model.agents[index];
      return {
        agent: a.id,
        model: a.model || "unknown",
        harness: a.harness || "unknown",
        harness_source: a.harness_source,
        reward: a.reward,
        tiles: a.solved,
        cells: a.accepted,
        forced: a.forced,
        guesses: a.guesses,
        wrong: a.wrong,
        retractions: a.retractions,
        writes: writes.get(a.id) ?? 0,
      };
    });
    const totals: DayCounters = zeroDayCounters();
    for (const a of agents) addCounters(totals, a);
    const tags = new Set<string>();
    for (const index of m.agents) for (const t of Object.keys(model.agents[index].tags).length ? tagKeys(model.agents[index].tags) : []) tags.add(t);
    return {
      machine: m.id,
      name: names.get(m.id) ?? m.name,
      account: accounts.get(m.id) ?? null,
      models: distinct(agents.map((a) => a.model)),
      harnesses: distinct(agents.map((a) => a.harness)),
      tags: [...tags].sort(),
      sessions: new Set(m.sessions).size,
      ...totals,
      health: m.health.state,
      rate_bp: m.health.rate_bp,
      died_at: m.died_at,
      died_rev: m.died_rev,
      agents,
    };
  });
  return {
    day: archive.day,
    game_id: archive.game_id,
    archive: `/api/archives/${archiveFileName(archive.game_id)}`,
    log_head: { hash: archive.log_head.hash, rev: archive.log_head.rev },
    tiles_total: archive.tiles.length,
    tiles_solved: model.solvedCount,
    machines,
  };
}

/** Values in first-seen order, each once. */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}
