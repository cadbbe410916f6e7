/** What the auditor reports: each check's outcome, and the first mismatch it found. */

export type CheckName = "commitments" | "regeneration" | "hashes" | "chain" | "replay";

/** The five checks of SPEC §9, in the order they are reported. */
export const CHECKS: readonly CheckName[] = ["commitments", "regeneration", "hashes", "chain", "replay"];

export const CHECK_TITLES: Record<CheckName, string> = {
  commitments: "commitments",
  regeneration: "regeneration",
  hashes: "tile hashes",
  chain: "hash chain",
  replay: "replay",
};

/** Where a check first found the archive disagreeing with what it recomputed. */
export interface Mismatch {
  /** A one-line explanation naming the tile, the event revision and the field involved. */
  message: string;
  tile?: number;
  rev?: number;
  field?: string;
}

export interface CheckResult {
  check: CheckName;
  ok: boolean;
  /** What was verified (on success) or how far the check got (on a mismatch). */
  summary: string;
  mismatch?: Mismatch;
  ms: number;
}

/** Thrown inside a check to stop at the first mismatch. */
export class AuditMismatch extends Error {
  constructor(readonly mismatch: Mismatch) {
    super(mismatch.message);
    this.name = "AuditMismatch";
  }
}

export function mismatch(message: string, where: Omit<Mismatch, "message"> = {}): AuditMismatch {
  return new AuditMismatch({ message, ...where });
}

/** A value for a message: short JSON, cut in the middle when long. */
export function shown(value: unknown, max = 120): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return clipped(text, max);
}

/** A text for a message, cut in the middle when longer than `max`. */
export function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 20)}…${text.slice(-15)}`;
}

/** Progress of a long check: `done` of `total` units (tiles, events), and what it is at in words (the regeneration's pieces). */
export type Progress = (check: CheckName, done: number, total: number, detail?: string) => void;
