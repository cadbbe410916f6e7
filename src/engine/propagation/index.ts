/** The referee's "forced" propagation (SPEC §4.5); see docs/propagation.md. */
export { Propagator } from "./propagator";
export type { Forcing, ForcingRule, PropagationDepth } from "./types";
