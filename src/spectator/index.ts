/**
 * The spectator model, shared by the live page, the replay page and the server (pure TypeScript,
 * no platform APIs). See docs/spectator.md.
 */
export * from "./types";
export * from "./codec";
export { SpectatorModel } from "./model";
export { SpectatorError, HIDDEN, REVEALED, SOLVED, REJECTED_WRONG, REJECTED_GUESS, type ModelHeader, type AgentState, type MachineState, type ReadonlyInt8Array, type ReadonlyUint8Array, type ReadonlyInt32Array } from "./model-types";
export { leaderboard } from "./leaderboard";
export { modelAtStart, ArchiveReplay, type ArchiveLike } from "./replay";
export { applyLiveMessage, type LiveApplyResult } from "./live-client";
