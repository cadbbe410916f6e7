// Builds the MCP Apps view `ui://mosaic/field` (src/site/view) into ONE self-contained HTML
// document, public/app/mcp-view.html: the script and the style inline, nothing fetched. The
// Worker reads it from its static assets when a host asks for the resource (src/mcp/view/).
import { build, type Plugin } from "esbuild";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const VIEW_OUT = resolve(root, "public/app/mcp-view.html");

/**
 * The view's one dependency, the MCP Apps `App` class, imports zod's whole namespace, which drags
 * in every locale (~260 KB): only English is ever used, so the others are left out. The SDK
 * packages and zod are also marked free of import side effects, so modules the App never reaches
 * drop out of the bundle (~70 KB).
 */
const trimDependencies: Plugin = {
  name: "trim-view-dependencies",
  setup(b) {
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
