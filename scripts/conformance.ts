// Runs the MCP conformance suite against /mcp and summarises it per protocol revision.
//
//   npm run conformance                      # starts `wrangler dev` on a free port
//   npm run conformance -- --url https://mosaic.example/mcp
//   npm run conformance -- --versions 2025-11-25 --keep results/
//
// Many scenarios exercise fixture surface that only the suite's reference server has (tools named
// test_*, resources under test://, prompts, logging, completions, elicitation). A game server does
// not offer them, so their fixture checks are listed as not applicable, each with its reason. A
// check is only ever "not applicable" when its scenario is in the table below AND its failure says
// the fixture is missing; every other failure, and every wire-schema check, counts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer, type DevServer } from "../test/support/wrangler-dev.ts";

/** The suite release that knows revision 2026-07-28 (0.1.x stops at 2025-11-25). */
const SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const DEFAULT_VERSIONS = ["2025-11-25", "2026-07-28"];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** Scenarios whose fixture checks cannot apply to Mosaic, and why. */
const NOT_APPLICABLE: Array<{ scenario: RegExp; checks?: RegExp; reason: string }> = [
  { scenario: /^tools-call-/, reason: "calls the suite's fixture tools (test_*); Mosaic's tools are the game's" },
  { scenario: /^json-schema-2020-12$/, reason: "calls the fixture tool json_schema_2020_12_tool" },
  { scenario: /^elicitation-/, reason: "calls fixture elicitation tools; Mosaic never asks the client for input" },
  { scenario: /^input-required-result-/, reason: "calls fixture input_required tools; Mosaic never asks the client for input" },
  { scenario: /^prompts-/, reason: "Mosaic offers no prompts" },
  { scenario: /^caching$/, checks: /prompts-list/, reason: "Mosaic offers no prompts" },
  { scenario: /^completion-complete$/, reason: "Mosaic offers no completions (no prompts, no resource templates)" },
  { scenario: /^logging-set-level$/, reason: "Mosaic declares no logging capability" },
  { scenario: /^resources-(read-text|read-binary|templates-read)$/, reason: "reads fixture resources under test://; Mosaic's resource is mosaic://rules" },
  { scenario: /^resources-(subscribe|unsubscribe)$/, reason: "stateless server: no resource subscriptions (the rules never change while it runs)" },
  { scenario: /^http-custom-header-server-validation$/, reason: "no Mosaic tool declares x-mcp-header parameters" },
  {
    scenario: /^server-stateless$/,
    checks: /undeclared-capability|missing-capability|no-independent-requests-on-stream|no-log-without-loglevel|list-changed-on-subscription/,
    reason: "needs the suite's diagnostic tools (test_missing_capability, test_streaming_elicitation, test_logging_tool) or a mutable tool list",
  },
];

/** What a missing fixture looks like in a failure message. */
const FIXTURE_MISSING = /not found|Not testable|Method not found|Prerequisite failed|Expected InputRequiredResult|no notifications|re-request/i;

function parseArgs(argv: string[]): { url?: string; versions: string[]; keep?: string } {
  const out: { url?: string; versions: string[]; keep?: string } = { versions: DEFAULT_VERSIONS };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--url") out.url = argv[++i];
    else if (argv[i] === "--versions") out.versions = argv[++i].split(",");
    else if (argv[i] === "--keep") out.keep = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (use --url URL, --versions a,b, --keep DIR)`);
  }
  return out;
}

function classify(scenario: string, check: Check): { kind: "pass" | "fail" | "na" | "info"; reason?: string } {
  if (check.status === "SUCCESS") return { kind: "pass" };
  if (check.status === "INFO" || check.status === "SKIPPED") return { kind: "info" };
  if (check.id !== "wire-schema-valid") {
    for (const rule of NOT_APPLICABLE) {
      if (rule.scenario.test(scenario) && (!rule.checks || rule.checks.test(check.id)) && FIXTURE_MISSING.test(check.errorMessage ?? "")) {
        return { kind: "na", reason: rule.reason };
      }
    }
  }
  return { kind: check.status === "WARNING" ? "info" : "fail" };
}

function runSuite(url: string, version: string, outDir: string): Array<{ scenario: string; checks: Check[] }> {
  const run = spawnSync("npx", ["-y", SUITE, "server", "--url", url, "--spec-version", version, "--suite", "all", "-o", outDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  const results: Array<{ scenario: string; checks: Check[] }> = [];
  for (const dir of readdirSync(outDir).sort()) {
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(join(outDir, dir, "checks.json"), "utf8")) as Check[];
    results.push({ scenario, checks });
  }
  if (results.length === 0) throw new Error(`the suite produced no results:\n${run.stdout}\n${run.stderr}`);
  return results;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  let server: DevServer | undefined;
  const url = args.url ?? `${(server = await startDevServer()).baseUrl}/mcp`;
  const root = args.keep ?? mkdtempSync(join(tmpdir(), "mosaic-conformance-"));
  let failures = 0;
  try {
    console.log(`MCP conformance (${SUITE}) against ${url}\n`);
    for (const version of args.versions) {
      const results = runSuite(url, version, join(root, version));
      const tally = { pass: 0, fail: 0, na: 0, info: 0 };
      const failed: string[] = [];
      const warnings: string[] = [];
      const notApplicable = new Map<string, string>();
      for (const { scenario, checks } of results) {
        for (const check of checks) {
          const verdict = classify(scenario, check);
          tally[verdict.kind]++;
          if (verdict.kind === "info" && check.status === "WARNING") warnings.push(`${scenario} / ${check.id}: ${check.errorMessage ?? ""}`);
          if (verdict.kind === "fail") failed.push(`${scenario} / ${check.id}: ${check.errorMessage ?? check.status}`);
          if (verdict.kind === "na") notApplicable.set(scenario, verdict.reason ?? "");
        }
      }
      failures += tally.fail;
      console.log(`== spec ${version}: ${results.length} scenarios, ${tally.pass + tally.fail + tally.na + tally.info} checks`);
      console.log(`   passed ${tally.pass}, failed ${tally.fail}, not applicable ${tally.na}, info/warning ${tally.info}`);
      for (const line of failed) console.log(`   FAIL ${line}`);
      for (const line of warnings) console.log(`   warning ${line.slice(0, 240)}`);
      if (notApplicable.size > 0) {
        console.log(`   not applicable (fixture-only checks):`);
        for (const [scenario, reason] of notApplicable) console.log(`     - ${scenario}: ${reason}`);
      }
      console.log("");
    }
    console.log(failures === 0 ? "conformance: no applicable check failed" : `conformance: ${failures} applicable check(s) failed`);
  } finally {
    await server?.stop();
    if (!args.keep) rmSync(root, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
