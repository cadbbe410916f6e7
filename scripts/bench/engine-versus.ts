/**
 * The engine against its frozen pre-optimisation reference (scripts/bench/baseline), measured in
 * the same run: each case runs on both engines, alternating which goes first, and must give the
 * same field digest (a speed-up changes no bit). Used by `npm run bench:engine`.
 */
import { generateField, generateRing, type FieldParams } from "../../src/engine";
import { fieldDigest } from "../../src/engine/field-digest";
import type { Field } from "../../src/engine/types";
import { loadReference } from "./baseline";

export interface Engine {
  generateField: typeof generateField;
  generateRing: typeof generateRing;
}

export const current: Engine = { generateField, generateRing };
export const frozen: Engine = await loadReference();

/** One timed run: wall and this process's CPU time, in ms, and the digest of what it made. */
export interface Timed {
  ms: number;
  cpu: number;
  digest: string;
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Time `job` (only the part it times: it returns the field and when its timed part started). */
async function timed(job: () => Promise<{ field: Field; wall0: number; cpu0: number }>): Promise<Timed> {
  const r = await job();
  const ms = performance.now() - r.wall0;
  const cpu = cpuNow() - r.cpu0;
  return { ms, cpu, digest: await fieldDigest(r.field) };
}

/** A whole field, timed from the start. */
export function fieldJob(engine: Engine, params: FieldParams): () => Promise<{ field: Field; wall0: number; cpu0: number }> {
  return async () => {
    const cpu0 = cpuNow();
    const wall0 = performance.now();
    return { field: await engine.generateField(params), wall0, cpu0 };
  };
}

/** Ring `ring` grown on `base` (generated untimed, by the same engine), timed alone. */
export function ringJob(engine: Engine, params: FieldParams, ring: number, base: Field): () => Promise<{ field: Field; wall0: number; cpu0: number }> {
  return async () => {
    const cpu0 = cpuNow();
    const wall0 = performance.now();
    const r = await engine.generateRing(params.seed, params, ring, base);
    return { field: { G: base.G, tiles: [...base.tiles, ...r.tiles], solution: r.solution }, wall0, cpu0 };
  };
}

/** A growing field regenerated whole: the initial field, then every ring while there is room. */
export function wholeDayJob(engine: Engine, params: FieldParams, onRing?: (ring: number, tiles: number) => void): () => Promise<{ field: Field; wall0: number; cpu0: number }> {
  return async () => {
    const cpu0 = cpuNow();
    const wall0 = performance.now();
    let field = await engine.generateField(params);
    for (let k = 1; ; k++) {
      const r = await engine.generateRing(params.seed, params, k, field);
      if (!r.room) break;
      field = { G: field.G, tiles: [...field.tiles, ...r.tiles], solution: r.solution };
      onRing?.(k, field.tiles.length);
    }
    return { field, wall0, cpu0 };
  };
}

export interface Versus {
  current: Timed[];
  frozen: Timed[];
}

/** Run each case on both engines, alternating the order; throws when a digest differs. */
export async function versus(cases: Array<(engine: Engine) => () => Promise<{ field: Field; wall0: number; cpu0: number }>>): Promise<Versus> {
  const out: Versus = { current: [], frozen: [] };
  for (let i = 0; i < cases.length; i++) {
    const order: Array<["current" | "frozen", Engine]> = i % 2 === 0 ? [["frozen", frozen], ["current", current]] : [["current", current], ["frozen", frozen]];
    const got: Partial<Record<"current" | "frozen", Timed>> = {};
    for (const [name, engine] of order) got[name] = await timed(cases[i](engine));
    if (got.current?.digest !== got.frozen?.digest) throw new Error(`case ${i}: the engine's field differs from the reference's (${got.current?.digest} vs ${got.frozen?.digest})`);
    out.current.push(got.current as Timed);
    out.frozen.push(got.frozen as Timed);
  }
  return out;
}
