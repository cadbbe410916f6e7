// Build-time trims of the view's dependencies (ext-apps' App, the MCP SDK's Protocol, zod 4).
// Nothing in node_modules is changed: esbuild is told how to read those files, and every text
// this rewrites is matched exactly, so a dependency update that moves it fails the build loudly.
import type { Plugin } from "esbuild";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const zodDir = resolve(root, "node_modules/zod/v4");

/** zod's classic API as a module namespace: what `zod/v4` exports as `z` (its package exports hide the path). */
const ZOD_CLASSIC = resolve(zodDir, "classic/external.js");
const ZOD_PROCESSORS = resolve(zodDir, "core/json-schema-processors.js");

/** Reads `import { z } from "zod/v4"` as `import * as z` of the same module, so unused zod functions drop out. */
function namespaceZod(source: string): string {
  const target = JSON.stringify(ZOD_CLASSIC);
  return source
    .replace(/import\s*\{\s*z\s+as\s+(\w+)\s*\}\s*from\s*"zod\/v4"/g, (_m, name: string) => `import * as ${name} from ${target}`)
    .replace(/import\s*\{\s*z\s*\}\s*from\s*"zod\/v4"/g, () => `import * as z from ${target}`)
    .replace(/import\s*\*\s*as\s+(\w+)\s+from\s*"zod\/v4"/g, (_m, name: string) => `import * as ${name} from ${target}`);
}

/**
 * The SDK fills its public `specTypeSchemas`/`isSpecType` registries with loops at module level,
 * which keeps every MCP and OAuth schema alive although the App reads neither registry. The
 * loops move into a function run (once) where a registry is first built, marked pure.
 */
const REGISTRY_LOOPS = "for (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);\nfor (const [key, schema] of Object.entries(authSchemas)) register(key, schema);";
function lazySpecRegistry(source: string): string {
  if (!source.includes("SPEC_SCHEMA_KEYS")) return source;
  const swaps: [string, string][] = [
    [REGISTRY_LOOPS, `let registryFilled = false;\nfunction fillRegistry() {\n\tif (registryFilled) return;\n\tregistryFilled = true;\n${REGISTRY_LOOPS}\n}`],
    ["const specTypeSchemas = Object.freeze(_specTypeSchemas);", "const specTypeSchemas = /* @__PURE__ */ (() => (fillRegistry(), Object.freeze(_specTypeSchemas)))();"],
    ["const isSpecType = Object.freeze(_isSpecType);", "const isSpecType = /* @__PURE__ */ (() => (fillRegistry(), Object.freeze(_isSpecType)))();"],
  ];
  let out = source;
  for (const [from, to] of swaps) {
    if (out.split(from).length !== 2) throw new Error(`view trim: the MCP SDK's spec-type registry changed shape (${from.slice(0, 40)}…)`);
    out = out.replace(from, () => to);
  }
  return out;
}

/**
 * Module-level constants the SDK computes from other values (key lists, sets, an accessor, a
 * function with attached helpers, a bundled CommonJS module's lazy init) are free of side
 * effects but read as calls; marked pure, the ones only unused code needs (elicitation and
 * JSON Schema helpers) drop out with it.
 */
function pureInitializers(source: string): string {
  return source
    .replace(/__toESM\((?=require_\w+\(\))/g, "__toESM(/* @__PURE__ */ ")
    .replace(/^(const [\w$]+ = )(?=(?:Object\.(?:keys|assign)|new Set|requestStateAccessor)\()/gm, "$1/* @__PURE__ */ ");
}

/**
 * zod classic wires JSON Schema generation (~19 KB minified) into every schema type. The view
 * never turns a schema into JSON Schema (it registers no app tools), so inside zod's classic
 * API those modules are replaced by stubs that throw if reached; `aggregateChecks`, which the
 * string and number types read for their `format`/bounds getters, stays the real one.
 */
async function processorsStub(): Promise<string> {
  const names = [...(await readFile(ZOD_PROCESSORS, "utf8")).matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]).filter((n) => n !== "aggregateChecks");
  if (names.length < 10) throw new Error("view trim: zod's JSON Schema processors changed shape");
  return [
    `export { aggregateChecks } from ${JSON.stringify(ZOD_PROCESSORS)};`,
    `const unavailable = () => { throw new Error("JSON Schema generation is not bundled in this view"); };`,
    ...names.map((n) => (n === "allProcessors" ? `export const allProcessors = {};` : `export const ${n} = unavailable;`)),
  ].join("\n");
}
const TO_JSON_SCHEMA_STUB = [
  `const unavailable = () => { throw new Error("JSON Schema generation is not bundled in this view"); };`,
  `export const createToJSONSchemaMethod = () => unavailable;`,
  `export const createStandardJSONSchemaMethod = () => unavailable;`,
].join("\n");

export const trimViewDependencies: Plugin = {
  name: "trim-view-dependencies",
  setup(b) {
    b.onLoad({ filter: /\/node_modules\/@modelcontextprotocol\/.*\.m?js$/ }, async (args) => {
      const contents = pureInitializers(lazySpecRegistry(namespaceZod(await readFile(args.path, "utf8"))));
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
    // zod's classic types reach its helpers through the `util` namespace re-exported by core's
    // index, which esbuild keeps whole; read as the helpers module itself, unused ones drop out.
    b.onLoad({ filter: /\/node_modules\/zod\/v4\/classic\/schemas\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const from = `import { util } from "../core/index.js";`;
      if (source.split(from).length !== 2) throw new Error("view trim: zod's classic schemas changed their imports");
      const contents = source.replace(from, () => `import * as util from "../core/util.js";`).replace(/\bcore\.util\./g, "util.");
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
    // Every locale but English (the only one used) is left out.
    b.onResolve({ filter: /locales\/index\.js$/ }, (args) => (args.importer.includes("/node_modules/zod/") ? { path: "zod-locales", namespace: "view-stub" } : undefined));
    b.onResolve({ filter: /\/(json-schema-processors|to-json-schema)\.js$/ }, (args) =>
      args.importer.startsWith(resolve(zodDir, "classic")) ? { path: args.path.includes("processors") ? "zod-processors" : "zod-to-json-schema", namespace: "view-stub" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "view-stub" }, async (args) => {
      const contents = args.path === "zod-locales" ? `export { default as en } from "zod/v4/locales/en.js";` : args.path === "zod-processors" ? await processorsStub() : TO_JSON_SCHEMA_STUB;
      return { contents, resolveDir: root };
    });
    // The SDK packages and zod are free of import side effects: modules the App never reaches drop out.
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "trim" || args.kind === "entry-point" || args.namespace === "view-stub") return undefined;
      const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: "trim" });
      if (found.errors.length || !/\/node_modules\/(zod|@modelcontextprotocol)\//.test(found.path) || /locales\/index\.js$/.test(found.path)) return undefined;
      return { path: found.path, sideEffects: false };
    });
  },
};
