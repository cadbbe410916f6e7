/**
 * What a model reads, in characters (SPEC §6 "What a model reads"): plays a generated field
 * through the referee and the tools' text functions (the same code the MCP tools run) and prints,
 * for a 55-cell commit, a reveal of a 16 × 16 tile and an observe {agent}, the size of the old
 * text (its summary line plus the JSON of the answer, as before pictures) and of the new text,
 * against the targets (800, 1,500 and 4,000 characters).
 *
 *   npm run bench:answers                 # sizes
 *   npm run bench:answers -- --show 1     # and the texts themselves
 */
import { generateField, type Field } from "../../src/engine";
import { Referee } from "../../src/referee";
import type { WriteInput } from "../../src/referee/types";
import { commitReply, revealText } from "../../src/mcp/answers/write-texts";
import { observeText } from "../../src/mcp/answers/observe-text";
import { drawTile, parsePicture } from "../../src/text/tile-picture";
import { numberOption } from "./bench-options";

const SHOW = numberOption("show", 0) === 1;
// A grid of 16 × 16 tiles (SPEC §3 kind grid): every seed is the square the reveal target names.
const G = numberOption("G", 106);
const RULES = { guess: "accept", depth: 0, fog: false } as const;

type Answer = Record<string, unknown>;

function apply(ref: Referee, input: WriteInput): Answer {
  const r = ref.apply(input, Date.now());
  if (!r.ok) throw new Error(`${input.type} refused: ${r.error.message}`);
  return r.answer;
}

/** The old text: the summary line, a newline, the JSON of the answer as it was (no pictures). */
function oldText(newText: string, structured: Answer): string {
  const { pictures: _p, ...rest } = structured;
  return `${newText.split("\n")[0]}\n${JSON.stringify(rest)}`;
}

/** A seat whose seed is a plain 16 × 16 square: machines join until one gets such a seed. */
function seatOnSquare(ref: Referee, field: Field): { agent: string; machineId: string; seed: number } | null {
  for (let i = 1; i < 40; i++) {
    const machineId = `m-${i.toString(16).padStart(16, "0")}`;
    const join = apply(ref, { type: "join", machineId, session: "1", name: "bench", model: "bench", harness: "bench", harnessSource: "argument", tags: {}, verified: true });
    const seed = join.seed_tile as number | null;
    if (seed === null) break;
    const t = field.tiles[seed];
    if (t.w === 16 && t.h === 16 && t.rects.length === 1) return { agent: String(join.agent), machineId, seed };
  }
  return null;
}

async function main(): Promise<void> {
  // Fields in a fixed order until a seat gets a 16×16 square seed (the reveal the target names).
  let found: { field: Field; ref: Referee; agent: string; machineId: string; seed: number } | null = null;
  for (let k = 0; k < 20 && !found; k++) {
    const field = await generateField({ kind: "grid", n: 16, seed: `answer-sizes-${k}`, G });
    const ref = new Referee({ gameId: "bench", seed: `answer-sizes-${k}`, field, rules: RULES });
    const seat = seatOnSquare(ref, field);
    if (seat) found = { field, ref, ...seat };
  }
  if (!found) throw new Error("no seat got a 16×16 seed tile; try another --G");
  const { field, ref, agent, machineId, seed } = found;
  const base = { machineId, agent, intent: "bench" };

  const revealed = apply(ref, { ...base, type: "reveal", expectedRevision: ref.revision, tile: seed });
  const reveal = revealText(revealed);

  // 55 unknown cells of the seed with their true values, in reading order.
  const tile = field.tiles[seed];
  const cells: Array<[number, 0 | 1]> = tile.cellIds.filter((c) => ref.cell(c)?.value === -1).slice(0, 55).map((c) => [c, field.solution[c] as 0 | 1]);
  const committed = apply(ref, { ...base, type: "commit", expectedRevision: ref.revision, cells });
  const commit = commitReply(committed).text;

  const observed = ref.observe({ agent });
  if (!observed.ok) throw new Error(observed.error.message);
  const observation = { observation: observed.observation };
  const observe = observeText("bench", observed.observation, true);
  const inReach = (observed.observation.tiles as unknown[]).length;

  const rows: Array<[string, string, Answer, number]> = [
    [`commit of ${cells.length} cells`, commit, committed, 800],
    [`reveal of a 16×16 tile (${tile.cellIds.length} cells)`, reveal, revealed, 1500],
    [`observe {agent}, ${inReach} tiles in view`, observe, observation, 4000],
  ];
  console.log(`field: grid of 16×16 tiles, G=${G}, ${field.tiles.length} tiles; seed tile ${seed}`);
  console.log("answer".padEnd(40), "before".padStart(8), "after".padStart(8), "target".padStart(8), " ratio");
  for (const [label, text, structured, target] of rows) {
    const before = label.startsWith("observe") ? `${text.split("\n")[0]}\n${JSON.stringify({ observation: { ...observed.observation, pictures: undefined } })}` : oldText(text, structured);
    const ok = text.length <= target ? "ok" : "OVER";
    console.log(label.padEnd(40), String(before.length).padStart(8), String(text.length).padStart(8), String(target).padStart(8), ` ${(text.length / before.length).toFixed(2)} ${ok}`);
  }
  // What a picture costs the referee: drawing a 16×16 tile (and reading it back, as the client matrix does).
  const square = { x0: 984, y0: 984, w: 16, h: 16, rects: [[0, 0, 16, 16]] as Array<[number, number, number, number]> };
  const times: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    const pic = drawTile(square, (x, y) => (((x * 7 + y * 3 + i) % 3) - 1) as -1 | 0 | 1, (x, y) => x === 984 || y === 999);
    const t1 = performance.now();
    parsePicture(pic);
    times.push(t1 - t0);
    parses.push(performance.now() - t1);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`a 16×16 picture: drawn in ${(median(times) * 1000).toFixed(0)} µs, read back in ${(median(parses) * 1000).toFixed(0)} µs (medians of 2000)`);
  if (SHOW) for (const [label, text] of rows) console.log(`\n--- ${label}\n${text}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
