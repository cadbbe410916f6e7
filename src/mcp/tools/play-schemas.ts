import { z } from "zod";
import { MAX_SESSION_CHARS, sessionProblem } from "../../referee/agent-id";
import { MAX_TAG_VALUE_CHARS, normaliseTags } from "../../referee/tags";
import { AGENT_RADIUS, FULL_MAX_G, MAX_COMMIT_CELLS, MAX_INTENT_CHARS, MAX_RETRACT_CELLS } from "../../referee/limits";
import { normaliseIntent } from "../../referee/validate";

/**
 * Argument schemas of the play tools (SPEC §6, ranges and defaults of §3). Shapes and ranges are
 * checked here; batch sizes are checked by the handlers so that an oversized batch is answered
 * with the `too_large` code rather than a generic validation message.
 */

/** A bound on the raw intent, before normalisation trims it (the body limit bounds it anyway). */
const MAX_RAW_INTENT = 4 * 1024;

/**
 * The message of a missing required argument says where its value comes from, so a model can fix
 * its call from the refusal alone; every other problem keeps zod's own wording.
 */
function whenMissing(hint: string): { error: (issue: { input?: unknown }) => string | undefined } {
  return { error: (issue) => (issue.input === undefined ? `missing (required): ${hint}` : undefined) };
}

export const gameId = z
  .string(whenMissing("the game_id from list_games or start_mosaic"))
  // No description: the name says it, and the missing-argument message says where it comes from.
  .regex(/^[a-zA-Z0-9_-]{1,80}$/, "game_id must match ^[a-zA-Z0-9_-]{1,80}$");

const agent = z.string(whenMissing("your agent id, from join (like m-…/1)")).min(3).max(200).describe("From join.");
const expectedRevision = z
  .number(whenMissing("the revision of the latest answer you got (join, reveal, commit, retract or observe)"))
  .int("must be a whole number: the revision of the latest answer you got")
  .min(0)
  .describe("The latest revision you saw.");
/**
 * An intent is normalised at the edge (SPEC §4.4): control characters, newlines included, become
 * spaces and surrounding whitespace is trimmed; the character limit (code points) applies to
 * the result. The raw string is capped far above it; the published schema states the real limit.
 */
const intent = z
  .string()
  .max(MAX_RAW_INTENT)
  .transform((s) => normaliseIntent(s) as string)
  .pipe(z.string().max(MAX_INTENT_CHARS, { error: (issue) => `too long: at most ${MAX_INTENT_CHARS} characters once trimmed, got ${String((issue.input as string).length)}` }))
  .default("")
  .meta({ maxLength: MAX_INTENT_CHARS, description: "Public, one line." });
const agentSecret = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe("If no bearer token: from your proof join.");
const cellId = z.number().int("must be a whole number").min(0);

/*
 * Fixed-length arrays are plain arrays with minItems/maxItems, never zod tuples: a tuple becomes
 * `prefixItems` + `items: false` in JSON Schema 2020-12, which clients with older JSON Schema
 * support reject. Per-position rules that a plain array cannot state are refinements, reported at
 * the same path and with the same kind of message as a tuple's.
 */

/** `[x, y, w, h]`: four integers >= 0, with w and h >= 1 (its type asserted, as `cellPair`'s below). */
const rectArg = z
  .array(cellId)
  .min(4)
  .max(4)
  .superRefine((rect, ctx) => {
    for (const i of [2, 3]) {
      // A negative one already has its issue from the element's own check.
      if (rect[i] === 0) ctx.addIssue({ code: "custom", path: [i], message: "Too small: expected number to be >=1" });
    }
  }) as unknown as z.ZodType<[number, number, number, number], number[]>;

/**
 * `[cell_id, value]`: two integers >= 0, the value 0 or 1. The pair's type is asserted, not
 * transformed: a transform wraps every pair in a pipe, which made validating a whole tile's commit
 * (~80 pairs) cost more than twice as much, for the same issues and the same published schema.
 */
const cellPair = z
  .array(cellId)
  .min(2, "each cell is a [cell_id, value] pair")
  .max(2, "each cell is a [cell_id, value] pair")
  .superRefine((pair, ctx) => {
    if (pair.length === 2 && pair[1] !== 0 && pair[1] !== 1) {
      ctx.addIssue({ code: "custom", path: [1], message: `a cell value must be 0 or 1, got ${pair[1]}` });
    }
  }) as unknown as z.ZodType<[number, 0 | 1], number[]>;

/**
 * A cell by coordinates: `[x, y, value]` for a commit (`withValue`), `[x, y]` for a retract. Any
 * whole numbers pass here: the field knows G and refuses a pair outside it by name.
 */
function xyEntry(withValue: boolean) {
  const n = withValue ? 3 : 2;
  const shape = withValue ? "each cell is an [x, y, value] triple" : "each cell is an [x, y] pair";
  return z
    .array(z.number().int("must be a whole number"))
    .min(n, shape)
    .max(n, shape)
    .superRefine((entry, ctx) => {
      if (withValue && entry.length === 3 && entry[2] !== 0 && entry[2] !== 1) {
        ctx.addIssue({ code: "custom", path: [2], message: `a cell value must be 0 or 1, got ${entry[2]}` });
      }
    });
}
const xyTriple = xyEntry(true) as unknown as z.ZodType<[number, number, 0 | 1], number[]>;
const xyPair = xyEntry(false) as unknown as z.ZodType<[number, number], number[]>;

/**
 * `session` (SPEC §6.1): 1..24 printable characters (spaces and non-ASCII too), not `/`. The
 * length counts characters, as JSON Schema's maxLength does, so the check is the referee's own.
 */
const sessionArg = z
  .string()
  .superRefine((s, ctx) => {
    const problem = sessionProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ minLength: 1, maxLength: MAX_SESSION_CHARS })
  .default("1")
  .describe(`1..${MAX_SESSION_CHARS} printable chars, not / (default "1"); same session = same agent.`);

/**
 * `tags` (SPEC §6.1): an object of string → string, as the reference takes; a list of strings is
 * accepted too (each a tag with the value ""). Published as an object; checked by the referee's rule.
 */
const tagsArg = z
  .preprocess(
    (v) => (Array.isArray(v) && v.every((t) => typeof t === "string") ? Object.fromEntries(v.map((t) => [t, ""])) : v),
    z
      .object({})
      .catchall(z.string().max(MAX_TAG_VALUE_CHARS))
      .superRefine((tags, ctx) => {
        const normal = normaliseTags(tags);
        if (!normal.ok) ctx.addIssue({ code: "custom", message: normal.message });
      }),
  )
  .optional()
  .describe("Labels, e.g. {\"team\":\"blue\"}.");

export const startMosaicArgs = z.object({
  kind: z.enum(["scatter", "grid", "field"]).default("scatter").describe("scatter (default), grid or field."),
  G: z.number().int().min(6).max(1000).optional().describe("Side in cells: scatter 6..1000 (100); grid: G-1 a multiple of n-1 (default 2 tiles a side); field: derived, or the canvas (>= 200, default 1000) with grow."),
  n: z.number().int().min(6).max(16).optional().describe("grid: tile side, even 6..16 (14)."),
  chunks: z.number().int().min(2).max(12).optional().describe("field: chunks per side 2..12 (3)."),
  chunk_g: z.number().int().min(40).max(120).optional().describe("field: chunk side 40..120 (60)."),
  seed: z.string().min(1).max(128).optional().describe("Generation seed (random when omitted)."),
  rules: z
    .object({
      guess: z.enum(["accept", "reject"]).default("accept"),
      depth: z.number().int().min(0).max(2).default(0),
      fog: z.boolean().optional(),
    })
    .optional(),
  grow: z
    .object({
      every_minutes: z.number().min(0.1).max(1440).optional(),
      frontier_coverage: z.number().min(0.1).max(1).optional(),
    })
    .optional()
    .describe("field only: grow a ring of chunks on a timer and/or when this share of tiles is revealed."),
});

export const joinArgs = z.object({
  game_id: gameId,
  session: sessionArg,
  machine_id: z.string().max(64).optional().describe("Proof join only (no bearer token): your machine id."),
  public_key: z.string().max(400).optional().describe("Proof join only: your ed25519 public key (raw base64)."),
  proof: z.string().max(200).optional().describe("Proof join only: signature over mosaic-join|<game_id>|<public_key>|<unix minute>|<session>."),
  name: z.string().max(60).optional().describe("Display name until you set one with your key."),
  model: z.string().max(100).optional().describe("Your model, self-reported."),
  harness: z.string().max(100).optional().describe("Your harness, if your client does not identify itself."),
  tags: tagsArg,
});

export const observeArgs = z.object({
  game_id: gameId,
  agent: agent.optional().describe(`Scope: your group's territory, tiles within ${AGENT_RADIUS} cells, frontier, your health.`),
  rect: rectArg
    .optional()
    .describe("Scope: tiles intersecting [x, y, w, h]."),
  full: z.boolean().optional().describe(`Whole field (only when G <= ${FULL_MAX_G}).`),
});

export const revealArgs = z.object({
  game_id: gameId,
  agent,
  expected_revision: expectedRevision,
  tile: z.number(whenMissing("a tile id on your frontier (join's seed_tile, or the frontier of any answer)")).int().min(0).describe("A hidden tile on your frontier."),
  intent,
  agent_secret: agentSecret,
});

export const commitArgs = z.object({
  game_id: gameId,
  agent,
  expected_revision: expectedRevision,
  cells: z
    .array(cellPair)
    .min(1)
    .optional()
    .describe(`1..${MAX_COMMIT_CELLS} [cell_id, value] pairs, judged in order; or xy.`),
  xy: z
    .array(xyTriple)
    .min(1)
    .optional()
    .describe("Or cells as [x, y, value] triples."),
  intent,
  agent_secret: agentSecret,
});

export const retractArgs = z.object({
  game_id: gameId,
  agent,
  expected_revision: expectedRevision,
  cells: z.array(cellId).min(1).optional().describe(`1..${MAX_RETRACT_CELLS} cell ids your machine committed; or xy.`),
  xy: z.array(xyPair).min(1).optional().describe("Or cells as [x, y] pairs."),
  intent,
  agent_secret: agentSecret,
});

export type StartMosaicArgs = z.infer<typeof startMosaicArgs>;
export type JoinArgs = z.infer<typeof joinArgs>;
