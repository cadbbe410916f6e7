/**
 * A failure-injection hook for tests (never armed in production): the field object's RPC methods
 * run through `around`, and a test arms a plan with `FieldObject.injectFault`, accepted only when
 * the test-only variable `MOSAIC_FAULTS` is "1". The failures are real: `reset` aborts the object
 * (the runtime's own reset, answered to every call in flight), `throw` raises inside the method
 * (as a storage error or a bug would).
 */

/** The RPC methods a plan may target. */
export type FaultMethod = "write" | "join" | "observe" | "publicRead" | "events" | "manifest" | "spectatorSnapshot";

export interface FaultPlan {
  method: FaultMethod;
  /** Before the method runs (nothing applied), or after it ran (a write is durable, its answer lost). */
  when: "before" | "after";
  kind: "reset" | "throw";
  /** How many calls fail (a reset fails one: the object and its plans are gone with it). Default 1. */
  times?: number;
}

export class FaultHook {
  private readonly plans: Array<Required<FaultPlan>> = [];

  constructor(
    private readonly enabled: boolean,
    private readonly abort: (reason: string) => void,
    /** Waits until every write so far is durable: an "after" fault strikes once the write is stored. */
    private readonly durable: () => Promise<void> = async () => {},
  ) {}

  /** Arms a plan; refused unless the test-only variable enables the hook. */
  arm(plan: FaultPlan): { ok: true } | { ok: false; error: { code: "bad_input"; message: string } } {
    if (!this.enabled) return { ok: false, error: { code: "bad_input", message: "fault injection exists in tests only" } };
    this.plans.push({ times: 1, ...plan });
    return { ok: true };
  }

  /** Runs `run`, failing as an armed plan says. Costs one length check when nothing is armed. */
  async around<T>(method: FaultMethod, run: () => T | Promise<T>): Promise<T> {
    if (this.plans.length === 0) return run();
    this.fire(this.take(method, "before"), method);
    const result = await run();
    const after = this.take(method, "after");
    if (after) {
      // An abort before the write is durable would lose it too: strike once it is stored.
      await this.durable();
      this.fire(after, method);
    }
    return result;
  }

  private take(method: FaultMethod, when: "before" | "after"): Required<FaultPlan> | null {
    const i = this.plans.findIndex((p) => p.method === method && p.when === when);
    if (i < 0) return null;
    const plan = this.plans[i];
    if (--plan.times <= 0) this.plans.splice(i, 1);
    return plan;
  }

  private fire(plan: Required<FaultPlan> | null, method: FaultMethod): void {
    if (!plan) return;
    const when = plan.when;
    const reason = `injected ${plan.kind} ${when} ${method}`;
    if (plan.kind === "reset") this.abort(reason);
    throw new Error(reason);
  }
}
