/** The referee: pure TypeScript judging of play on one field (SPEC §4). */
export { Referee, type RefereeInit } from "./referee";
export type { ForcingOracle, ForcingOracleFactory, ForcingRule, Forcing } from "./forcing";
export type { HealthReport, HealthState } from "./health";
export { decodeKnown, encodeKnown, type DeltaKnown } from "./delta";
export type { GrowInput } from "./grow";
export type { RefereeSnapshot } from "./snapshot";
export * from "./types";
