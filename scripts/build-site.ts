// Bundles the spectator site (src/site) into public/app/, which is not in git. Runs before
// `npm start`, `npm test` and `npm run build`, and in the e2e harness's global setup, so every
// server that serves public/ serves a fresh bundle.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { buildView } from "./build-view";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** One bundle of the site: `src/site/<entry>` → `public/app/<out>`, for the page's browser targets; its size in bytes. */
async function bundle(entry: string, out: string, format: "esm" | "iife", minify: boolean): Promise<number> {
  const result = await build({
    entryPoints: [resolve(root, "src/site", entry)],
    outfile: resolve(root, "public/app", out),
    bundle: true,
    format,
    target: ["es2022", "chrome110", "safari16", "firefox110"],
    minify,
    sourcemap: true,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const output = Object.entries(result.metafile.outputs).find(([name]) => name.endsWith(out));
  return output ? output[1].bytes : 0;
}

export async function buildSite(options: { minify?: boolean } = {}): Promise<{ bytes: number; workerBytes: number }> {
  const minify = options.minify ?? true;
  const bytes = await bundle("main.ts", "site.js", "esm", minify);
  // The replay's auditor runs in Web Workers started from this script (it starts its own for the
  // regeneration). A classic script, not a module: module workers are newer than the page's targets.
  const workerBytes = await bundle("replay/audit-worker.ts", "audit-worker.js", "iife", minify);
  // The sign-in consent page's script (served with the page the Worker renders at /oauth/authorize).
  await bundle("signin/main.ts", "signin.js", "esm", minify);
  // The MCP Apps view (ui://mosaic/field): one self-contained HTML document (scripts/build-view.ts).
  await buildView({ minify });
  return { bytes, workerBytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bytes, workerBytes } = await buildSite();
  console.log(`site bundle: public/app/site.js ${(bytes / 1024).toFixed(1)} KiB, public/app/audit-worker.js ${(workerBytes / 1024).toFixed(1)} KiB`);
}
