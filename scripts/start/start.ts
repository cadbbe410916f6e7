// `npm start`: the whole service under `wrangler dev` on workerd (http://localhost:8787 by default).
//
//   npm start                      # 127.0.0.1:8787, state persisted in .wrangler/state
//   npm start -- --port 9000       # any wrangler dev option, passed through
//   PORT=9000 npm start            # the port from the environment (IP= for the address)
//   X_LOCAL_OBSERVABILITY=true npm start   # wrangler's local trace store back on (off by default: dev-args.ts)
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { devArgs, devEnv } from "./dev-args.ts";

const wrangler = fileURLToPath(new URL("../../node_modules/wrangler/bin/wrangler.js", import.meta.url));

let args: string[];
try {
  args = devArgs(process.argv.slice(2), process.env);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(2);
}

// wrangler's own entry under this Node (the project's Node 22), with the terminal shared.
const child = spawn(process.execPath, [wrangler, ...args], { stdio: "inherit", env: devEnv(process.env) });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
