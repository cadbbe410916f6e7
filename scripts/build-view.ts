// Builds the MCP Apps view `ui://mosaic/field` (src/site/view) into ONE self-contained HTML
// document, public/app/mcp-view.html: the script and the style inline, nothing fetched. The
// Worker reads it from its static assets when a host asks for the resource (src/mcp/view/).
import { build, type Plugin } from "esbuild";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const VIEW_OUT = resolve(root, "public/app/mcp-view.html");

/** zod's classic API as a module namespace: what `zod/v4` exports as `z` (its package exports hide the path). */
const ZOD_CLASSIC = resolve(root, "node_modules/zod/v4/classic/external.js");

/**
 * The view's one dependency, the MCP Apps `App` class, and the SDK under it import zod as one
 * value (`import { z } from "zod/v4"`), which esbuild cannot tree-shake: the whole API comes along,
 * every locale included (~260 KB). Three build-time trims, none changing what runs:
 * - those imports are read as `import * as z` of the same module, so only what is used is kept;
 * - every locale but English (the only one used) is left out;
 * - the SDK packages and zod are marked free of import side effects, so modules the App never
 *   reaches drop out.
 * Without them the App alone bundles to 649 KiB; with them the view's dependencies are ~240 KiB.
 */
const trimDependencies: Plugin = {
  name: "trim-view-dependencies",
  setup(b) {
    b.onLoad({ filter: /\/node_modules\/@modelcontextprotocol\/.*\.m?js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const contents = source
        .replace(/import\s*\{\s*z\s+as\s+(\w+)\s*\}\s*from\s*"zod\/v4"/g, (_m, name: string) => `import * as ${name} from ${JSON.stringify(ZOD_CLASSIC)}`)
        .replace(/import\s*\{\s*z\s*\}\s*from\s*"zod\/v4"/g, () => `import * as z from ${JSON.stringify(ZOD_CLASSIC)}`)
        .replace(/import\s*\*\s*as\s+(\w+)\s+from\s*"zod\/v4"/g, (_m, name: string) => `import * as ${name} from ${JSON.stringify(ZOD_CLASSIC)}`);
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
    b.onResolve({ filter: /locales\/index\.js$/ }, (args) => (args.importer.includes("/node_modules/zod/") ? { path: "zod-locales", namespace: "view-stub" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "view-stub" }, () => ({ contents: `export { default as en } from "zod/v4/locales/en.js";`, resolveDir: root }));
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "trim" || args.kind === "entry-point" || args.namespace === "view-stub") return undefined;
      const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: "trim" });
      if (found.errors.length || !/\/node_modules\/(zod|@modelcontextprotocol)\//.test(found.path) || /locales\/index\.js$/.test(found.path)) return undefined;
      return { path: found.path, sideEffects: false };
    });
  },
};

/** Inserts `text` at a marker (a function replacement: `$` in the text stays literal). */
function inline(template: string, marker: string, text: string): string {
  if (!template.includes(marker)) throw new Error(`view template lost its ${marker} marker`);
  return template.replace(marker, () => text);
}

/** The document's size, and how much of its script is the project's own code against its dependencies'. */
export interface ViewBuild {
  bytes: number;
  ownScriptBytes: number;
  dependencyScriptBytes: number;
}

export async function buildView(options: { minify?: boolean } = {}): Promise<ViewBuild> {
  const result = await build({
    entryPoints: [resolve(root, "src/site/view/main.ts")],
    bundle: true,
    write: false,
    format: "esm",
    target: ["es2022", "chrome110", "safari16", "firefox110"],
    minify: options.minify ?? true,
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
    plugins: [trimDependencies],
  });
  const js = result.outputFiles[0].text;
  // esbuild escapes "</script" inside strings; anything left would end the inline script early.
  if (/<\/script/i.test(js)) throw new Error("the view's script contains </script");
  const css = (await readFile(resolve(root, "src/site/view/view.css"), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s*\n\s*/g, "");
  const template = await readFile(resolve(root, "src/site/view/view.html"), "utf8");
  const html = inline(inline(template, "/*VIEW_CSS*/", css), "/*VIEW_JS*/", js);
  await mkdir(dirname(VIEW_OUT), { recursive: true });
  await writeFile(VIEW_OUT, html);
  let ownScriptBytes = 0;
  let dependencyScriptBytes = 0;
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      if (path.includes("node_modules/")) dependencyScriptBytes += input.bytesInOutput;
      else ownScriptBytes += input.bytesInOutput;
    }
  }
  return { bytes: Buffer.byteLength(html), ownScriptBytes, dependencyScriptBytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bytes } = await buildView();
  console.log(`field view: public/app/mcp-view.html ${(bytes / 1024).toFixed(1)} KiB`);
}
