// A pass-through HTTP proxy in front of the server that records every request and the status
// answered, so a test can see exactly what a client asked for (OAuth discovery, 401s…).
import { createServer, type Server } from "node:http";

export interface Exchange {
  method: string;
  path: string;
  status: number;
  authorization: boolean;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "connection" && k !== "content-length") headers[k] = v;
      const method = req.method ?? "GET";
      fetch(new URL(req.url ?? "/", target), { method, headers, body: method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks) })
        .then(async (answer) => {
          exchanges.push({ method, path: req.url ?? "/", status: answer.status, authorization: req.headers.authorization !== undefined });
          const out: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (k !== "content-encoding" && k !== "content-length" && k !== "transfer-encoding") out[k] = v;
          });
          res.writeHead(answer.status, out);
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((err: unknown) => {
          exchanges.push({ method, path: req.url ?? "/", status: 502, authorization: req.headers.authorization !== undefined });
          res.writeHead(502).end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
