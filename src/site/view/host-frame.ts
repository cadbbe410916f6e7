/**
 * The browser side of the link to the host (host-link.ts): the parent window as the port, the
 * document's size reports, and the host's theme on the document.
 */
import type { HostLink, JsonRpcMessage, Port } from "./host-link";

/**
 * The window that embeds the view. Its origin is unknown (and ours is opaque in a sandboxed
 * frame), so messages go to any origin and only those whose source is that window are heard.
 */
export function parentPort(host: Window = window.parent): Port {
  return {
    post: (message: JsonRpcMessage) => host.postMessage(message, "*"),
    listen(receive) {
      const listener = (event: MessageEvent): void => {
        if (event.source === host) receive(event.data);
      };
      window.addEventListener("message", listener);
      return () => window.removeEventListener("message", listener);
    },
  };
}

/**
 * Reports the document's natural size (`ui/notifications/size-changed`) now and whenever it
 * changes, at most once a frame and only when it differs from the last report. The height is
 * measured with the root at `max-content`, so a frame the host already grew does not hold it up.
 */
export function reportSize(link: HostLink): () => void {
  let queued = false;
  let last = { width: 0, height: 0 };
  const measure = (): void => {
    queued = false;
    const root = document.documentElement;
    const kept = root.style.height;
    root.style.height = "max-content";
    const height = Math.ceil(root.getBoundingClientRect().height);
    root.style.height = kept;
    const width = Math.ceil(window.innerWidth);
    if (width === last.width && height === last.height) return;
    last = { width, height };
    link.sizeChanged(width, height);
  };
  const queue = (): void => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(measure);
  };
  queue();
  const observer = new ResizeObserver(queue);
  observer.observe(document.documentElement);
  observer.observe(document.body);
  return () => observer.disconnect();
}

/** The host's theme as the style reads it: `data-theme` on the root, and the matching built-in colours. */
export function applyTheme(theme: "light" | "dark"): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}
