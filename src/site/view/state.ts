/**
 * What the in-host view knows of the agent's neighbourhood, merged from the tool results the host
 * hands it (SPEC §6.1 shapes: join, observe, reveal, commit). Pure: no DOM, so it can be tested in
 * Node. Knowledge only grows within a field (statuses rise, cells become known); a result of
 * another field starts afresh.
 */
export type Rect = [number, number, number, number];

export interface ViewTile {
  id: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
  rects: Rect[];
  cells: number;
  m: number;
  status: "hidden" | "revealed" | "solved";
  agent: string | null;
}

export interface Health {
  state: string;
  rate?: number;
  committed?: number;
  wrong?: number;
}

/** The last revealed tile, for its picture: its shape and its cells known at the reveal. */
export interface LastTile {
  tile: ViewTile;
  givens: Array<[number, number]>;
  seam: Array<[number, number]>;
}

export interface ViewState {
  gameId: string | null;
  agent: string | null;
  G: number | null;
  status: string | null;
  revision: number | null;
  reward: number | null;
  lastCommitReward: number | null;
  health: Health | null;
  seedTile: number | null;
  tiles: Map<number, ViewTile>;
  frontier: number[];
  known: Map<number, number>;
  rejected: Set<number>;
  lastTile: LastTile | null;
  /** The tool whose result was merged last, and how many were merged. */
  lastTool: string | null;
  results: number;
}

export function emptyState(): ViewState {
  return {
    gameId: null, agent: null, G: null, status: null, revision: null, reward: null, lastCommitReward: null, health: null,
    seedTile: null, tiles: new Map(), frontier: [], known: new Map(), rejected: new Set(), lastTile: null, lastTool: null, results: 0,
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const ints = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []);
const pairs = (v: unknown): Array<[number, number]> =>
  Array.isArray(v) ? v.filter((p): p is [number, number] => Array.isArray(p) && Number.isInteger(p[0]) && (p[1] === 0 || p[1] === 1)) : [];

const STATUS_RANK = { hidden: 0, revealed: 1, solved: 2 } as const;

/** A tile's geometry from any answer that carries it (`id` or `tile` names it). */
function tileOf(v: Json, id: number, status: ViewTile["status"], agent: string | null): ViewTile | null {
  const x0 = num(v.x0), y0 = num(v.y0), w = num(v.w), h = num(v.h);
  if (x0 === null || y0 === null || w === null || h === null) return null;
  const rects = Array.isArray(v.rects) ? (v.rects.filter((r) => Array.isArray(r) && r.length === 4) as Rect[]) : [];
  return { id, x0, y0, w, h, rects: rects.length ? rects : [[0, 0, w, h]], cells: num(v.cells) ?? w * h, m: num(v.m) ?? 0, status, agent };
}

/** Adds a tile, keeping the more advanced status and a solver once known. */
function putTile(state: ViewState, tile: ViewTile): void {
  const old = state.tiles.get(tile.id);
  if (old && STATUS_RANK[old.status] > STATUS_RANK[tile.status]) state.tiles.set(tile.id, { ...tile, status: old.status, agent: old.agent });
  else state.tiles.set(tile.id, { ...tile, agent: tile.agent ?? old?.agent ?? null });
}

function raise(state: ViewState, id: number, status: ViewTile["status"], agent: string | null): void {
  const old = state.tiles.get(id);
  if (old && STATUS_RANK[status] > STATUS_RANK[old.status]) state.tiles.set(id, { ...old, status, agent: agent ?? old.agent });
}

/** Which tool answered, from the answer's own shape (hosts do not always say). */
export function toolOfResult(s: Json): "join" | "observe" | "reveal" | "commit" | null {
  if (isObject(s.observation)) return "observe";
  if ("seed_tile" in s && isObject(s.seed)) return "join";
  if (Array.isArray(s.accepted) && Array.isArray(s.rejected)) return "commit";
  if (Number.isInteger(s.tile) && Array.isArray(s.givens)) return "reveal";
  return null;
}

/** The arguments of the call (the host hands them before the result): the field and the agent. */
export function applyToolInput(state: ViewState, args: Json | undefined): ViewState {
  if (!args) return state;
  const game = typeof args.game_id === "string" ? args.game_id : null;
  if (game && game !== state.gameId) state = { ...emptyState(), gameId: game };
  if (typeof args.agent === "string") state.agent = args.agent;
  return state;
}

/** Merges one tool result; returns the state to show (a new one when the result is of another field). */
export function applyResult(state: ViewState, structured: unknown): ViewState {
  if (!isObject(structured)) return state;
  const tool = toolOfResult(structured);
  if (!tool) return state;
  if (tool === "observe") state = applyObservation(state, structured.observation as Json);
  else if (tool === "join") applyJoin(state, structured);
  else if (tool === "reveal") applyReveal(state, structured);
  else applyCommit(state, structured);
  state.lastTool = tool;
  state.results++;
  return state;
}

function applyJoin(state: ViewState, s: Json): void {
  if (typeof s.agent === "string") state.agent = s.agent;
  const seed = s.seed as Json;
  const id = num(s.seed_tile) ?? num(seed.id);
  if (id !== null) {
    state.seedTile = id;
    const tile = tileOf(seed, id, "hidden", null);
    if (tile) putTile(state, tile);
    if (!state.frontier.includes(id)) state.frontier = [id, ...state.frontier];
  }
  state.revision = num(s.revision) ?? state.revision;
}

function applyObservation(state: ViewState, o: Json): ViewState {
  const game = typeof o.game_id === "string" ? o.game_id : null;
  if (game && state.gameId && game !== state.gameId) state = { ...emptyState(), gameId: game, agent: state.agent };
  if (game) state.gameId = game;
  state.G = num(o.G) ?? state.G;
  state.status = typeof o.status === "string" ? o.status : state.status;
  state.revision = num(o.revision) ?? state.revision;
  for (const t of Array.isArray(o.tiles) ? o.tiles : []) {
    if (!isObject(t) || !Number.isInteger(t.id)) continue;
    const status = t.status === "solved" || t.status === "revealed" ? t.status : "hidden";
    const tile = tileOf(t, t.id as number, status, typeof t.agent === "string" ? t.agent : null);
    if (tile) putTile(state, tile);
  }
  if (Array.isArray(o.frontier)) state.frontier = ints(o.frontier);
  if (isObject(o.known)) {
    const gaps = ints(o.known.gaps);
    const values = typeof o.known.values === "string" ? o.known.values : "";
    let cell = 0;
    gaps.forEach((gap, i) => {
      cell += gap;
      if (values[i] === "0" || values[i] === "1") state.known.set(cell, Number(values[i]));
    });
  }
  if (Array.isArray(o.agents) && state.agent) {
    const me = o.agents.find((a) => isObject(a) && a.id === state.agent) as Json | undefined;
    if (me) {
      state.reward = num(me.reward) ?? state.reward;
      if (state.seedTile === null) state.seedTile = num(me.seed_tile);
    }
  }
  if (isObject(o.health)) state.health = o.health as unknown as Health;
  return state;
}

function applyReveal(state: ViewState, s: Json): void {
  const id = s.tile as number;
  const tile = tileOf(s, id, "revealed", null);
  if (tile) {
    putTile(state, tile);
    raise(state, id, "revealed", null);
  }
  const givens = pairs(s.givens);
  const seam = pairs(s.seam);
  for (const [c, v] of [...givens, ...seam]) state.known.set(c, v);
  const shown = state.tiles.get(id);
  if (shown) state.lastTile = { tile: shown, givens, seam };
  state.revision = num(s.revision) ?? state.revision;
}

function applyCommit(state: ViewState, s: Json): void {
  for (const a of Array.isArray(s.accepted) ? s.accepted : []) {
    if (isObject(a) && Number.isInteger(a.id) && (a.v === 0 || a.v === 1)) {
      state.known.set(a.id as number, a.v);
      state.rejected.delete(a.id as number);
    }
  }
  for (const r of Array.isArray(s.rejected) ? s.rejected : []) if (isObject(r) && Number.isInteger(r.id)) state.rejected.add(r.id as number);
  for (const id of ints(s.solved)) raise(state, id, "solved", state.agent);
  if (Array.isArray(s.frontier)) state.frontier = ints(s.frontier);
  state.revision = num(s.revision) ?? state.revision;
  state.status = typeof s.status === "string" ? s.status : state.status;
  state.lastCommitReward = num(s.reward);
  if (isObject(s.health)) state.health = s.health as unknown as Health;
}

/** The cells the view needs to hold: the field's size once observed, else the known tiles' extent. */
export function fieldSize(state: ViewState): number {
  let extent = 1;
  for (const t of state.tiles.values()) extent = Math.max(extent, t.x0 + t.w, t.y0 + t.h);
  return Math.max(state.G ?? 0, extent);
}

/** The box around the agent's neighbourhood: every tile the view knows (observe {agent} lists only those in reach). */
export function neighbourhoodBox(state: ViewState): { x: number; y: number; w: number; h: number } | null {
  if (state.tiles.size === 0) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const t of state.tiles.values()) {
    x0 = Math.min(x0, t.x0); y0 = Math.min(y0, t.y0);
    x1 = Math.max(x1, t.x0 + t.w); y1 = Math.max(y1, t.y0 + t.h);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}
