// Serves the test host page (page.ts, bundled with esbuild) from loopback, for the e2e test and
// the view benchmark.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

export interface AppsHost {
  url: string;
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test host</title><link rel="icon" href="data:,"></head>
<body style="margin:0"><main id="frame"></main><script type="module" src="/host.js"></script></body></html>`;

export async function startAppsHost(): Promise<AppsHost> {
  const bundled = await build({ entryPoints: [resolve(here, "page.ts")], bundle: true, write: false, format: "esm", target: "es2022", logLevel: "warning" });
  const script = bundled.outputFiles[0].text;
  const server: Server = createServer((req, res) => {
    if (req.url === "/host.js") res.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    else if (req.url === "/" || req.url === "/index.html") res.writeHead(200, { "Content-Type": "text/html" }).end(PAGE);
    else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}
