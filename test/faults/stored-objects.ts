// What a stopped `wrangler dev` left on disk: the SQLite database of every Durable Object of a
// class, with the tables in it. The fuzz uses it to check that hostile reads and writes on fields
// that do not exist left no storage behind (SPEC §12: bad input changes nothing).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export interface StoredObject {
  file: string;
  /** Tables the object's code created (the runtime's own `_cf_`, `sqlite_` and, under `wrangler dev`, `__miniflare_` tables left out). */
  tables: string[];
}

/** Every persisted object of `className` (e.g. `FieldObject`) under a `--persist-to` folder. */
export function storedObjects(stateDir: string, className: string): StoredObject[] {
  const dir = join(stateDir, "v3", "do");
  if (!existsSync(dir)) return [];
  const folder = readdirSync(dir).find((name) => name.endsWith(`-${className}`));
  if (!folder) return [];
  return readdirSync(join(dir, folder))
    .filter((name) => name.endsWith(".sqlite"))
    .map((name) => {
      const file = join(dir, folder, name);
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
        return { file, tables: rows.map((r) => r.name).filter((n) => !n.startsWith("_cf_") && !n.startsWith("sqlite_") && !n.startsWith("__miniflare_")) };
      } finally {
        db.close();
      }
    });
}

/** The value of one `meta` key (stored as JSON) in every persisted object of `className` that has it. */
export function storedMeta(stateDir: string, className: string, key: string): unknown[] {
  return storedObjects(stateDir, className)
    .filter((o) => o.tables.includes("meta"))
    .flatMap((o) => {
      const db = new DatabaseSync(o.file, { readOnly: true });
      try {
        const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
        return row ? [JSON.parse(row.value) as unknown] : [];
      } finally {
        db.close();
      }
    });
}

/** Runs `read` once the stopped server's last process has let go of its databases (at most ~10 s). */
export async function untilUnlocked<T>(read: () => T): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return read();
    } catch (err) {
      if (attempt >= 40 || !(err instanceof Error) || !/locked|busy/i.test(err.message)) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
