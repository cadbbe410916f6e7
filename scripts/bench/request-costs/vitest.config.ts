import { inWorkerd } from "../workerd-config";

// What one request costs inside workerd, piece by piece (npm run bench:requests).
export default inWorkerd("scripts/bench/request-costs/*.bench-run.ts");
