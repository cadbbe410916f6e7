import { setPriority } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { now, sleep } from "./live-writers";

/**
 * The live benchmarks' spectators: WebSockets on `GET /api/games/:id/live`, spread over worker
 * threads so that decoding every copy of every batch does not slow the writers down. Each socket
 * records when it first received each revision (absolute ms, comparable across threads).
 */
export interface SocketResult {
  received: Array<[number, number]>;
  resyncs: number;
  /** `events` messages this socket received. */
  messages: number;
}

export interface Spectators {
  /** Waits until every socket has `head`, or until a deadline for a feed that fell behind. */
  caughtUp(head: number): Promise<void>;
  /** Closes the sockets and answers what each received. */
  close(): Promise<SocketResult[]>;
}

/** At least this many sockets per thread; more once MAX_THREADS threads are in use. */
const PER_THREAD = 125;
const MAX_THREADS = 16;
/** Sockets a thread opens at once (each opening is a call from the relay to the field). */
const OPENING_AT_ONCE = 8;
const OPEN_TIMEOUT_MS = 30_000;
const STALL_MS = 20_000;

interface ThreadData {
  liveSpectators: true;
  base: string;
  gameId: string;
  from: number;
  count: number;
  nice?: number;
}

export async function startSpectators(base: string, gameId: string, from: number, count: number, nice?: number): Promise<Spectators> {
  const perThread = Math.max(PER_THREAD, Math.ceil(count / MAX_THREADS));
  const threads: Worker[] = [];
  const ready: Array<Promise<void>> = [];
  for (let i = 0; i < count; i += perThread) {
    const data: ThreadData = { liveSpectators: true, base, gameId, from, count: Math.min(perThread, count - i), nice };
    const w = new Worker(new URL(import.meta.url), { workerData: data, execArgv: ["--import", "tsx"] });
    threads.push(w);
    ready.push(
      new Promise((resolve, reject) => {
        w.once("error", reject);
        w.once("message", (m: { type: string; error?: string }) => (m.type === "ready" ? resolve() : reject(new Error(m.error))));
      }),
    );
  }
  await Promise.all(ready);
  /** Sends `type` to every thread and waits for each one's answer of type `answer`. */
  const ask = <T>(message: { type: string; head?: number }, answer: string): Promise<T[]> =>
    Promise.all(
      threads.map(
        (w) =>
          new Promise<T>((resolve) => {
            const on = (m: { type: string; sockets?: SocketResult[] }): void => {
              if (m.type !== answer) return;
              w.off("message", on);
              resolve(m.sockets as T);
            };
            w.on("message", on);
            w.postMessage(message);
          }),
      ),
    );
  return {
    async caughtUp(head: number) {
      await ask({ type: "wait", head }, "caught-up");
    },
    async close() {
      const results = await ask<SocketResult[]>({ type: "close" }, "done");
      await Promise.all(threads.map((w) => w.terminate()));
      return results.flat();
    },
  };
}

interface Entry {
  socket: WebSocket;
  received: Map<number, number>;
  resyncs: number;
  messages: number;
}

async function open(url: string): Promise<Entry> {
  for (let attempt = 1; ; attempt++) {
    const socket = new WebSocket(url);
    const entry: Entry = { socket, received: new Map(), resyncs: 0, messages: 0 };
    socket.addEventListener("message", (m) => {
      const t = now();
      const msg = JSON.parse(String(m.data)) as { type: string; events?: Array<{ rev: number }> };
      if (msg.type === "resync") entry.resyncs++;
      if (msg.type === "events") entry.messages++;
      for (const e of msg.events ?? []) if (!entry.received.has(e.rev)) entry.received.set(e.rev, t);
    });
    const opened = await new Promise<boolean>((resolve) => {
      socket.addEventListener("open", () => resolve(true), { once: true });
      socket.addEventListener("error", () => resolve(false), { once: true });
      // A server out of file descriptors may never answer the upgrade.
      setTimeout(() => resolve(false), OPEN_TIMEOUT_MS);
    });
    if (opened) return entry;
    socket.close();
    // A loaded machine refuses a connection now and then: try again, a few times.
    if (attempt >= 5) throw new Error(`socket ${url} failed ${attempt} times`);
    await sleep(250 * attempt);
  }
}

/** In a worker thread: `count` sockets; on "close", the receipt time of every event per socket. */
async function spectatorThread(d: ThreadData): Promise<void> {
  // Decoding every copy of every batch yields the CPU to the writers and the server (nice is per thread on Linux).
  if (d.nice !== undefined) setPriority(0, d.nice);
  const url = `${d.base.replace("http", "ws")}/api/games/${d.gameId}/live?from=${d.from}`;
  const sockets: Entry[] = [];
  try {
    for (let i = 0; i < d.count; i += OPENING_AT_ONCE) {
      const n = Math.min(OPENING_AT_ONCE, d.count - i);
      sockets.push(...(await Promise.all(Array.from({ length: n }, () => open(url)))));
    }
  } catch (err) {
    parentPort!.postMessage({ type: "failed", error: String(err) });
    return;
  }
  parentPort!.postMessage({ type: "ready" });
  parentPort!.on("message", (m: { type: string; head?: number }) => {
    if (m.type === "close") {
      for (const s of sockets) s.socket.close();
      parentPort!.postMessage({ type: "done", sockets: sockets.map((s) => ({ received: [...s.received], resyncs: s.resyncs, messages: s.messages })) });
      return;
    }
    if (m.type !== "wait" || m.head === undefined) return;
    const head = m.head;
    // A feed that fell behind (thousands of sockets on a loaded machine) drains for as long as it
    // makes progress; the wait ends STALL_MS after the last event any socket received.
    const received = (): number => sockets.reduce((n, s) => n + s.received.size, 0);
    let seen = received();
    let lastProgress = Date.now();
    const check = (): void => {
      const total = received();
      if (total > seen) {
        seen = total;
        lastProgress = Date.now();
      }
      if (Date.now() - lastProgress < STALL_MS && sockets.some((s) => !s.received.has(head))) {
        setTimeout(check, 50);
        return;
      }
      parentPort!.postMessage({ type: "caught-up" });
    };
    check();
  });
}

if (!isMainThread && (workerData as Partial<ThreadData> | null)?.liveSpectators) await spectatorThread(workerData as ThreadData);
