/**
 * The live socket (GET /api/games/:id/live): opens at a revision, hands every message to the
 * page, and on any drop reconnects with backoff from the last revision the page applied, so a
 * reconnect catches up with nothing missing. It never polls the field.
 */
export interface FeedHandlers {
  /** A parsed message from the server. */
  onMessage(message: unknown): void;
  /** The socket opened (true) or dropped (false); `attempt` counts reconnects since the last success. */
  onConnection(open: boolean, attempt: number): void;
}

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

export class LiveSocket {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly url: (fromRevision: number) => string,
    private readonly fromRevision: () => number,
    private readonly handlers: FeedHandlers,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, "page left");
    this.socket = null;
  }

  /** Closes the socket as a network drop would (tests and the "reconnect" path use it). */
  drop(): void {
    this.socket?.close(4000, "dropped by the page");
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private open(): void {
    const base = new URL(this.url(this.fromRevision()), location.href);
    base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(base);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.handlers.onConnection(true, 0);
    });
    socket.addEventListener("message", (e) => {
      if (typeof e.data !== "string") return;
      let message: unknown;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      this.handlers.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.handlers.onConnection(false, ++this.attempt);
      this.scheduleReconnect();
    });
    socket.addEventListener("error", () => {
      // A close event follows; reconnecting happens there.
    });
  }

  private scheduleReconnect(): void {
    if (this.timer) clearTimeout(this.timer);
    const delay = BACKOFF_MS[Math.min(this.attempt - 1, BACKOFF_MS.length - 1)];
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.open();
    }, delay);
  }
}
