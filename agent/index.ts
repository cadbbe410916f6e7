/** The reference agent as a module: `playAgent(options) → summary` (the CLI is `cli.ts`). */
export { playAgent } from "./play";
export { formatSummary } from "./summary";
export type { AgentOptions, AgentSummary, NewField, StopReason } from "./options";
export type { ExpandPolicy } from "./choices";
