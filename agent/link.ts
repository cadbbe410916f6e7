/**
 * The run's line to the server: the bearer token (minted or reused), the MCP connection, a call
 * that survives a replaced token, the run's clock and its count of failures in a row.
 */
import { Connection, type ToolOutcome } from "./connection";
import { bearerToken, type MachineIdentity } from "./identity";
import type { AgentOptions } from "./options";
import { Stop } from "./stop";

/** Consecutive failed calls (timeouts, refusals that need a fresh look) before giving up. */
const MAX_FAILURES = 12;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class GameLink {
  private conn: Connection | undefined;
  private reauths = 0;
  private failures = 0;
  /** Call durations of connections replaced after a token change. */
  private readonly durations: number[] = [];

  constructor(
    private readonly o: AgentOptions,
    private readonly url: URL,
    private readonly identity: MachineIdentity,
    private readonly started: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Calls made so far, over every connection of the run. */
  get calls(): number {
    return this.conn?.calls ?? 0;
  }

  /** Every call's duration (ms), over every connection of the run. */
  callDurations(): number[] {
    return [...this.durations, ...(this.conn?.durations ?? [])];
  }

  private timeoutMs(): number {
    return this.o.timeoutMs ?? 30_000;
  }

  private checkClock(): void {
    if (this.o.signal?.aborted) throw new Stop("aborted");
    if (Date.now() - this.started > (this.o.maxSeconds ?? 3600) * 1000) throw new Stop("time");
  }

  async connect(): Promise<void> {
    const { token, minted } = await bearerToken(this.identity, this.url, this.timeoutMs());
    this.log(`${minted ? "minted a token" : "reusing the stored token"} for ${this.identity.machineId} at ${this.url.origin}`);
    await this.conn?.close();
    const calls = this.conn?.calls ?? 0;
    this.durations.push(...(this.conn?.durations ?? []));
    this.conn = await Connection.open({
      url: this.url,
      token,
      timeoutMs: this.timeoutMs(),
      retryMs: (this.o.retrySeconds ?? 60) * 1000,
      signal: this.o.signal,
      onRetry: (message, retriedMs) => this.log(`connection lost (${message}); retrying${retriedMs > 0 ? ` for ${(retriedMs / 1000).toFixed(1)} s` : ""}`),
    });
    this.conn.calls = calls;
  }

  async close(): Promise<void> {
    await this.conn?.close();
  }

  /** A call whose refusal is handled by the caller; transport trouble and a replaced token are handled here. */
  async call<T>(name: string, args: Record<string, unknown>): Promise<ToolOutcome<T>> {
    this.checkClock();
    if (this.o.turnMs) await sleep(this.o.turnMs);
    const r = await (this.conn as Connection).call<T>(name, args);
    if (!r.ok && r.code === "token" && this.reauths < 3) {
      // Another program minted for this machine: take the stored token or mint again, once or twice.
      this.reauths++;
      await this.connect();
      return (this.conn as Connection).call<T>(name, args);
    }
    if (r.ok) this.failures = 0;
    return r;
  }

  /** A failed call that a fresh look may cure; too many in a row end the run. */
  fail(what: string, r: { code: string; message: string }): void {
    this.failures++;
    this.log(`${what}: ${r.code}: ${r.message}`);
    if (this.failures > MAX_FAILURES) throw new Stop("error", `${what}: ${r.code}: ${r.message}`);
  }

  /** A refusal that says the play goes on (a conflict): the failures in a row start again. */
  resetFailures(): void {
    this.failures = 0;
  }
}
