/** What the spectator model's users see of it: tile and cell codes, the header, agents and machines, its error. */
import type { SnapshotAgent, SnapshotMachine, SpectatorSnapshot } from "./types";

/** A tile's status in `tileStatus`. */
export const HIDDEN = 0;
export const REVEALED = 1;
export const SOLVED = 2;
/** The snapshot's one character per status, indexed by the codes above. */
export const STATUS_CHARS = "hrs";

/** Rejection marks of a still unknown cell. */
export const REJECTED_WRONG = 1;
export const REJECTED_GUESS = 2;

export type FieldStatus = SpectatorSnapshot["status"];

export interface ModelHeader {
  gameId: string;
  G: number;
  fog: boolean;
  /** Tiles the field has at revision 0 (before any ring grew). */
  tilesTotal: number;
  rules?: SpectatorSnapshot["rules"];
  /** The chain's starting point (SPEC §9): the head before the first event. */
  seedCommit?: string;
}

/** An event the model cannot apply: out of order, or naming what does not exist. */
export class SpectatorError extends Error {
  constructor(
    message: string,
    readonly kind: "gap" | "malformed",
  ) {
    super(message);
  }
}

export interface AgentState extends SnapshotAgent {
  index: number;
}

export type MachineState = SnapshotMachine & { index: number; sessions: string[]; agents: number[] };

/**
 * A typed array its holder may read and copy but not write: no index writes, no mutating method,
 * no view onto its buffer. The model hands its own arrays out under this type (no copy: pages
 * read them on every batch), so only its reducer changes them.
 */
export type ReadonlyTypedArray<T extends Int8Array | Uint8Array | Int32Array> = Readonly<
  Omit<T, "fill" | "set" | "copyWithin" | "sort" | "reverse" | "subarray" | "buffer">
>;
export type ReadonlyInt8Array = ReadonlyTypedArray<Int8Array>;
export type ReadonlyUint8Array = ReadonlyTypedArray<Uint8Array>;
export type ReadonlyInt32Array = ReadonlyTypedArray<Int32Array>;
