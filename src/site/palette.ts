/**
 * Colours of the field. Each machine of a field gets its own colour (below), from a palette that
 * stays distinguishable with the common colour-vision deficiencies (Okabe–Ito hues plus Paul
 * Tol's muted set, all ≥ 3:1 against the dark field). Status never relies on colour: hidden tiles
 * are a checker texture, revealed tiles flat grey, solved tiles two-tone (value 0 darker, value 1
 * lighter) in their solver's colour.
 */
export const MACHINE_COLOURS: readonly string[] = [
  "#e69f00", // orange
  "#56b4e9", // sky blue
  "#009e73", // bluish green
  "#f0e442", // yellow
  "#0072b2", // blue
  "#d55e00", // vermillion
  "#cc79a7", // reddish purple
  "#88ccee", // cyan (Tol)
  "#44aa99", // teal (Tol)
  "#ddcc77", // sand (Tol)
  "#aa4499", // purple (Tol)
  "#999933", // olive (Tol)
];

/**
 * Hues that read alike on a dark field at a glance (yellow and sand, sky blue and cyan…): a field's
 * first machines take one colour from each family before any family is used twice.
 */
const FAMILY_OF_SLOT: readonly number[] = [
  0, // orange: warm
  1, // sky blue: light blue
  2, // bluish green: green
  3, // yellow: yellow
  4, // blue: blue
  0, // vermillion: warm
  5, // reddish purple: purple
  1, // cyan: light blue
  2, // teal: green
  3, // sand: yellow
  5, // purple: purple
  3, // olive: yellow
];

export const FIELD_BACKGROUND = "#0d0f14";

/** Palette slot per machine, for the field on show. */
const slots = new Map<string, number>();

/** FNV-1a over the id: the slot a machine takes when no other machine of the field holds it. */
function preferredSlot(machineId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < machineId.length; i++) {
    h ^= machineId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % MACHINE_COLOURS.length;
}

/**
 * Colours a field's machines, in the field's order (first join first): each takes the slot its id
 * hashes to, or, when a machine before it holds that colour or one of its family, the next slot
 * whose family is free (then the next free slot once every family is held). So the machines of a
 * field never share a colour until there are more of them than colours, the first six never look
 * alike, a machine keeps its usual colour when it can, and every page showing the field (live or
 * replay) colours it alike.
 */
export function colourMachines(machineIds: readonly string[]): void {
  slots.clear();
  for (const id of machineIds) machineSlot(id);
}

/** The machine's slot: the one it was given, else one given now (a machine that joined since). */
export function machineSlot(machineId: string): number {
  const given = slots.get(machineId);
  if (given !== undefined) return given;
  const preferred = preferredSlot(machineId);
  const held = new Set(slots.values());
  const heldFamilies = new Set([...held].map((s) => FAMILY_OF_SLOT[s]));
  const slot =
    firstSlotFrom(preferred, (s) => !heldFamilies.has(FAMILY_OF_SLOT[s])) ??
    firstSlotFrom(preferred, (s) => !held.has(s)) ??
    preferred; // every colour is taken: share the usual one
  slots.set(machineId, slot);
  return slot;
}

/** The first slot from `start` on (wrapping round) that `free` accepts. */
function firstSlotFrom(start: number, free: (slot: number) => boolean): number | undefined {
  for (let k = 0; k < MACHINE_COLOURS.length; k++) {
    const slot = (start + k) % MACHINE_COLOURS.length;
    if (free(slot)) return slot;
  }
  return undefined;
}

/** The family of look-alike hues a slot belongs to. */
export function colourFamily(slot: number): number {
  return FAMILY_OF_SLOT[slot];
}

export function machineColour(machineId: string): string {
  return MACHINE_COLOURS[machineSlot(machineId)];
}

/** The machine part of an agent id `<machine>/<session>`. */
export function machineOf(agent: string): string {
  const slash = agent.indexOf("/");
  return slash < 0 ? agent : agent.slice(0, slash);
}

export function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** A colour as the little-endian RGBA word an ImageData's Uint32Array view expects. */
export function rgbaWord(r: number, g: number, b: number, a = 255): number {
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

function shade([r, g, b]: [number, number, number], f: number): number {
  return rgbaWord(Math.round(r * f), Math.round(g * f), Math.round(b * f));
}

/** Pixel words for every cell look, computed once. */
export const PIXELS = {
  empty: rgbaWord(0, 0, 0, 0),
  hiddenA: rgbaWord(0x2a, 0x2f, 0x3a),
  hiddenB: rgbaWord(0x36, 0x3c, 0x4a),
  revealed: rgbaWord(0x5d, 0x66, 0x78),
  known0: rgbaWord(0x8e, 0x98, 0xab),
  known1: rgbaWord(0xd3, 0xd9, 0xe4),
  rejected: rgbaWord(0xff, 0x4d, 0x6d),
  solved0: MACHINE_COLOURS.map((c) => shade(hexToRgb(c), 0.55)),
  solved1: MACHINE_COLOURS.map((c) => shade(hexToRgb(c), 1)),
};

/** Colours of what the painter draws over the cells (src/site/field/view.ts), in canvas syntax. */
export const OVERLAY = {
  /** The field's extent under the cells, so holes and unreached space read as inside the field. */
  fieldExtent: "#151922",
  fieldBorder: "#3a4150",
  ringLine: "rgba(160, 180, 220, 0.55)",
  ringLabel: "rgba(190, 205, 235, 0.85)",
  grid: "rgba(0, 0, 0, 0.35)",
  tileEdge: "rgba(8, 10, 14, 0.9)",
  /** The cross of a rejected cell, and a death's mark. */
  rejected: "#ff4d6d",
  digitOnOne: "rgba(0,0,0,0.75)",
  digitOnZero: "rgba(255,255,255,0.85)",
  /** Behind a solver's label on a solved tile. */
  labelBackdrop: "rgba(10, 12, 16, 0.78)",
  frontier: "#ffd166",
  seed: "#ffffff",
  seedBadgeBackdrop: "rgba(10, 12, 16, 0.8)",
  seedBadgeText: "#ffffff",
  hovered: "#ffffff",
  /** A tapped tile, and a meeting's mark and label. */
  selected: "#7fdbff",
  meeting: "#7fdbff",
  death: "#ff4d6d",
  deathLabel: "#ff8fa3",
  markerLabelBackdrop: "rgba(10, 12, 16, 0.85)",
} as const;
