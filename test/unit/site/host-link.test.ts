// The view's link to its MCP Apps host (src/site/view/host-link.ts), in plain Node: against the
// real host side of the protocol (ext-apps' AppBridge) over an in-memory channel standing in for
// postMessage, and against a bare port for what a well-behaved host never sends.
import { describe, expect, it } from "vitest";
import { AppBridge, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { APPS_PROTOCOL_VERSION, HostError, HostLink, type HostContext, type JsonRpcMessage, type Port, type ToolResult } from "../../../src/site/view/host-link";

type Receive = (data: unknown) => void;

/** Two ends that deliver structured clones asynchronously, as postMessage does: the view's Port and a transport for the bridge. */
function channel() {
  let toView: Receive | null = null;
  const fromView: JsonRpcMessage[] = [];
  const bridgeSide = {
    onmessage: undefined as ((message: JsonRpcMessage) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    async start(): Promise<void> {},
    async send(message: JsonRpcMessage): Promise<void> {
      const copy = structuredClone(message);
      setTimeout(() => toView?.(copy));
    },
    async close(): Promise<void> {
      bridgeSide.onclose?.();
    },
  };
  const viewPort: Port = {
    post(message) {
      fromView.push(message);
      const copy = structuredClone(message);
      setTimeout(() => bridgeSide.onmessage?.(copy));
    },
    listen(receive) {
      toView = receive;
      return () => (toView = null);
    },
  };
  return { bridgeSide, viewPort, fromView };
}

async function connected(hostContext: HostContext = { theme: "light", containerDimensions: { width: 390, maxHeight: 2000 } }) {
  const { bridgeSide, viewPort, fromView } = channel();
  const bridge = new AppBridge(null, { name: "test-host", version: "2.0.0" }, { serverTools: {}, openLinks: {} }, { hostContext: hostContext as never });
  const seen = { inputs: [] as Record<string, unknown>[], results: [] as ToolResult[], contexts: [] as HostContext[] };
  const link = new HostLink({ name: "Mosaic field", version: "1.0.0" }, viewPort, {
    onToolInput: (args) => seen.inputs.push(args),
    onToolResult: (result) => seen.results.push(result),
    onHostContextChanged: (context) => seen.contexts.push(context),
  });
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(bridgeSide as never);
  const answer = await link.connect();
  await initialized;
  return { bridge, link, seen, answer, fromView };
}

const until = async (done: () => boolean): Promise<void> => {
  while (!done()) await new Promise((r) => setTimeout(r));
};

describe("the view's link to an MCP Apps host (ext-apps AppBridge)", () => {
  it("completes the handshake: the app's info and version reach the host, the host's capabilities and context reach the view", async () => {
    const { bridge, link, answer, fromView } = await connected();
    expect(fromView).toEqual([
      { jsonrpc: "2.0", id: 0, method: "ui/initialize", params: { appInfo: { name: "Mosaic field", version: "1.0.0" }, appCapabilities: {}, protocolVersion: LATEST_PROTOCOL_VERSION } },
      { jsonrpc: "2.0", method: "ui/notifications/initialized" },
    ]);
    expect(bridge.getAppVersion()).toEqual({ name: "Mosaic field", version: "1.0.0" });
    expect(bridge.getAppCapabilities()).toEqual({});
    expect(answer.protocolVersion).toBe(APPS_PROTOCOL_VERSION);
    expect(link.hostInfo).toEqual({ name: "test-host", version: "2.0.0" });
    expect(link.hostCapabilities?.serverTools).toBeDefined();
    expect(link.hostCapabilities?.openLinks).toBeDefined();
    expect(link.hostContext?.theme).toBe("light");
    expect(link.hostContext?.containerDimensions).toEqual({ width: 390, maxHeight: 2000 });
  });

  it("hands the view the tool input, the tool result and context changes merged into the context", async () => {
    const { bridge, link, seen } = await connected();
    await bridge.sendToolInput({ arguments: { game_id: "g1", agent: "m-a/1" } });
    const result: CallToolResult = { content: [{ type: "text", text: "joined" }], structuredContent: { seed_tile: 3 } };
    await bridge.sendToolResult(result);
    await bridge.sendHostContextChange({ theme: "dark" });
    await until(() => seen.contexts.length > 0);
    expect(seen.inputs).toEqual([{ game_id: "g1", agent: "m-a/1" }]);
    expect(seen.results).toEqual([result]);
    expect(seen.contexts[0].theme).toBe("dark");
    expect(link.hostContext?.containerDimensions).toEqual({ width: 390, maxHeight: 2000 });
  });

  it("calls a server tool through the host and gets its result, and the server's refusal as a result", async () => {
    const { bridge, link } = await connected();
    const calls: unknown[] = [];
    bridge.oncalltool = async (params) => {
      calls.push(params);
      return params.name === "observe" ? { content: [{ type: "text", text: "ok" }], structuredContent: { revision: 9 } } : { content: [{ type: "text", text: "unknown tool" }], isError: true };
    };
    expect(await link.callTool("observe", { game_id: "g1" })).toMatchObject({ structuredContent: { revision: 9 } });
    expect(await link.callTool("nope", {})).toMatchObject({ isError: true });
    expect(calls).toEqual([{ name: "observe", arguments: { game_id: "g1" } }, { name: "nope", arguments: {} }]);
  });

  it("fails a tool call with the host's JSON-RPC error", async () => {
    const { bridge, link } = await connected();
    bridge.oncalltool = async () => {
      throw new Error("server unreachable");
    };
    const failure = await link.callTool("observe", {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HostError);
    expect((failure as HostError).message).toContain("server unreachable");
  });

  it("asks the host to open a link and reports its size", async () => {
    const { bridge, link } = await connected();
    const opened: string[] = [];
    const sizes: { width?: number; height?: number }[] = [];
    bridge.onopenlink = async ({ url }) => (opened.push(url), url.startsWith("https:") ? {} : { isError: true });
    bridge.onsizechange = (size) => sizes.push(size);
    expect(await link.openLink("https://mosaic.example/?game=g1")).toEqual({ isError: false });
    expect(await link.openLink("javascript:void 0")).toEqual({ isError: true });
    link.sizeChanged(390, 812);
    await until(() => sizes.length > 0);
    expect(opened).toEqual(["https://mosaic.example/?game=g1", "javascript:void 0"]);
    expect(sizes).toEqual([{ width: 390, height: 812 }]);
  });

  it("answers the host's teardown request", async () => {
    const { bridge } = await connected();
    await expect(bridge.teardownResource({})).resolves.toEqual({});
  });
});

describe("the link on a bare port", () => {
  function bare(timeoutMs?: number) {
    const sent: JsonRpcMessage[] = [];
    let deliver: Receive = () => undefined;
    const port: Port = { post: (m) => void sent.push(m), listen: (r) => ((deliver = r), () => undefined) };
    const link = new HostLink({ name: "v", version: "1" }, port, {}, timeoutMs);
    return { link, sent, deliver: (m: unknown) => deliver(m) };
  }

  it("answers ping with an empty result and an unknown request with method not found; ignores what is not JSON-RPC", async () => {
    const { link, sent, deliver } = bare();
    void link.connect().catch(() => undefined);
    sent.length = 0;
    deliver({ jsonrpc: "2.0", id: 7, method: "ping" });
    deliver({ jsonrpc: "2.0", id: "x", method: "tools/list", params: {} });
    deliver({ hello: "world" });
    deliver({ jsonrpc: "2.0", id: 99, result: {} });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 7, result: {} },
      { jsonrpc: "2.0", id: "x", error: { code: -32601, message: "Method not found: tools/list" } },
    ]);
    link.close();
  });

  it("fails a request the host never answers and tells the host it gave up", async () => {
    const { link, sent, deliver } = bare(20);
    void link.connect().catch(() => undefined);
    deliver({ jsonrpc: "2.0", id: 0, result: { protocolVersion: APPS_PROTOCOL_VERSION, hostCapabilities: { serverTools: {} }, hostContext: {} } });
    const failure = await link.callTool("observe", {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HostError);
    expect((failure as HostError).message).toMatch(/tools\/call timed out/);
    expect(sent.at(-1)).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "timed out" } });
  });
});
