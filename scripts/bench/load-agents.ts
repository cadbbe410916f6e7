// The load benchmark's agents on threads: each on its own up to MAX_THREADS. Sixteen agents on one event loop
// measured each other: a reply that arrived while another agent was deducing its next move
// waited for that deduction before the wire tap could read it, so every agent's latency held the
// others' thinking (an independent client saw tool calls at 1.2× health during a run whose
// in-process agents reported 1.6–1.7×). Real agents are separate programs; here they are as far
// as a 2-core machine allows.
// A thread plays its reference agents (`playAgent`; one each up to MAX_THREADS agents) behind its
// own wire tap and sends back their summaries and tapped calls, moved onto the main thread's clock.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { playAgent, type AgentOptions, type AgentSummary } from "../../agent";
import { WireTap, type TappedCall } from "../../test/support/wire-tap";

type ThreadOptions = Omit<AgentOptions, "log" | "signal"> & {
  /** Sent as CF-Connecting-IP: the thread's agents act as callers from that address (the flood benchmark). */
  address?: string;
};

/** At most this many threads; more agents share them (64 agents: 4 per thread). Sixty-four threads at once stalled before play on a 2-core machine. */
export const MAX_THREADS = 16;

interface Played {
  summaries: AgentSummary[];
  calls: TappedCall[];
  /** The thread's `performance.timeOrigin`: its `performance.now()` times are offsets from it. */
  timeOrigin: number;
}

/** Agents ready on their threads (modules loaded), started by `go`, answering their summaries and calls. */
export class AgentThreads {
  private constructor(private readonly workers: Worker[], private readonly done: Array<Promise<Played>>) {}

  /** Starts a thread per agent (up to MAX_THREADS, then shared) and resolves once every one has loaded and waits for `go`. */
  static async start(agents: readonly ThreadOptions[]): Promise<AgentThreads> {
    const workers: Worker[] = [];
    const ready: Array<Promise<void>> = [];
    const done: Array<Promise<Played>> = [];
    const threads = Math.min(agents.length, MAX_THREADS);
    const groups = Array.from({ length: threads }, (_, t) => agents.filter((_, i) => i % threads === t));
    for (const group of groups) {
      const worker = new Worker(new URL(import.meta.url), { workerData: group });
      workers.push(worker);
      let loaded: () => void = () => {};
      ready.push(new Promise<void>((resolve) => (loaded = resolve)));
      done.push(
        new Promise<Played>((resolve, reject) => {
          worker.on("message", (m: { kind: "ready" } | ({ kind: "played" } & Played)) => {
            if (m.kind === "ready") loaded();
            else resolve(m);
          });
          worker.on("error", reject);
          worker.on("exit", (code) => reject(new Error(`agent thread exited with ${code} before it answered`)));
        }),
      );
    }
    await Promise.race([Promise.all(ready), Promise.all(done)]);
    return new AgentThreads(workers, done);
  }

  /** Lets every agent play; resolves with their summaries and all their calls, in the order they were sent. */
  async go(): Promise<{ summaries: AgentSummary[]; calls: TappedCall[] }> {
    for (const worker of this.workers) worker.postMessage("go");
    const played = await Promise.all(this.done);
    await Promise.all(this.workers.map((w) => w.terminate()));
    const shift = (p: Played) => p.timeOrigin - performance.timeOrigin;
    const calls = played.flatMap((p) => p.calls.map((c) => ({ ...c, startedAt: c.startedAt + shift(p), endedAt: c.endedAt + shift(p) })));
    calls.sort((a, b) => a.startedAt - b.startedAt);
    return { summaries: played.flatMap((p) => p.summaries), calls };
  }
}

/**
 * A thread's side: load, say ready, wait for `go`, play, answer. Node loads its HTTP client and
 * text codecs on a thread's first fetch (~0.5 s of CPU): one health request before `ready` keeps
 * sixteen threads from doing that at once inside the measured run.
 */
async function playOnThread(agents: ThreadOptions[]): Promise<void> {
  // A thread's event loop may hold nothing but a call's unref'd timeout (AbortSignal.timeout) while
  // that call waits: Node would end the thread there, with its agent mid-game. This handle keeps
  // the thread alive until the main thread ends it.
  setInterval(() => undefined, 1 << 30);
  await warmUp(new URL("/api/health", agents[0].url));
  const inner = globalThis.fetch.bind(globalThis);
  const address = agents[0].address;
  const tap = new WireTap(address ? withAddress(inner, address) : inner);
  tap.install((h) => h.get("authorization")?.slice(-12) ?? "anonymous");
  parentPort!.postMessage({ kind: "ready" });
  await new Promise<void>((resolve) => parentPort!.once("message", () => resolve()));
  const summaries = await Promise.all(agents.map(({ address: _address, ...options }) => playAgent(options)));
  await tap.settle();
  parentPort!.postMessage({ kind: "played", summaries, calls: tap.calls, timeOrigin: performance.timeOrigin });
}

/** `fetch` with every request marked as coming from `address`, as Cloudflare's edge marks it. */
function withAddress(inner: typeof fetch, address: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set("CF-Connecting-IP", address);
    return inner(input, { ...init, headers });
  };
}

/** One health request, so the thread's HTTP client is loaded; a refused one is tried again (64 threads start at once). */
async function warmUp(url: URL): Promise<void> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

if (!isMainThread && parentPort) void playOnThread(workerData as ThreadOptions[]);
