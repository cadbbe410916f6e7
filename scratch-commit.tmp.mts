import { generateField } from "./src/engine";
import { Referee } from "./src/referee";
import type { WriteInput } from "./src/referee/types";
import { chainEvent } from "./src/game/chain";
import { canonicalJson } from "./src/engine/canonical-json";
import { toolOk } from "./src/mcp/results";
import { commitArgs } from "./src/mcp/tools/play-schemas";
const field = await generateField({ kind: "scatter", seed: "p-commit", G: 100 });
const RULES = { guess: "accept", depth: 0, fog: false } as const;
const joinOf = (m: string): WriteInput => ({ type: "join", machineId: m, session: "1", name: m, model: "x", harness: "bench", harnessSource: "argument", tags: {}, verified: true });
const T: Record<string, number[]> = {};
const rec = (k: string, v: number) => (T[k] ??= []).push(v);
for (let rep = 0; rep < 6; rep++) {
  const ref = new Referee({ gameId: "b", seed: "s", field, rules: RULES });
  const agent = ref.apply(joinOf("m-a"), 1).answer!.agent as string;
  let at = 2;
  for (let k = 0; k < 100; k++) {
    const frontier = ref.frontier(agent) ?? [];
    const t = frontier.find((t) => field.tiles[t].cellIds.some((c) => ref.cell(c)?.value === -1));
    if (t === undefined) break;
    if (ref.tileStatus(t)?.status === "hidden") ref.apply({ type: "reveal", machineId: "m-a", agent, expectedRevision: ref.revision, tile: t, intent: "x" }, at++);
    const cells = field.tiles[t].cellIds.filter((c) => ref.cell(c)?.value === -1).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
    if (cells.length < 60) { ref.apply({ type: "commit", machineId: "m-a", agent, expectedRevision: ref.revision, cells, intent: "x" }, at++); continue; }
    const args = { game_id: "g", agent, expected_revision: ref.revision, cells, intent: "proven by run and balance" };
    let s = performance.now(); const parsed = commitArgs.safeParse(args); rec("zod args", performance.now() - s);
    s = performance.now(); const cloneIn = structuredClone(args); rec("clone args", performance.now() - s);
    s = performance.now();
    const r = ref.apply({ type: "commit", machineId: "m-a", agent, expectedRevision: ref.revision, cells, intent: "x" }, at++);
    rec("referee", performance.now() - s);
    if (!r.ok || !r.event) throw new Error("bad");
    rec("cells", cells.length);
    s = performance.now(); const cj = canonicalJson({ ...r.event, prev: "ab".repeat(32) }); rec("canonicalJson", performance.now() - s);
    s = performance.now(); const ch = chainEvent("ab".repeat(32), r.event); rec("chainEvent", performance.now() - s);
    s = performance.now(); JSON.stringify(ch.event); JSON.stringify(cloneIn.cells); rec("store stringify", performance.now() - s);
    s = performance.now(); const back = structuredClone(r.answer); rec("clone answer", performance.now() - s);
    s = performance.now(); const res = toolOk("Revision 3: 80 accepted", back); rec("toolOk", performance.now() - s);
    s = performance.now(); const body = JSON.stringify({ result: { ...res, resultType: "complete" }, jsonrpc: "2.0", id: 1 }); rec("rpc stringify", performance.now() - s);
    s = performance.now(); new TextEncoder().encode(JSON.stringify(res)).length; rec("meter", performance.now() - s);
    rec("body KB", body.length / 1024); rec("event KB", cj.length / 1024);
    void parsed;
  }
}
for (const [k, v] of Object.entries(T)) { v.sort((a, b) => a - b); console.log(k.padEnd(16), "n", v.length, "p50", v[v.length >> 1].toFixed(3)); }
