/** Public vocabulary of the referee's propagation (SPEC §4.5). */

/** The rule that fixed a cell. Priority when several apply: run, balance, unique, bifurcation. */
export type ForcingRule = "run" | "balance" | "unique" | "bifurcation";

export interface Forcing {
  value: 0 | 1;
  rule: ForcingRule;
}

/** Bifurcation depth a field is configured with (SPEC §4.5: 0 by default, at most 2). */
export type PropagationDepth = 0 | 1 | 2;

/** Rule codes used internally; their numeric order is the reporting priority. */
export const RULE_NONE = 0;
export const RULE_RUN = 1;
export const RULE_BALANCE = 2;
export const RULE_UNIQUE = 3;

export const RULE_NAMES: readonly ForcingRule[] = ["bifurcation", "run", "balance", "unique"];
