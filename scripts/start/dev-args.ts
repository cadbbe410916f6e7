// The arguments `npm start` gives `wrangler dev`: the defaults of a local run, each of which the
// user's own arguments (or the PORT and IP environment variables) replace instead of repeating.
// Wrangler refuses an option given twice, so a default is added only when the user gave none.

export const DEFAULT_PORT = "8787";
export const DEFAULT_IP = "127.0.0.1";
export const DEFAULT_STATE = ".wrangler/state";

/** True when `args` sets the option `--name`, as `--name value` or `--name=value`. */
function hasOption(args: readonly string[], name: string): boolean {
  return args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
}

/**
 * `wrangler dev` arguments for `npm start [-- user args]`: `--local`, `--ip`, `--port` and
 * `--persist-to` and `--var MOSAIC_DEV:1` as defaults, then the user's arguments unchanged. Throws on a PORT that is not
 * a port number, so a typo is reported instead of wrangler picking something else.
 */
export function devArgs(userArgs: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const defaults: string[] = [];
  if (!hasOption(userArgs, "local") && !hasOption(userArgs, "remote")) defaults.push("--local");
  if (!hasOption(userArgs, "ip")) defaults.push("--ip", env.IP?.trim() || DEFAULT_IP);
  if (!hasOption(userArgs, "port")) defaults.push("--port", portFrom(env.PORT));
  if (!hasOption(userArgs, "persist-to")) defaults.push("--persist-to", DEFAULT_STATE);
  // A local run is a development server: the dev routes open and close days at once (docs/daily.md).
  if (!userArgs.some((a) => a.includes("MOSAIC_DEV"))) defaults.push("--var", "MOSAIC_DEV:1");
  return ["dev", ...defaults, ...userArgs];
}

function portFrom(value: string | undefined): string {
  const text = value?.trim();
  if (!text) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw new Error(`PORT must be a port number (1-65535), got ${JSON.stringify(value)}`);
  return String(port);
}

/**
 * The environment `wrangler dev` runs with: the caller's, with wrangler's local trace store off
 * unless the caller sets `X_LOCAL_OBSERVABILITY` itself. That store (the local explorer's traces)
 * writes and fsyncs a trace row for every invocation, each Durable Object call included: it more
 * than doubled the cost of an object call and made a tool call ~1.5× dearer than the service's own work.
 */
export function devEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...env, X_LOCAL_OBSERVABILITY: env.X_LOCAL_OBSERVABILITY ?? "false" };
}
