// Bundles the spectator site (src/site) into public/app/, which is not in git. Runs before
// `npm start`, `npm test` and `npm run build`, and in the e2e harness's global setup, so every
// server that serves public/ serves a fresh bundle.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export async function buildSite(options: { minify?: boolean } = {}): Promise<{ bytes: number; workerBytes: number }> {
  const result = await build({
    entryPoints: [resolve(root, "src/site/main.ts")],
    outfile: resolve(root, "public/app/site.js"),
    bundle: true,
    format: "esm",
    target: ["es2022", "chrome110", "safari16", "firefox110"],
    minify: options.minify ?? true,
    sourcemap: true,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  // The replay's auditor runs in Web Workers started from this script (it starts its own for the
  // regeneration). A classic script, not a module: module workers are newer than the page's targets.
  const worker = await build({
    entryPoints: [resolve(root, "src/site/replay/audit-worker.ts")],
    outfile: resolve(root, "public/app/audit-worker.js"),
    bundle: true,
    format: "iife",
    target: ["es2022", "chrome110", "safari16", "firefox110"],
    minify: options.minify ?? true,
    sourcemap: true,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  // The sign-in consent page's script (served with the page the Worker renders at /oauth/authorize).
  await build({
    entryPoints: [resolve(root, "src/site/signin/main.ts")],
    outfile: resolve(root, "public/app/signin.js"),
    bundle: true,
    format: "esm",
    target: ["es2022", "chrome110", "safari16", "firefox110"],
    minify: options.minify ?? true,
    legalComments: "none",
    logLevel: "warning",
  });
  const out = Object.entries(result.metafile.outputs).find(([name]) => name.endsWith("site.js"));
  const workerOut = Object.entries(worker.metafile.outputs).find(([name]) => name.endsWith("audit-worker.js"));
  return { bytes: out ? out[1].bytes : 0, workerBytes: workerOut ? workerOut[1].bytes : 0 };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bytes, workerBytes } = await buildSite();
  console.log(`site bundle: public/app/site.js ${(bytes / 1024).toFixed(1)} KiB, public/app/audit-worker.js ${(workerBytes / 1024).toFixed(1)} KiB`);
}
