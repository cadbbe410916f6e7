// The reference agent (agent/) against `wrangler dev`: the CLI plays a field to the end with a
// key file made by the identity CLI, reuses its stored token, stops on a finished field and on its
// time limit; four agents finish a G = 60 scatter together.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { formatSummary, playAgent, type AgentSummary } from "../../agent";
import { bearerToken, loadOrCreateIdentity } from "../../agent/identity";
import { callToolStructured, connectClient } from "../support/mcp-clients";
import { startPlaying } from "./play-helpers";

const base = inject("baseUrl");
const home = mkdtempSync(join(tmpdir(), "mosaic-agent-e2e-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const tsx = resolve("node_modules/tsx/dist/cli.mjs");

function runAgent(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [tsx, resolve("agent/cli.ts"), "--url", base, ...args], {
    encoding: "utf8",
    env: { ...process.env, HOME: home, MOSAIC_IDENTITY: "", MOSAIC_CONFIG_HOME: "", ...env },
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Observation {
  status: string;
  tiles: Array<{ id: number; cells: number; status: string; agent: string | null }>;
  totals: { reward: number; solved: number };
  tiles_total: number;
}

async function fullView(gameId: string): Promise<Observation> {
  const client = await connectClient(base);
  try {
    return (await callToolStructured<{ observation: Observation }>(client, "observe", { game_id: gameId, full: true })).observation;
  } finally {
    await client.close();
  }
}

const SUMMARY_LINE = /^(m-[0-9a-f]{16}\/\S+ ?)+ on [0-9a-f-]{36}: field solved · tiles (\d+) · reward (\d+) · calls (\d+) · wrong (\d+) · guesses (\d+) · forced [\d.]+% · [\d.]+ s$/;

describe("npm run agent", () => {
  it("plays a new field to the end with the identity CLI's key file and prints one summary line", async () => {
    const file = join(home, "cli-key.json");
    const init = spawnSync(process.execPath, [resolve("scripts/mosaic-identity.mjs"), "init", "--file", file], { encoding: "utf8" });
    expect(init.status, init.stderr).toBe(0);
    const machine = (JSON.parse(readFileSync(file, "utf8")) as { machine_id: string }).machine_id;

    const run = runAgent(["--new", "scatter", "30", "--seed", "agent-e2e-cli", "--quiet"], { MOSAIC_IDENTITY: file });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const match = SUMMARY_LINE.exec(lines[0]);
    expect(match, lines[0]).not.toBeNull();
    expect(lines[0].startsWith(`${machine}/1`)).toBe(true);
    const gameId = /on ([0-9a-f-]{36}):/.exec(lines[0])?.[1] as string;

    // The field really is solved, all by this machine, and the line's tiles and reward are the field's.
    const o = await fullView(gameId);
    expect(o.status).toBe("solved");
    expect(o.tiles.every((t) => t.status === "solved" && t.agent?.startsWith(`${machine}/`))).toBe(true);
    const total = o.tiles.reduce((n, t) => n + t.cells, 0);
    expect(Number(match?.[2])).toBe(o.tiles_total);
    expect(Number(match?.[3])).toBe(total);
    expect(o.totals.reward).toBe(total);

    // The minted token is stored in the key file for this origin and reused by the next run.
    const token = (JSON.parse(readFileSync(file, "utf8")) as { tokens: Record<string, string> }).tokens[new URL(base).origin];
    expect(token).toMatch(/^msc_/);
    const again = runAgent(["--game", gameId, "--json", "--identity", file]);
    expect(again.status, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout) as AgentSummary;
    expect(summary.reason).toBe("solved");
    expect(summary.machine_id).toBe(machine);
    expect(summary.tiles).toBe(0);
    expect(summary.calls).toBeGreaterThan(0);
    expect(summary.call_ms.p50).toBeGreaterThan(0);
    expect(summary.call_ms.max).toBeGreaterThanOrEqual(summary.call_ms.p95);
    expect((JSON.parse(readFileSync(file, "utf8")) as { tokens: Record<string, string> }).tokens[new URL(base).origin]).toBe(token);

    // At a model's pace: --turn pauses before every call, so the run lasts at least calls × turn.
    const paced = runAgent(["--game", gameId, "--json", "--identity", file, "--turn", "0.4"]);
    expect(paced.status, paced.stderr).toBe(0);
    const pacedSummary = JSON.parse(paced.stdout) as AgentSummary;
    expect(pacedSummary.reason).toBe("solved");
    expect(pacedSummary.calls).toBeGreaterThan(0);
    expect(pacedSummary.seconds).toBeGreaterThanOrEqual(pacedSummary.calls * 0.4);
  });

  it("creates its key file where the identity CLI would, refuses bad arguments, and stops on its time limit", async () => {
    const cfg = join(home, "cfg-home");
    const bad = runAgent(["--new", "hexagon"], { MOSAIC_CONFIG_HOME: cfg });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--new takes scatter, grid or field");
    const negative = runAgent(["--turn", "-1"], { MOSAIC_CONFIG_HOME: cfg });
    expect(negative.status).toBe(2);
    expect(negative.stderr).toContain("--turn takes seconds >= 0");

    // A field the agent cannot finish in the limit however fast the machine (one agent solves a
    // G = 100 scatter in ~3.5 s on a quiet machine; this one has 2.5× the cells).
    const run = runAgent(["--new", "scatter", "160", "--seed", "agent-e2e-time", "--max-seconds", "3", "--json"], { MOSAIC_CONFIG_HOME: cfg });
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as AgentSummary;
    expect(summary.reason).toBe("time");
    expect(summary.seconds).toBeLessThan(3 + 60); // the limit, plus the field's generation and one call in flight
    const stored = JSON.parse(readFileSync(join(cfg, "identity.json"), "utf8")) as { machine_id: string };
    expect(summary.machine_id).toBe(stored.machine_id);
  });
});

describe("the agent and its machine's health", () => {
  it("stops cleanly, reporting death, when its machine died on the field", async () => {
    // Another program of the same machine (same key file, same token) commits wrong values until it dies.
    const file = join(home, "dies.json");
    const identity = loadOrCreateIdentity(file);
    const { token } = await bearerToken(identity, new URL(base));
    const client = await connectClient(base, { headers: { Authorization: `Bearer ${token}` } });
    try {
      const { gameId, field } = await startPlaying(client, { kind: "scatter", G: 30 });
      const joined = await callToolStructured<{ agent: string; seed_tile: number; revision: number }>(client, "join", { game_id: gameId, session: "other" });
      const seed = field.tiles[joined.seed_tile];
      const revealed = await callToolStructured<{ revision: number }>(client, "reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile: seed.id, intent: "" });
      const given = new Set(seed.givens);
      const wrong = seed.cellIds.filter((c) => !given.has(c)).map((c) => [c, 1 - field.solution[c]]);
      let revision = revealed.revision;
      for (let i = 0; i < 40; i++) {
        const r = await callToolStructured<{ revision: number; health: { state: string } }>(client, "commit", { game_id: gameId, agent: joined.agent, expected_revision: revision, cells: wrong, intent: "" });
        revision = r.revision;
        if (r.health.state === "dead") break;
      }

      const summary = await playAgent({ url: base, game: gameId, identityFile: file, maxSeconds: 120 });
      expect(summary.reason, formatSummary(summary)).toBe("dead");
      expect(summary.machine_id).toBe(identity.machineId);
      expect(summary.accepted).toBe(0);
      expect(formatSummary(summary)).toContain("machine died");
    } finally {
      await client.close();
    }
  });
});

describe("four reference agents", () => {
  it("finish a G = 60 scatter together", { timeout: 600_000 }, async () => {
    const client = await connectClient(base);
    const started = await callToolStructured<{ game_id: string }>(client, "start_mosaic", { kind: "scatter", G: 60, seed: "agent-e2e-four" });
    await client.close();
    const t0 = Date.now();
    const summaries = await Promise.all(
      [1, 2, 3, 4].map((i) => playAgent({ url: base, game: started.game_id, identityFile: join(home, `four-${i}.json`), model: "none", idleSeconds: 10, maxSeconds: 500 })),
    );
    const seconds = (Date.now() - t0) / 1000;
    const o = await fullView(started.game_id);
    expect(o.status).toBe("solved");
    const total = o.tiles.reduce((n, t) => n + t.cells, 0);
    for (const s of summaries) {
      expect(s.reason, formatSummary(s)).toBe("solved");
      // The solver never commits a wrong cell it proved: every wrong verdict answered a guess.
      expect(s.wrong).toBeLessThanOrEqual(s.guesses);
    }
    expect(summaries.reduce((n, s) => n + s.reward, 0)).toBe(total);
    expect(summaries.reduce((n, s) => n + s.tiles, 0)).toBe(o.tiles_total);
    const sum = (k: "calls" | "accepted" | "forced" | "guesses" | "wrong"): number => summaries.reduce((n, s) => n + s[k], 0);
    // The figures docs/performance.md reports.
    console.log(
      `four agents, G=60 scatter (${o.tiles_total} tiles, ${total} cells): ${seconds.toFixed(1)} s, ${sum("calls")} calls, ` +
        `forced ${((100 * sum("forced")) / sum("accepted")).toFixed(1)}%, ${sum("guesses")} guesses, ${sum("wrong")} wrong\n` +
        summaries.map(formatSummary).join("\n"),
    );
  });
});
