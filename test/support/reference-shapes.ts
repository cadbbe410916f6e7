import { expect } from "vitest";

/**
 * The answer shapes an agent written for the reference server reads (SPEC §6.1): every field
 * named there, with its type. Mosaic may add fields; these must all be present, typed so.
 * A key ending in `?` is optional (checked when present).
 */
export type Shape =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | { array: Shape }
  | { object: Record<string, Shape> }
  | { nullable: Shape }
  | { oneOf: readonly unknown[] };

const int: Shape = "integer";
const ints: Shape = { array: int };
const pair: Shape = { array: int };
const pairs: Shape = { array: pair };

const geometry = { x0: int, y0: int, w: int, h: int, rects: { array: ints }, cells: int, m: int } as const;

export const HEALTH: Shape = {
  object: { state: { oneOf: ["healthy", "warning", "dead"] }, rate: "number", committed: int, wrong: int, window: int, died_at: { nullable: int } },
};

/** A field's rules (SPEC §6.1): list_games entries, join and observe carry them. */
export const RULES: Shape = { object: { guess: { oneOf: ["accept", "reject"] }, depth: { oneOf: [0, 1, 2] }, fog: "boolean" } };

export const START: Shape = {
  object: { game_id: "string", status: { oneOf: ["generating"] }, kind: "string", G: int, spectator_url: "string", "ignored?": { array: "string" } },
};

export const GAME: Shape = {
  object: {
    game_id: "string",
    status: { oneOf: ["generating", "failed", "playing", "solved", "closed"] },
    revision: int,
    G: int,
    tiles: int,
    grown: int,
    fog: "boolean",
    rules: RULES,
    agents: { array: "string" },
    agents_total: int,
    "error?": "string",
  },
};

export const LIST_GAMES: Shape = { object: { games: { array: GAME } } };

export const JOIN: Shape = {
  object: {
    agent: "string",
    seed_tile: int,
    seed: { object: { id: int, ...geometry } },
    revision: int,
    verified: "boolean",
    harness: "string",
    harness_source: { oneOf: ["transport", "argument", "unknown"] },
    rules: RULES,
    "agent_secret?": "string",
  },
};

const OBSERVED_TILE: Shape = {
  object: { id: int, ...geometry, status: { oneOf: ["hidden", "revealed", "solved"] }, agent: { nullable: "string" }, neighbours: ints },
};

export const OBSERVE: Shape = {
  object: {
    observation: {
      object: {
        game_id: "string",
        status: { oneOf: ["playing", "solved", "closed"] },
        revision: int,
        G: int,
        tiles_total: int,
        grown: int,
        fog: "boolean",
        rules: RULES,
        tiles: { array: OBSERVED_TILE },
        frontier: ints,
        known: { object: { gaps: ints, values: "string" } },
        agents: { array: { object: { id: "string" } } },
        totals: { object: { reward: int, solved: int } },
        "health?": HEALTH,
      },
    },
  },
};

/** `observe` on a generating or failed field (SPEC §6): an observation, not an error. */
export const OBSERVE_STATUS: Shape = {
  object: {
    observation: {
      object: { game_id: "string", status: { oneOf: ["generating", "failed"] }, seconds: int, revision: { oneOf: [0] }, "error?": "string" },
    },
  },
};

export const REVEAL: Shape = {
  // `status` is the field's and the tile's own is `tile_status` (SPEC §6.1): an agent stopping on "solved" never stops early.
  object: {
    tile: int,
    ...geometry,
    givens: pairs,
    seam: pairs,
    solved: ints,
    revision: int,
    status: { oneOf: ["playing", "solved", "closed"] },
    tile_status: { oneOf: ["revealed", "solved"] },
  },
};

export const COMMIT: Shape = {
  object: {
    revision: int,
    status: { oneOf: ["playing", "solved", "closed"] },
    accepted: { array: { object: { id: int, v: { oneOf: [0, 1] }, class: { oneOf: ["forced", "guess"] }, "rule?": "string" } } },
    rejected: { array: { object: { id: int, reason: { oneOf: ["wrong", "guess"] }, v: { oneOf: [0, 1] } } } },
    ignored: { array: { object: { id: int, reason: "string" } } },
    unevaluated: ints,
    solved: ints,
    meets: { array: { object: { with: { array: "string" } } } },
    reward: int,
    frontier: ints,
    health: HEALTH,
    "note?": "string",
  },
};

export const RETRACT: Shape = {
  object: { revision: int, retracted: ints, ignored: { array: { object: { id: int, reason: "string" } } } },
};

/** Written from SPEC §6.1, not imported from the server: the oracle must not share a mistake with what it checks. */
export const ERROR_CODES = [
  "missing",
  "generating",
  "failed",
  "identity",
  "token",
  "proof",
  "not_seated",
  "not_your_agent",
  "off_frontier",
  "solved",
  "conflict",
  "too_large",
  "bad_input",
  "dead",
  "closed",
  "rate_limited",
  "unavailable",
] as const;

export const ERROR: Shape = { object: { error: { object: { code: { oneOf: ERROR_CODES }, message: "string", "revision?": int } } } };

/** Fails with the path of the first field that is missing or has the wrong type. */
export function expectShape(value: unknown, shape: Shape, path = "$"): void {
  if (shape === "string") return void expect(typeof value, path).toBe("string");
  if (shape === "boolean") return void expect(typeof value, path).toBe("boolean");
  if (shape === "number") return void expect(typeof value === "number" && Number.isFinite(value), `${path} is a number`).toBe(true);
  if (shape === "integer") return void expect(Number.isInteger(value), `${path} is an integer (got ${JSON.stringify(value)})`).toBe(true);
  if ("oneOf" in shape) return void expect(shape.oneOf, `${path} = ${JSON.stringify(value)}`).toContain(value);
  if ("nullable" in shape) {
    if (value !== null) expectShape(value, shape.nullable, path);
    return;
  }
  if ("array" in shape) {
    expect(Array.isArray(value), `${path} is an array`).toBe(true);
    (value as unknown[]).forEach((item, i) => expectShape(item, shape.array, `${path}[${i}]`));
    return;
  }
  expect(typeof value === "object" && value !== null && !Array.isArray(value), `${path} is an object`).toBe(true);
  const record = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(shape.object)) {
    const optional = key.endsWith("?");
    const name = optional ? key.slice(0, -1) : key;
    if (!(name in record)) {
      expect(optional, `${path}.${name} is present`).toBe(true);
      continue;
    }
    expectShape(record[name], field, `${path}.${name}`);
  }
}
