import { analyse, RESAMPLES, type AgentFacts, type AnalysisGroups } from "../analysis/analysis";
import { computeOptimum, OPTIMUM_FORCED, type Optimum } from "../analysis/optimum";
import type { LiveHost } from "./live-host";
import type { AccountRef, SpectatorModel } from "../spectator";
import type { LiveStore } from "./live-store";

const OPTIMUM_BLOB = "optimum";

/** What the analysis says about the field's optimum (docs/spectator.md "Analysis"). */
interface OptimumSummary {
  status: "ready" | "computing";
  /** Depth of the propagation the optimum play used (0: SPEC §4.5 without bifurcation). */
  depth: 0;
  field_depth: number;
  tiles?: number;
  cells?: number;
  forced?: number;
  guesses?: number;
  share?: number;
}

/** The optimum as stored: its figures (the header) and one class per cell (the bytes). */
interface OptimumFigures {
  tiles: number;
  cells: number;
  forced: number;
  guesses: number;
  share: number;
}
type OptimumData = OptimumFigures & { classes: Uint8Array };

/**
 * The analysis of SPEC §11 for the field object: per-agent facts from the spectator model, usage
 * counters from the MCP layer, and the field's optimum, computed once per tile count in the
 * background (it takes seconds on a large field, in slices that let requests through) and kept in
 * storage; until it is ready the analysis says `computing` and leaves `propagation_share` null.
 */
export class AnalysisDuty {
  private optimum: OptimumData | null = null;
  private running: Promise<void> | null = null;
  /** Per machine: its committed known cells now, and how many of them the optimum forced. */
  private origins: { rev: number; tiles: number; byMachine: Map<string, { known: number; forced: number }> } | null = null;
  private cache: { key: string; body: string } | null = null;

  constructor(
    private readonly f: LiveHost,
    private readonly store: LiveStore,
  ) {}

  /** The analysis document at the model's revision. */
  async document(model: SpectatorModel, accounts: Readonly<Record<string, AccountRef | null>>): Promise<string> {
    const optimum = this.currentOptimum();
    const usage = this.store.usage();
    let usageKey = 0;
    for (const u of usage.values()) usageKey += u.calls * 7 + u.bytes;
    const accountKey = model.machines.map((m) => accounts[m.id]?.id ?? "").join(",") + "|" + model.machines.map((m) => accounts[m.id]?.name ?? "").join("\u0000");
    const key = `${model.revision}|${usageKey}|${optimum ? optimum.tiles : "-"}|${accountKey}`;
    if (this.cache?.key === key) return this.cache.body;
    const byMachine = optimum ? this.optimumByMachine(model.revision, optimum) : null;
    const facts: AgentFacts[] = model.agents.map((a) => {
      const m = model.machines[a.machine];
      const share = m.agents.length;
      const u = usage.get(m.id);
      const opt = byMachine?.get(m.id);
      return {
        agent: a.id,
        machine: m.id,
        account: accounts[m.id] ?? null,
        model: a.model,
        harness: a.harness,
        tags: a.tags,
        reward: a.reward,
        tiles: a.solved,
        accepted: a.accepted,
        forced: a.forced,
        guesses: a.guesses,
        wrong: a.wrong,
        retractions: a.retractions,
        calls: (u?.calls ?? 0) / share,
        bytes: (u?.bytes ?? 0) / share,
        optimumForced: byMachine ? (opt && opt.known > 0 ? (a.accepted * opt.forced) / opt.known : 0) : null,
      };
    });
    const seed = `mosaic-analysis|${model.gameId}|${model.revision}`;
    const groups: AnalysisGroups = await analyse(facts, seed);
    const summary: OptimumSummary = optimum
      ? { status: "ready", depth: 0, field_depth: model.rules?.depth ?? 0, tiles: optimum.tiles, cells: optimum.cells, forced: optimum.forced, guesses: optimum.guesses, share: Math.round(optimum.share * 10000) / 10000 }
      : { status: "computing", depth: 0, field_depth: model.rules?.depth ?? 0 };
    const body = JSON.stringify({
      game_id: model.gameId,
      revision: model.revision,
      log_head: model.head,
      status: model.status,
      optimum: summary,
      bootstrap: { resamples: RESAMPLES, level: 0.95, unit: "agent", seed },
      ...groups,
    });
    this.cache = { key, body };
    return body;
  }

  /** The optimum for the field's current tiles, starting its computation when there is none. */
  private currentOptimum(): OptimumData | null {
    const field = this.f.field;
    if (!field) return null;
    if (this.optimum?.tiles !== field.tiles.length) {
      const stored = this.store.loadBlob<OptimumFigures>(OPTIMUM_BLOB);
      if (stored && stored.meta.tiles === field.tiles.length) this.optimum = { ...stored.meta, classes: stored.bytes };
    }
    if (this.optimum?.tiles === field.tiles.length) return this.optimum;
    this.start();
    return null;
  }

  private start(): void {
    if (this.running || !this.f.field) return;
    const field = this.f.field;
    const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
    this.running = computeOptimum(field, 0, pause)
      .then((result: Optimum) => {
        const figures: OptimumFigures = { tiles: result.tiles, cells: result.cells, forced: result.forced, guesses: result.guesses, share: result.share };
        this.optimum = { ...figures, classes: result.classes };
        // The field may have expired meanwhile: store nothing for a field that is gone.
        if (this.f.meta<string>("status") !== undefined) this.store.saveBlob(OPTIMUM_BLOB, figures, result.classes);
      })
      .catch((err) => console.error("optimum computation failed", err))
      .finally(() => {
        this.running = null;
      });
    this.f.ctx.waitUntil(this.running);
  }

  /** For each machine, its committed cells known now and how many of them the optimum forced. */
  private optimumByMachine(rev: number, optimum: OptimumData): Map<string, { known: number; forced: number }> {
    if (this.origins?.rev === rev && this.origins.tiles === optimum.tiles) return this.origins.byMachine;
    const byMachine = new Map<string, { known: number; forced: number }>();
    const referee = this.f.referee;
    const classes = optimum.classes;
    if (referee) {
      for (let c = 0; c < classes.length; c++) {
        if (classes[c] === 0) continue;
        const cell = referee.cell(c);
        if (!cell || cell.value === -1 || cell.origin === null || cell.origin === "given") continue;
        let entry = byMachine.get(cell.origin);
        if (!entry) byMachine.set(cell.origin, (entry = { known: 0, forced: 0 }));
        entry.known++;
        if (classes[c] === OPTIMUM_FORCED) entry.forced++;
      }
    }
    this.origins = { rev, tiles: optimum.tiles, byMachine };
    return byMachine;
  }
}
