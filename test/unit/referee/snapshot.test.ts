import { describe, expect, it } from "vitest";
import type { Field } from "../../../src/engine/types";
import { Referee, type RefereeInit } from "../../../src/referee/referee";
import type { RefereeSnapshot } from "../../../src/referee/snapshot";
import type { FieldRules, WriteInput } from "../../../src/referee/types";
import { chainField, gridField, scatterField } from "./fixtures";
import { joinInput, lcg, T0 } from "./helpers";

/**
 * Snapshots (restore without replaying the whole day): at random points of random play, a
 * snapshot is taken, sent through JSON, and restored; the restored referee then receives the
 * rest of the day. Every answer, every event, the digest, the observations and the machines'
 * rows must equal those of the run that was never interrupted.
 */

type Step = { kind: "write"; input: WriteInput; at: number } | { kind: "grow"; ring: number; upTo: number; at: number } | { kind: "close"; at: number };

/**
 * A referee over the first `tiles` tiles. Its solution is by default the one the field object
 * holds while playing: the cells of the rings grown so far (later rings are not generated yet).
 * A restore is given the whole solution instead, as the object reads it back from storage after
 * later growth.
 */
function initFor(whole: Field, tiles: number, rules: FieldRules, solution = solutionUpTo(whole, tiles)): RefereeInit {
  return { gameId: "snap-game", seed: "snap-seed", field: { G: whole.G, tiles: whole.tiles.slice(0, tiles), solution }, rules };
}

function solutionUpTo(whole: Field, tiles: number): Uint8Array {
  const solution = new Uint8Array(whole.solution.length);
  for (const tile of whole.tiles.slice(0, tiles)) for (const c of tile.cellIds) solution[c] = whole.solution[c];
  return solution;
}

/** Applies one step; the outcome as text, so that runs compare exactly. */
function applyStep(ref: Referee, whole: Field, step: Step): string {
  if (step.kind === "write") return JSON.stringify(ref.apply(structuredClone(step.input), step.at));
  if (step.kind === "close") return JSON.stringify(ref.close(step.at));
  const tiles = whole.tiles.slice(ref.tilesTotal(), step.upTo);
  return JSON.stringify(ref.grow({ ring: step.ring, tiles, solution: solutionUpTo(whole, step.upTo) }, step.at));
}

/** The next step of a messy day, chosen from the referee's current state. */
function nextStep(ref: Referee, whole: Field, rnd: (n: number) => number, i: number, grows: number[]): Step {
  const at = T0 + i * 1000 + rnd(1000);
  const ring = ref.grown + 1;
  if (ring <= grows.length && (rnd(30) === 0 || ref.status === "solved")) return { kind: "grow", ring, upTo: grows[ring - 1], at };
  const machines = ["m-a", "m-b", "m-c", "m-d"];
  if (i < 6 || rnd(25) === 0) return { kind: "write", input: joinInput(machines[rnd(machines.length)], String(1 + rnd(4))), at };
  const seated = ref.agents().map((a) => String(a.id));
  const agent = seated[rnd(seated.length)];
  const machineId = agent.split("/")[0];
  const frontier = ref.frontier(agent) ?? [];
  const expectedRevision = rnd(8) === 0 ? Math.max(0, ref.revision - 1 - rnd(4)) : ref.revision;
  const kind = rnd(10);
  if (kind < 2 || frontier.length === 0) {
    const tile = rnd(4) === 0 ? rnd(ref.tilesTotal()) : (frontier[rnd(Math.max(1, frontier.length))] ?? 0);
    return { kind: "write", input: { type: "reveal", machineId, agent, expectedRevision, tile, intent: `look ${tile}` }, at };
  }
  const tile = frontier[rnd(frontier.length)];
  const cells = whole.tiles[tile].cellIds;
  if (kind < 9) {
    const batch: Array<[number, 0 | 1]> = [];
    for (let k = 0, n = 1 + rnd(12); k < n; k++) {
      const c = cells[rnd(cells.length)];
      batch.push([c, (rnd(25) === 0 ? 1 - whole.solution[c] : whole.solution[c]) as 0 | 1]);
    }
    return { kind: "write", input: { type: "commit", machineId, agent, expectedRevision, cells: batch, intent: `fill ${tile}` }, at };
  }
  const some = cells.filter(() => rnd(3) === 0);
  return { kind: "write", input: { type: "retract", machineId, agent, expectedRevision, cells: some.length ? some : [cells[0]], intent: "undo" }, at };
}

/** Everything a client or the log can see of a referee, as text. */
function visible(ref: Referee, whole: Field): string {
  const agents = ref.agents().map((a) => String(a.id));
  const tiles = Array.from({ length: ref.tilesTotal() }, (_, t) => ref.tileStatus(t));
  return JSON.stringify({
    digest: ref.stateDigest(),
    revision: ref.revision,
    status: ref.status,
    grown: ref.grown,
    full: ref.observe({ full: true }),
    views: agents.map((agent) => ({ o: ref.observe({ agent }), f: ref.frontier(agent), g: ref.groupOf(agent) })),
    machines: ref.machines(),
    totals: ref.totals(),
    tiles,
    known: ref.knownCells(),
    cells: Array.from({ length: whole.G * whole.G }, (_, c) => ref.cell(c)),
    revealed: ref.revealedTiles(),
  });
}

const CASES: Array<{ name: string; whole: () => Field; initial: number; grows: number[]; rules: FieldRules }> = [
  { name: "grid, depth 0", whole: () => gridField(4, 6), initial: 36, grows: [], rules: { guess: "accept", depth: 0, fog: false } },
  { name: "scatter, fog, depth 1, guess reject", whole: () => scatterField(), initial: 8, grows: [], rules: { guess: "reject", depth: 1, fog: true } },
  { name: "chain with two growth rings, depth 2", whole: () => chainField(4, 9), initial: 3, grows: [6, 9], rules: { guess: "accept", depth: 2, fog: true } },
];

describe("referee snapshots: restore + continue equals the uninterrupted run", () => {
  for (const c of CASES) {
    for (const seed of [1, 2, 3]) {
      it(`${c.name}, seed ${seed}`, () => {
        const whole = c.whole();
        const rnd = lcg(seed * 7919 + c.initial);
        const original = new Referee(initFor(whole, c.initial, c.rules));
        const steps: Step[] = [];
        const outcomes: string[] = [];
        const restored: Array<{ from: number; ref: Referee; snapshotText: string }> = [];
        const STEPS = 220;
        for (let i = 0; i < STEPS; i++) {
          // Snapshot at random points (and at the very start), through JSON as storage would.
          if (i === 0 || rnd(12) === 0) {
            const text = JSON.stringify(original.snapshot());
            const snapshot = JSON.parse(text) as RefereeSnapshot;
            const ref = Referee.restore(initFor(whole, snapshot.board.tiles, c.rules, whole.solution), snapshot);
            expect(ref.stateDigest()).toBe(original.stateDigest());
            // A restored referee snapshots to exactly the same data (set orders included).
            expect(JSON.stringify(ref.snapshot())).toBe(text);
            restored.push({ from: i, ref, snapshotText: text });
          }
          const step = i === STEPS - 1 ? ({ kind: "close", at: T0 + i * 1000 } as const) : nextStep(original, whole, rnd, i, c.grows);
          steps.push(step);
          outcomes.push(applyStep(original, whole, step));
        }
        // The day had substance: events of every kind, refusals, and growth where the case grows.
        const events = outcomes.map((o) => JSON.parse(o) as { ok?: boolean; event?: { type: string } | null; type?: string });
        const types = new Set(events.map((e) => e.event?.type ?? e.type).filter(Boolean));
        for (const t of ["join", "reveal", "commit", "retract", "close", ...(c.grows.length ? ["grow"] : [])]) expect(types, t).toContain(t);
        expect(events.some((e) => e.ok === false)).toBe(true);
        expect(restored.length).toBeGreaterThan(5);

        const end = visible(original, whole);
        for (const r of restored) {
          for (let i = r.from; i < steps.length; i++) {
            expect(applyStep(r.ref, whole, steps[i]), `step ${i} after a snapshot at step ${r.from}`).toBe(outcomes[i]);
          }
          expect(visible(r.ref, whole)).toBe(end);
        }
      });
    }
  }

  for (const c of CASES) {
    it(`${c.name}: a snapshot taken in steps while writes keep arriving is the state at its capture`, () => {
      const whole = c.whole();
      const rnd = lcg(4242 + c.initial);
      const live = new Referee(initFor(whole, c.initial, c.rules));
      const twin = new Referee(initFor(whole, c.initial, c.rules));
      const steps: Step[] = [];
      let i = 0;
      const play = (ref: Referee) => {
        const step = nextStep(ref, whole, rnd, i++, c.grows);
        steps.push(step);
        applyStep(ref, whole, step);
      };
      for (let k = 0; k < 90; k++) play(live);
      // The twin replays the day up to the capture: the snapshot must equal its snapshot.
      for (const step of steps) applyStep(twin, whole, step);
      const taking = live.snapshotInSteps();
      expect(taking.revision).toBe(live.revision);
      let stepsTaken = 0;
      let done = taking.steps.next();
      // Between every two steps the field moves on (writes, growth, anything the day brings).
      while (!done.done) {
        play(live);
        stepsTaken++;
        done = taking.steps.next();
      }
      expect(stepsTaken).toBeGreaterThan(10);
      expect(live.revision).toBeGreaterThan(taking.revision);
      const text = JSON.stringify(done.value);
      expect(text).toBe(JSON.stringify(twin.snapshot()));
      // Restored and fed the writes that came during the steps, it reaches the live state.
      const snapshot = JSON.parse(text) as RefereeSnapshot;
      const restored = Referee.restore(initFor(whole, snapshot.board.tiles, c.rules, whole.solution), snapshot);
      for (const step of steps.slice(90)) applyStep(restored, whole, step);
      expect(visible(restored, whole)).toBe(visible(live, whole));
    });
  }

  it("refuses a damaged snapshot or one of another field", () => {
    const whole = gridField(4, 3);
    const rules: FieldRules = { guess: "accept", depth: 0, fog: false };
    const ref = new Referee(initFor(whole, 9, rules));
    ref.apply(joinInput("m-a"), T0);
    const agent = String(ref.agents()[0].id);
    const seed = ref.frontier(agent)![0];
    ref.apply({ type: "reveal", machineId: "m-a", agent, expectedRevision: ref.revision, tile: seed, intent: "" }, T0);
    const good = ref.snapshot();
    const init = initFor(whole, 9, rules);
    expect(Referee.restore(init, structuredClone(good)).stateDigest()).toBe(ref.stateDigest());
    const damage: Array<(s: RefereeSnapshot) => void> = [
      (s) => (s.board.known = s.board.known.replace("1", "0")),
      (s) => (s.board.status = "0*9"),
      (s) => (s.board.known = s.board.known + ",1"),
      (s) => (s.board.origin = "x!"),
      (s) => (s.revision += 1),
      (s) => (s.machines[0].health.counted += 1),
      (s) => (s.agents[0].seed = -5),
      (s) => (s.format = "other" as RefereeSnapshot["format"]),
      // Format 1 had no change revisions per cell and per tile status: refused (the owner replays).
      (s) => (s.format = "mosaic-referee-snapshot-1" as RefereeSnapshot["format"]),
      (s) => (s.board.cellAt = s.board.cellAt.replace(/^[0-9a-z]+/, "zz")),
      (s) => (s.board.statusAt = s.board.statusAt + ",1"),
      (s) => (s.gameId = "another-game"),
      (s) => (s.board.tiles = 8),
      // A parent cycle (would loop forever in find) and a parent list of the wrong length.
      (s) => (s.groups.parent = "0,2,1"),
      (s) => (s.groups.parent = "0,1"),
    ];
    for (const [i, hurt] of damage.entries()) {
      const s = structuredClone(good);
      hurt(s);
      expect(() => Referee.restore(init, s), `damage ${i}`).toThrow();
    }
  });
});
