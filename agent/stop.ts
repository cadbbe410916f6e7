/** How a run ends early, and what one step of play came to. */
import type { StopReason } from "./options";

/** Thrown to end the run with `reason` (the summary's), from wherever play finds it over. */
export class Stop extends Error {
  constructor(
    readonly reason: StopReason,
    message: string = reason,
  ) {
    super(message);
  }
}

/** "waiting": nothing of this agent's to do, but group mates have work it may take later (share.ts). */
export type Step = "acted" | "idle" | "waiting" | "refresh";
