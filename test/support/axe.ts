// axe-core's WCAG A/AA rules run inside any page or frame a test has open (SPEC §10, "Everyone can
// use it"). The engine's source is read from node_modules and evaluated in the page: nothing is
// fetched, and evaluation through the DevTools protocol is not subject to the page's
// Content-Security-Policy (the consent page allows only its own scripts).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the tags axe-core files those rules under. */
export const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/** The impacts a page may not have (SPEC §10: no serious or critical violation). */
export const BLOCKING = new Set(["serious", "critical"]);

export interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}

export interface AxeViolation {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

export interface AxeOptions {
  /** CSS selectors to leave out of the check (e.g. a third party's widget); none by default. */
  exclude?: string[];
}

let source: string | undefined;
function axeSource(): string {
  source ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  return source;
}

/**
 * Runs axe-core's WCAG 2.0–2.2 A and AA rules on what `target` shows now and returns every
 * violation (any impact). Works on a Page or a Frame (an embedded view's iframe).
 */
export async function runAxe(target: Page | Frame, options: AxeOptions = {}): Promise<AxeViolation[]> {
  const loaded = await target.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!loaded) await target.evaluate(axeSource());
  return target.evaluate(
    async ({ tags, exclude }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe;
      const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
      const result = await axe.run(context, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
      return JSON.parse(JSON.stringify(result.violations)) as AxeViolation[];
    },
    { tags: [...WCAG_AA_TAGS], exclude: options.exclude ?? [] },
  );
}

/** The violations a page may not have: serious and critical ones. */
export function blocking(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact !== null && BLOCKING.has(v.impact));
}

/** One line per violation: id, impact, how many nodes, the rule's help, and the first few targets. */
export function describeViolations(violations: readonly AxeViolation[], targets = 3): string {
  return violations
    .map((v) => {
      const shown = v.nodes.slice(0, targets).map((n) => JSON.stringify(n.target)).join(", ");
      const more = v.nodes.length > targets ? ` … +${v.nodes.length - targets}` : "";
      return `${v.id} (${v.impact ?? "?"}, ×${v.nodes.length}): ${v.help} — ${shown}${more}`;
    })
    .join("\n");
}

/** Counts of violating nodes by impact, e.g. for a figures table: `{serious: 23, moderate: 1}`. */
export function countByImpact(violations: readonly AxeViolation[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of violations) out[v.impact ?? "unknown"] = (out[v.impact ?? "unknown"] ?? 0) + v.nodes.length;
  return out;
}

/**
 * Runs the check and throws, listing each serious or critical violation, if there is any; returns
 * every violation (the minor and moderate ones too) for the caller to report.
 */
export async function expectAccessible(target: Page | Frame, label: string, options: AxeOptions = {}): Promise<AxeViolation[]> {
  const all = await runAxe(target, options);
  const bad = blocking(all);
  if (bad.length) throw new Error(`${label}: ${bad.length} serious or critical axe violation(s) (WCAG 2.2 A/AA)\n${describeViolations(bad)}`);
  return all;
}
