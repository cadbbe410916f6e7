/**
 * The engine as it was before the work on generation speed: the reference that the benchmark
 * (`npm run bench:engine`) times against and that the bit-identity test compares with. It is not
 * kept as a copy in the tree: it is read out of the repository's history at REFERENCE_COMMIT into
 * the ignored `.cache/` on first use, so the reference can never drift and never ships.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type * as Generator from "../../../src/engine/generate/generator";
import type * as Digest from "../../../src/engine/field-digest";

/** The last commit before any speed-up of the generator. */
export const REFERENCE_COMMIT = "df737d8933a4597aff910883e6cef43ecea5aafe";

export interface ReferenceEngine {
  generateField: typeof Generator.generateField;
  generateRing: typeof Generator.generateRing;
  fieldDigest: typeof Digest.fieldDigest;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** `src/engine` at the reference commit, extracted once (atomically: parallel test files may race). */
function referenceDir(): string {
  const dir = join(root, ".cache/engine-reference", REFERENCE_COMMIT);
  if (existsSync(join(dir, "src/engine/index.ts"))) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  let tar: Buffer;
  try {
    tar = execFileSync("git", ["archive", "--format=tar", REFERENCE_COMMIT, "src/engine"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    throw new Error(`the reference engine is read from git history (commit ${REFERENCE_COMMIT}); a shallow clone lacks it: fetch the full history (${err instanceof Error ? err.message : String(err)})`);
  }
  execFileSync("tar", ["-x", "-C", tmp], { input: tar });
  try {
    renameSync(tmp, dir);
  } catch {
    // Another process extracted it first: theirs is identical.
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

let loaded: Promise<ReferenceEngine> | undefined;

/** The reference engine's entry points, loaded from the extracted sources. */
export function loadReference(): Promise<ReferenceEngine> {
  loaded ??= (async () => {
    const dir = referenceDir();
    const generator = (await import(pathToFileURL(join(dir, "src/engine/generate/generator.ts")).href)) as typeof Generator;
    const digest = (await import(pathToFileURL(join(dir, "src/engine/field-digest.ts")).href)) as typeof Digest;
    return { generateField: generator.generateField, generateRing: generator.generateRing, fieldDigest: digest.fieldDigest };
  })();
  return loaded;
}
