// Builds the MCP Apps view `ui://mosaic/field` (src/site/view) into ONE self-contained HTML
// document, public/app/mcp-view.html: the script and the style inline, nothing fetched. The
// Worker reads it from its static assets when a host asks for the resource (src/mcp/view/).
import { build } from "esbuild";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const VIEW_OUT = resolve(root, "public/app/mcp-view.html");

/** Inserts `text` at a marker (a function replacement: `$` in the text stays literal). */
function inline(template: string, marker: string, text: string): string {
  if (!template.includes(marker)) throw new Error(`view template lost its ${marker} marker`);
  return template.replace(marker, () => text);
}

/** The document's size and its script's. */
export interface ViewBuild {
  bytes: number;
  scriptBytes: number;
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
  });
  // The view speaks to the host itself (host-link.ts): a package pulled in would undo its weight budget.
  const bundled = Object.keys(result.metafile.inputs).filter((path) => path.includes("node_modules/"));
  if (bundled.length) throw new Error(`the view bundles dependencies: ${bundled.join(", ")}`);
  const js = result.outputFiles[0].text;
  // esbuild escapes "</script" inside strings; anything left would end the inline script early.
  if (/<\/script/i.test(js)) throw new Error("the view's script contains </script");
  const css = (await readFile(resolve(root, "src/site/view/view.css"), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s*\n\s*/g, "");
  const template = await readFile(resolve(root, "src/site/view/view.html"), "utf8");
  const html = inline(inline(template, "/*VIEW_CSS*/", css), "/*VIEW_JS*/", js);
  await mkdir(dirname(VIEW_OUT), { recursive: true });
  await writeFile(VIEW_OUT, html);
  return { bytes: Buffer.byteLength(html), scriptBytes: Buffer.byteLength(js) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bytes } = await buildView();
  console.log(`field view: public/app/mcp-view.html ${(bytes / 1024).toFixed(1)} KiB`);
}
