import type { McpServer } from "@modelcontextprotocol/server";
import { registerAppResource, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { ToolContext } from "../context";
import type { ToolRegistrar } from "../tools/registrar";

/** The one MCP Apps view (SPEC §6.2): the agent's neighbourhood of the field, drawn beside its answers. */
export const FIELD_VIEW_URI = "ui://mosaic/field";

/** The tools whose answers the view draws (their `_meta.ui.resourceUri`). */
export const VIEW_TOOLS: ReadonlySet<string> = new Set(["join", "observe", "reveal", "commit"]);

/** Where the build puts the view's single HTML document among the static assets (scripts/build-site.ts). */
export const VIEW_ASSET_PATH = "/app/mcp-view.html";

/** The placeholder in the built document that the read fills with the server's origin (the spectator link). */
export const ORIGIN_PLACEHOLDER = "__MOSAIC_ORIGIN__";

/**
 * The view needs no network: it talks to the server only through the host (postMessage), so its
 * CSP opens nothing, and an empty declaration says so explicitly.
 */
const VIEW_CSP = { connectDomains: [], resourceDomains: [] } as const;

/**
 * Links the four tools to the view: only their listing changes (`_meta.ui.resourceUri`), never
 * their answers, so hosts without MCP Apps see exactly what they saw before. Only the nested key:
 * the extension's `registerAppTool` would add the deprecated flat `ui/resourceUri` too, which
 * every host reads only as a fallback, and its 150 bytes would take `tools/list` over the 16 KB
 * every agent pays for (SPEC §6, token economy).
 */
export function withFieldView(inner: ToolRegistrar): ToolRegistrar {
  return {
    registerTool(name, config, handler) {
      if (!VIEW_TOOLS.has(name)) return inner.registerTool(name, config, handler);
      inner.registerTool(name, { ...config, _meta: { ...config._meta, ui: { resourceUri: FIELD_VIEW_URI } } }, handler);
    },
  };
}

/** `ui://mosaic/field`: the built document, read from the static assets, with this server's origin filled in. */
export function registerFieldView(server: McpServer, ctx: ToolContext): void {
  registerAppResource(
    server,
    "field view",
    FIELD_VIEW_URI,
    { title: "Mosaic field", description: "The agent's neighbourhood of the field, drawn as the spectator draws it (MCP Apps view)." },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: await viewDocument(ctx), _meta: { ui: { csp: VIEW_CSP, prefersBorder: true } } }],
    }),
  );
}

async function viewDocument(ctx: ToolContext): Promise<string> {
  const origin = new URL(ctx.request.url).origin;
  const response = await ctx.env.ASSETS.fetch(new Request(new URL(VIEW_ASSET_PATH, origin)));
  if (!response.ok) throw new Error(`the field view is not built (${VIEW_ASSET_PATH}: HTTP ${response.status}); run npm run build:site`);
  return fillOrigin(await response.text(), origin);
}

/** The origin goes into an attribute value: escaped, though a URL origin holds nothing to escape. */
export function fillOrigin(html: string, origin: string): string {
  const safe = origin.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return html.split(ORIGIN_PLACEHOLDER).join(safe);
}
