/**
 * npm run agent -- --url URL [--game ID | --new KIND [G]] [--session S] [options]
 * Plays one field with the reference agent and prints one summary line (or JSON with --json).
 */
import { playAgent } from "./play";
import { formatSummary } from "./summary";
import type { AgentOptions, FieldKind } from "./options";

const USAGE = `usage: npm run agent -- --url URL [--game ID | --new KIND [G]] [options]

  --url URL            the server (http://127.0.0.1:8787 or its /mcp URL)
  --game ID            join this field
  --new KIND [G]       start a field first (scatter|grid|field; G = side for scatter and grid)
                       (neither: join the newest playing field)
  --seed S, --n N, --chunks N, --chunk-g N, --guess accept|reject, --depth D, --fog,
  --grow-minutes M     parameters of the started field
  --session S          session name (default 1); more seats, when the frontier runs out,
                       are S.2 and S.3
  --sessions N         seats to take at most (1..3, default 3)
  --identity PATH      key file (default: $MOSAIC_IDENTITY, else $MOSAIC_CONFIG_HOME/identity.json,
                       else ~/.config/mosaic/identity.json; created when missing)
  --name NAME, --model MODEL, --tag KEY=VALUE (repeatable)
  --expand open|meet   reveal toward open space (default) or toward other agents
  --timeout SECONDS    per call (30)      --idle SECONDS   watch an empty frontier (20)
  --max-seconds S      whole run (3600)   --wait SECONDS   wait for generation (600)
  --turn SECONDS       pause before each call, a model's pace (0)
  --retry SECONDS      keep retrying a call whose connection dropped, e.g. a restarting server (60)
  --quiet              only the summary line      --json   the summary as JSON, nothing else
  --help`;

function fail(message: string): never {
  process.stderr.write(`mosaic-agent: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function number(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n)) fail(`${flag} needs a number`);
  return n;
}

export function parseArgs(argv: string[]): { options: AgentOptions; quiet: boolean; json: boolean } {
  const o: Partial<AgentOptions> & { tags?: Record<string, string> } = {};
  let quiet = false;
  let json = false;
  const field: Record<string, unknown> = {};
  const rules: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) fail(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--help":
      case "-h":
        process.stdout.write(USAGE + "\n");
        process.exit(0);
      case "--url": o.url = value(); break;
      case "--game": o.game = value(); break;
      case "--new": {
        const kind = value();
        if (kind !== "scatter" && kind !== "grid" && kind !== "field") fail(`--new takes scatter, grid or field, not ${kind}`);
        field.kind = kind as FieldKind;
        if (argv[i + 1] !== undefined && /^\d+$/.test(argv[i + 1])) field.G = Number(argv[++i]);
        break;
      }
      case "--seed": field.seed = value(); break;
      case "--n": field.n = number(flag, value()); break;
      case "--chunks": field.chunks = number(flag, value()); break;
      case "--chunk-g": field.chunk_g = number(flag, value()); break;
      case "--grow-minutes": field.grow = { every_minutes: number(flag, value()) }; break;
      case "--guess": rules.guess = value(); break;
      case "--depth": rules.depth = number(flag, value()); break;
      case "--fog": rules.fog = true; break;
      case "--session": o.session = value(); break;
      case "--sessions": o.maxSessions = number(flag, value()); break;
      case "--identity": o.identityFile = value(); break;
      case "--name": o.name = value(); break;
      case "--model": o.model = value(); break;
      case "--tag": {
        const t = value();
        const eq = t.indexOf("=");
        o.tags = { ...(o.tags ?? {}), [eq < 0 ? t : t.slice(0, eq)]: eq < 0 ? "" : t.slice(eq + 1) };
        break;
      }
      case "--expand": {
        const e = value();
        if (e !== "open" && e !== "meet") fail("--expand takes open or meet");
        o.expand = e;
        break;
      }
      case "--timeout": o.timeoutMs = number(flag, value()) * 1000; break;
      case "--turn": {
        const seconds = number(flag, value());
        if (seconds < 0) fail("--turn takes seconds >= 0");
        o.turnMs = seconds * 1000;
        break;
      }
      case "--idle": o.idleSeconds = number(flag, value()); break;
      case "--retry": o.retrySeconds = number(flag, value()); break;
      case "--max-seconds": o.maxSeconds = number(flag, value()); break;
      case "--wait": o.generationSeconds = number(flag, value()); break;
      case "--quiet": quiet = true; break;
      case "--json": json = true; break;
      default: fail(`unknown argument ${arg}`);
    }
  }
  if (!o.url) fail("--url is required");
  if (o.game && field.kind) fail("pass either --game or --new, not both");
  if (!field.kind && (Object.keys(field).length > 0 || Object.keys(rules).length > 0)) fail("field parameters need --new KIND");
  if (field.kind) o.newField = { ...(field as { kind: FieldKind }), ...(Object.keys(rules).length > 0 ? { rules } : {}) };
  if (field.kind === "field" && field.G !== undefined && !field.grow) fail("a field's side is chunks × chunk_g: use --chunks and --chunk-g");
  return { options: o as AgentOptions, quiet, json };
}

const { options, quiet, json } = parseArgs(process.argv.slice(2));
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
const summary = await playAgent({
  ...options,
  signal: controller.signal,
  ...(quiet || json ? {} : { log: (line: string) => process.stderr.write(`${line}\n`) }),
});
process.stdout.write((json ? JSON.stringify(summary) : formatSummary(summary)) + "\n");
process.exit(summary.reason === "error" ? 1 : 0);
