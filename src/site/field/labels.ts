import { MACHINE_ID_RE } from "../../referee/agent-id";

/**
 * A machine's name short enough to sit on a tile (at most 10 characters): names up to that length
 * as they are; longer ones keep their first 4 and last 5 characters, so names that differ only at
 * the end ("Tester #1", "Tester #2", the usual way to number a team) stay apart on the field. A
 * bare machine id shows 6 hex digits after its "m-". Counted in code points: an emoji is never cut.
 */
export function shortLabel(name: string): string {
  const text = MACHINE_ID_RE.test(name) ? name.slice(2, 8) : name;
  const chars = [...text];
  return chars.length > 10 ? `${chars.slice(0, 4).join("")}…${chars.slice(-5).join("")}` : text;
}
