import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The Worker split in two `wrangler dev` processes, so a benchmark can read the field object's
 * CPU apart from the relays' (docs/scale.md "Measuring it"): one process hosts the field and
 * every other object, the other hosts the relays (`RelayObject`) and answers the spectators'
 * upgrades. Each binds the other's objects by `script_name`, which wrangler's dev registry
 * connects across processes (RPC included). Both configs are made from the repository's
 * wrangler.toml, so they carry every binding and variable it has; `npm start` is untouched.
 */
export const FIELD_WORKER = "mosaic-bench-field";
export const RELAY_WORKER = "mosaic-bench-relays";

/** Bindings the field's process hosts and the relays' process reaches by script_name. */
const FIELD_CLASSES = ["FieldObject", "IdentityObject", "RegistryObject", "HistoryObject"];
const RELAY_CLASSES = ["RelayObject"];

export interface SplitConfigs {
  field: string;
  relays: string;
}

/** Writes the two configs into `dir` and returns their paths. */
export function writeSplitConfigs(dir: string, root = resolve(".")): SplitConfigs {
  // The hosted profile has nothing to do with a local benchmark (and repeats the bindings).
  const local = readFileSync(join(root, "wrangler.toml"), "utf8").split(/^\[env\./m)[0];
  const absolute = replaceOnce(
    replaceOnce(local, /^main\s*=\s*"([^"]+)"/m, (path) => `main = ${JSON.stringify(resolve(root, path))}`),
    /^directory\s*=\s*"([^"]+)"/m,
    (path) => `directory = ${JSON.stringify(resolve(root, path))}`,
  );
  mkdirSync(dir, { recursive: true });
  const field = join(dir, "field.toml");
  const relays = join(dir, "relays.toml");
  writeFileSync(field, bindElsewhere(rename(absolute, FIELD_WORKER), RELAY_CLASSES, RELAY_WORKER));
  writeFileSync(relays, bindElsewhere(rename(absolute, RELAY_WORKER), FIELD_CLASSES, FIELD_WORKER));
  return { field, relays };
}

function rename(config: string, name: string): string {
  return replaceOnce(config, /^name\s*=\s*"([^"]+)"/m, () => `name = ${JSON.stringify(name)}`);
}

/** Each binding of one of `classes` points at the Worker `script`. */
function bindElsewhere(config: string, classes: string[], script: string): string {
  let out = config;
  for (const cls of classes) {
    out = replaceOnce(out, new RegExp(`^class_name\\s*=\\s*"(${cls})"`, "m"), () => `class_name = "${cls}"\nscript_name = ${JSON.stringify(script)}`);
  }
  return out;
}

/** Replaces the one match of `pattern` (its first group passed to `by`); throws when there is none. */
function replaceOnce(text: string, pattern: RegExp, by: (group: string) => string): string {
  const m = pattern.exec(text);
  if (!m) throw new Error(`wrangler.toml has no line matching ${pattern}: update scripts/bench/split-relays.ts`);
  return text.slice(0, m.index) + by(m[1]) + text.slice(m.index + m[0].length);
}
