/**
 * Fails when folders import each other in a circle, or when a folder imports one its layer may not
 * (CONTRIBUTING.md, "How the house is laid out"). Every import counts: `import type`, re-exports,
 * `import()` calls and types. The unit is a concern's folder; the files at the root of `src/` (the
 * entry point, the shared `Env` type) and of `scripts/` (one program each) stand alone. The layers below are
 * the table of CONTRIBUTING.md: change both together.
 *
 *   npm run check:imports            # one line per circle or forbidden edge, exit 1 if any
 *   npm run check:imports -- --graph # also print the folder graph
 */
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const SCANNED = ["src", "agent", "scripts", "test"];
const SKIPPED = new Set(["node_modules", "public", "dist", ".wrangler", "test-artifacts"]);

/**
 * The concerns of src/, in layers: a concern may import its own layer and those below it, never one
 * above. A concern's subfolders belong to it (src/engine/generate is src/engine) unless listed.
 */
const LAYERS: readonly (readonly string[])[] = [
  // pure: no Workers API; they run in Node, workerd and browsers alike
  ["src/text", "src/engine"],
  ["src/referee"],
  ["src/spectator", "src/analysis", "src/daily/archive", "src/daily/audit"],
  ["src/history"],
  // the shell: bindings, Durable Objects and their duties, the edge
  ["src/env.ts", "src/identity"],
  ["src/history-store", "src/oauth"],
  ["src/live"],
  ["src/game"],
  ["src/daily"],
  ["src/mcp"],
  ["src/http"],
  ["src/index.ts", "src/worker-types.d.ts"],
];
/** How many layers from the bottom are pure: all that the browser's code and the agent may use. */
const PURE_LAYERS = 4;
/** Programs that are not part of the Worker: they may import only the pure layers (and themselves). */
const PURE_ONLY = ["src/site", "agent"];
/** Folders whose files each stand alone: the Worker's entry and bindings, one script per program. */
const LOOSE = ["src", "scripts"];
/** Concerns outside src/ (subfolders included), for the circle check. */
const OTHER_CONCERNS = ["src/site", "agent", "test/support", "test/clients"];
const CONCERNS = [...LAYERS.flat(), ...OTHER_CONCERNS].filter((c) => !c.endsWith(".ts")).sort((a, b) => b.length - a.length);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|mts)$/.test(name)) out.push(path);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec);
  const tries = [base, `${base}.ts`, `${base}.d.ts`, join(base, "index.ts"), base.replace(/\.js$/, ".ts")];
  return tries.find((p) => existsSync(p) && statSync(p).isFile());
}

/** The unit a file belongs to: its concern, else its folder; a file of a loose folder stands alone. */
function unitOf(path: string): string {
  const rel = relative(ROOT, path).split(sep).join("/");
  const dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : ".";
  if (LOOSE.includes(dir)) return rel;
  return CONCERNS.find((c) => rel.startsWith(`${c}/`)) ?? dir;
}

interface Edge { from: string; to: string; file: string; spec: string }

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const top of SCANNED) {
    for (const file of files(join(ROOT, top))) {
      const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      for (const ref of [...info.importedFiles, ...info.referencedFiles]) {
        const target = resolveImport(file, ref.fileName);
        if (!target || !/\.(ts|mts)$/.test(target)) continue;
        const from = unitOf(file);
        const to = unitOf(target);
        if (from !== to) out.push({ from, to, file: relative(ROOT, file), spec: ref.fileName });
      }
    }
  }
  return out;
}

/** Strongly connected components with more than one unit (Tarjan). */
function circles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

function layerOf(unit: string): number | undefined {
  const i = LAYERS.findIndex((layer) => layer.includes(unit));
  return i < 0 ? undefined : i;
}

/** An edge the layers forbid, with the reason; undefined when allowed. */
function forbidden(edge: Edge): string | undefined {
  const to = layerOf(edge.to);
  if (PURE_ONLY.includes(edge.from)) {
    if (edge.to.startsWith("src/site") || (to !== undefined && to < PURE_LAYERS)) return undefined;
    return edge.to.startsWith("src/") ? `${edge.from} may import only the pure layers` : undefined;
  }
  if (!edge.from.startsWith("src/")) return undefined;
  const from = layerOf(edge.from);
  if (from === undefined) return `${edge.from} is in no layer: add it to LAYERS in scripts/check-imports.ts`;
  if (to === undefined) return edge.to.startsWith("src/") ? `${edge.to} is in no layer` : `src/ may not import ${edge.to}`;
  return to > from ? "a lower layer may not import a higher one" : undefined;
}

const all = edges();
const graph = new Map<string, Set<string>>();
for (const e of all) {
  if (!graph.has(e.from)) graph.set(e.from, new Set());
  if (!graph.has(e.to)) graph.set(e.to, new Set());
  graph.get(e.from)!.add(e.to);
}
if (process.argv.includes("--graph")) {
  for (const [from, tos] of [...graph].sort()) if (tos.size) console.log(`${from} → ${[...tos].sort().join(", ")}`);
}

const problems: string[] = [];
for (const component of circles(graph)) {
  const inside = new Set(component);
  const examples = all.filter((e) => inside.has(e.from) && inside.has(e.to));
  const byPair = new Map<string, Edge>();
  for (const e of examples) if (!byPair.has(`${e.from}→${e.to}`)) byPair.set(`${e.from}→${e.to}`, e);
  problems.push(`circle between ${component.join(", ")}:\n${[...byPair.values()].map((e) => `    ${e.from} → ${e.to}  (${e.file} imports "${e.spec}")`).join("\n")}`);
}
const seen = new Set<string>();
for (const e of all) {
  const why = forbidden(e);
  if (why && !seen.has(`${e.from}→${e.to}`)) {
    seen.add(`${e.from}→${e.to}`);
    problems.push(`${e.from} → ${e.to}: ${why}  (${e.file} imports "${e.spec}")`);
  }
}

const units = graph.size;
if (problems.length) {
  console.error(`import check: ${problems.length} problem(s) over ${all.length} imports between ${units} folders`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`import check: no circle between ${units} folders, every import within its layers (${all.length} imports across folders)`);
