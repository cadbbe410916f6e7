import { inWorkerd } from "../workerd-config";

// The in-process ceiling of one field object (npm run bench:load runs it).
export default inWorkerd("scripts/bench/ceiling/*.bench-run.ts");
