// Request body limits at the edge, in a module of their own (no imports) so that tests running in
// plain Node, such as the hostile-request fuzz, can read them without loading the Worker's router.

/** The largest /mcp body accepted: far above any legal call (a 8192-cell retract is ~60 KB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Bodies of every route but /mcp (signed key requests, the public API): small JSON objects. */
export const MAX_API_BODY_BYTES = 16 * 1024;
