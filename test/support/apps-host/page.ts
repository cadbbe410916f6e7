// A minimal MCP Apps host page, built like the ext-apps reference host: the view's HTML in a
// sandboxed iframe (scripts only, an opaque origin, the resource's CSP as a meta policy), talking
// to an AppBridge over PostMessageTransport. The bridge forwards the view's tools/call to
// `window.hostCallTool`, which the test binds to a real MCP client.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/client";

export interface ViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
}

export interface HostHandle {
  load(html: string, csp: ViewCsp | undefined, theme: "light" | "dark"): Promise<void>;
  send(args: Record<string, unknown>, result: CallToolResult): Promise<number>;
  setTheme(theme: "light" | "dark"): Promise<void>;
  sentAt: number;
  opened: string[];
}

declare global {
  interface Window {
    hostCallTool(params: CallToolRequest["params"]): Promise<CallToolResult>;
    host: HostHandle;
  }
}

/** The policy a host derives from `_meta.ui.csp`: nothing beyond what it names (and inline code, the document's own). */
function policy(csp: ViewCsp | undefined): string {
  const connect = csp?.connectDomains?.length ? csp.connectDomains.join(" ") : "'none'";
  const resources = csp?.resourceDomains?.length ? ` ${csp.resourceDomains.join(" ")}` : "";
  return `default-src 'none'; script-src 'unsafe-inline'${resources}; style-src 'unsafe-inline'${resources}; img-src data: blob:${resources}; font-src data:${resources}; connect-src ${connect}`;
}

let bridge: AppBridge | null = null;

window.host = {
  sentAt: 0,
  opened: [],
  async load(html, csp, theme) {
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.title = "Mosaic field view";
    iframe.style.cssText = "display:block;width:100%;height:600px;border:0";
    document.getElementById("frame")!.appendChild(iframe);
    const b = new AppBridge(null, { name: "mosaic-test-host", version: "1.0.0" }, { serverTools: {}, openLinks: {} }, {
      hostContext: { theme, displayMode: "inline", platform: "web", containerDimensions: { width: iframe.clientWidth, maxHeight: 2000 } },
    });
    b.oncalltool = (params) => window.hostCallTool(params);
    b.onopenlink = async ({ url }) => {
      window.host.opened.push(url);
      return {};
    };
    b.onsizechange = ({ height }) => {
      if (height) iframe.style.height = `${height}px`;
    };
    const initialized = new Promise<void>((resolve) => (b.oninitialized = () => resolve()));
    await b.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
    const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(csp)}">`;
    iframe.srcdoc = html.replace(/<head>/i, () => `<head>${meta}`);
    await initialized;
    bridge = b;
  },
  async send(args, result) {
    if (!bridge) throw new Error("no view loaded");
    await bridge.sendToolInput({ arguments: args });
    window.host.sentAt = performance.timeOrigin + performance.now();
    await bridge.sendToolResult(result);
    return window.host.sentAt;
  },
  async setTheme(theme) {
    await bridge?.sendHostContextChange({ theme });
  },
};
document.body.dataset.ready = "1";
